/**
 * @module worker/services/references-resolve
 *
 * Which definition an occurrence refers to, where the code makes it clear: the receiver's
 * declared type (`formatter.format` with `InvoiceFormatter formatter`), a module import
 * (`loyalty.applyDiscount`, `from billing.parser import parse`, Go's `tax.Compute`), the
 * enclosing class for a bare or `this.` call, the file or package for a top-level function;
 * an overload by argument count. `null` means the code does not say; `[]` means it refers to
 * something outside the index (`String.format`).
 */
import { LEXICAL_KINDS, type SyntaxFacts } from "./references-syntax";
import { declaredType, moduleIs, type FileImports } from "./references-scope";
import { signatureParams } from "./symbols-qualified";

/** A definition of the searched word, from the symbol table of an active snapshot. */
export interface DefRow {
  repo: string;
  path: string;
  name: string;
  kind: string;
  container: string | null;
  signature: string | null;
  start_line: number;
  end_line: number;
}

/** The file an occurrence is in, and its innermost enclosing symbol. */
export interface OccurrenceScope {
  /** The searched identifier. */
  word: string;
  repo: string;
  path: string;
  language: string;
  text: string;
  imports: FileImports;
  line: number;
  /** The class-like container the line is in (the enclosing method's container, or the class itself). */
  enclosingClass: string | null;
}

/** Where an occurrence points: the definitions (null = cannot tell) and how that was decided. */
export interface Resolution {
  refersTo: DefRow[] | null;
  via: string | null;
}

const SELF_RECEIVERS = new Set(["this", "self", "base", "super", "cls", "Me"]);
const TYPE_KINDS = new Set(["class", "interface", "struct", "trait", "enum", "type"]);

function lastContainerPart(c: string | null): string | null {
  return c ? (c.split(/\.|::/).pop() ?? null) : null;
}

/** Of several definitions, those whose parameter count is `args` (all of them when none has it). */
function byArity(defs: DefRow[], args: number | null): DefRow[] {
  if (defs.length < 2 || args === null) return defs;
  const same = defs.filter((d) => signatureParams(d.signature)?.length === args);
  return same.length ? same : defs;
}

function ofType(defs: DefRow[], type: string): DefRow[] {
  return defs.filter((d) => lastContainerPart(d.container) === type);
}

/** Top-level definitions in the module `spec` imported from `from` (a module exports no class members). */
function inModule(defs: DefRow[], spec: string, from: string): DefRow[] {
  return defs.filter((d) => d.container === null && moduleIs(spec, from, d.path));
}

/** The definitions in the same repo that `facts` at `scope` refers to. */
export function resolveOccurrence(facts: SyntaxFacts, scope: OccurrenceScope, allDefs: DefRow[]): Resolution {
  if (LEXICAL_KINDS.has(facts.kind)) return { refersTo: null, via: null };
  const defs = allDefs.filter((d) => d.repo === scope.repo);
  const pick = (found: DefRow[], via: string): Resolution => ({ refersTo: byArity(found, facts.args), via });
  if (facts.kind === "definition") {
    const here = defs.filter((d) => d.path === scope.path && d.start_line <= scope.line && scope.line <= d.end_line);
    here.sort((a, b) => a.end_line - a.start_line - (b.end_line - b.start_line));
    return { refersTo: here.slice(0, 1), via: "definition" };
  }
  if (facts.kind === "import") {
    const spec = scope.imports.names.get(scope.word)?.split("#")[0];
    if (spec) return pick(inModule(defs, spec, scope.path), `import from ${spec}`);
    return { refersTo: null, via: null };
  }
  if (facts.receiver !== null) return viaReceiver(facts, scope, defs, pick);
  const imported = scope.imports.names.get(scope.word);
  if (imported) {
    const spec = imported.split("#")[0];
    return pick(inModule(defs, spec, scope.path), `import from ${spec}`);
  }
  if (facts.kind === "type") {
    const types = defs.filter((d) => TYPE_KINDS.has(d.kind));
    return types.length ? { refersTo: types, via: "type name" } : { refersTo: null, via: null };
  }
  if (scope.enclosingClass) {
    const members = ofType(defs, scope.enclosingClass);
    if (members.length) return pick(members, `member of ${scope.enclosingClass}`);
  }
  const sameFile = defs.filter((d) => d.path === scope.path && d.container === null);
  if (sameFile.length) return pick(sameFile, "same file");
  if (scope.language === "go") {
    const dir = scope.path.split("/").slice(0, -1).join("/");
    const samePkg = defs.filter((d) => d.container === null && d.path.split("/").slice(0, -1).join("/") === dir);
    if (samePkg.length) return pick(samePkg, "same package");
  }
  return { refersTo: null, via: null };
}

function viaReceiver(facts: SyntaxFacts, scope: OccurrenceScope, defs: DefRow[], pick: (d: DefRow[], via: string) => Resolution): Resolution {
  const receiver = facts.receiver!.trim();
  const parts = receiver.split(/\.|->|::|\?\./).filter(Boolean);
  if (SELF_RECEIVERS.has(receiver) && scope.enclosingClass) return pick(ofType(defs, scope.enclosingClass), `${receiver}: ${scope.enclosingClass}`);
  const last = parts[parts.length - 1] ?? receiver;
  let type: string | null = facts.receiverCall;
  if (!type && parts.length === 1) {
    const spec = scope.imports.aliases.get(last);
    if (spec) {
      const found = inModule(defs, spec, scope.path);
      // `from pkg import mod` may name a submodule or a class; a module match settles it.
      if (found.length || !/^[A-Z]/.test(last)) return pick(found, `module ${spec}`);
    }
  }
  if (!type && /^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(last)) type = declaredType(scope.language, scope.text, last) ?? (/^[A-Z]/.test(last) ? last : null);
  if (!type) return { refersTo: null, via: null };
  const found = ofType(defs, type);
  return pick(found, found.length ? `${receiver}: ${type}` : `${receiver}: ${type} (not in the index)`);
}
