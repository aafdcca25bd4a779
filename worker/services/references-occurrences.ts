/**
 * @module worker/services/references-occurrences
 *
 * The occurrences of a word in one candidate file for `findReferences`
 * (worker/services/symbols-references.ts): exact lines and columns from a whole-word regex, what
 * each is from the syntax tree (references-syntax.ts), which definition it refers to
 * (references-resolve.ts), and the symbol enclosing it.
 */
import type { z } from "zod";
import { splitLines } from "./files";
import { excerpt, roleOf, wordPattern } from "./references-text";
import { resolveOccurrence, type DefRow, type OccurrenceScope } from "./references-resolve";
import { fileImports } from "./references-scope";
import { classifyOccurrences, LEXICAL_KINDS, type SyntaxFacts } from "./references-syntax";
import type { RefSnapshot } from "./refs";
import type { Reference, referredDefinitionSchema } from "./references-schema";

const CLASS_LIKE = new Set(["class", "interface", "struct", "trait", "enum", "module"]);

/** A file that mentions the word (FTS5 candidate), in the repo's active snapshot. */
export interface CandidateFile {
  repo: string;
  file_id: string;
  path: string;
  language: string;
}

/** A symbol row of the file: its name, kind and lines. */
export interface SymbolSpan {
  name: string;
  kind: string;
  container: string | null;
  start_line: number;
  end_line: number;
}

/** A definition row as a `refersTo` entry. */
export function referred(d: DefRow): z.infer<typeof referredDefinitionSchema> {
  return { path: d.path, line: d.start_line, container: d.container, signature: d.signature };
}

export /** Occurrences of `word` in one file: kind from the syntax tree, definition it refers to, enclosing symbol. */
async function occurrencesIn(file: CandidateFile, snap: RefSnapshot, text: string, spans: SymbolSpan[], word: string, allDefs: DefRow[]): Promise<Reference[]> {
  const wordRe = wordPattern(word, file.language);
  const found: { line: number; column: number; lineText: string; start: number }[] = [];
  let offset = 0;
  for (const [i, lineText] of splitLines(text).entries()) {
    for (const m of lineText.matchAll(wordRe)) found.push({ line: i + 1, column: m.index + 1, lineText, start: offset + m.index });
    offset += lineText.length + 1 + (text[offset + lineText.length] === "\r" ? 1 : 0);
  }
  if (!found.length) return [];
  const facts = await classifyOccurrences(
    file.language,
    text,
    found.map((o) => ({ start: o.start, end: o.start + word.length })),
  );
  const imports = fileImports(file.language, text);
  const role = roleOf(file.path, file.language);
  // Definitions of `word`: the first occurrence inside each one's range is its name.
  const defs = spans.filter((s) => s.name === word).map((s) => ({ ...s, seen: false }));
  // The alias of `x as x` is the place of the name before it: listed once.
  return found.flatMap((o, k) => {
    if (facts?.[k]?.sameNameAlias) return [];
    const def = defs.find((d) => !d.seen && d.start_line <= o.line && o.line <= d.end_line);
    if (def) def.seen = true;
    const f: SyntaxFacts = facts?.[k] ?? { kind: "text", receiver: null, receiverCall: null, args: null };
    const kind = def && !LEXICAL_KINDS.has(f.kind) ? "definition" : f.kind;
    const enclosing = enclosingSymbol(spans, o.line, def);
    const scope: OccurrenceScope = {
      word,
      repo: file.repo,
      path: file.path,
      language: file.language,
      text,
      imports,
      line: o.line,
      enclosingClass: enclosingClass(spans, o.line),
    };
    const { refersTo, via } = resolveOccurrence({ ...f, kind }, scope, allDefs);
    const occurrence: Reference = {
      repo: file.repo,
      ref: snap.ref,
      commit: snap.commit,
      path: file.path,
      line: o.line,
      column: o.column,
      text: excerpt(o.lineText, o.column - 1, word.length),
      definition: kind === "definition",
      kind,
      lexical: LEXICAL_KINDS.has(kind),
      refersTo: refersTo ? refersTo.map(referred) : null,
      via,
      role,
      enclosing,
    };
    return [occurrence];
  });
}

/** The class-like symbol a line is in: the innermost class span, or the container of the innermost member span. */
function enclosingClass(spans: SymbolSpan[], line: number): string | null {
  let best: SymbolSpan | undefined;
  for (const s of spans) {
    if (s.start_line > line || s.end_line < line) continue;
    if (!best || s.end_line - s.start_line < best.end_line - best.start_line) best = s;
  }
  if (!best) return null;
  if (CLASS_LIKE.has(best.kind) && best.kind !== "module") return best.name;
  return best.container;
}

/** The innermost symbol whose range holds `line`, other than the definition being named there. */
function enclosingSymbol(spans: SymbolSpan[], line: number, self: SymbolSpan | undefined): Reference["enclosing"] {
  let best: SymbolSpan | undefined;
  for (const s of spans) {
    if (s.start_line > line || s.end_line < line) continue;
    if (self && s.name === self.name && s.start_line === self.start_line && s.end_line === self.end_line) continue;
    if (!best || s.end_line - s.start_line < best.end_line - best.start_line) best = s;
  }
  return best ? { name: best.name, kind: best.kind, container: best.container } : null;
}
