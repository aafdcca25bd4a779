/**
 * @module evals/lib/gold
 *
 * Locates a symbol's definition in a file (to fill gold line ranges when writing questions)
 * and checks that gold ranges exist and name their symbol (run by `evals/check-gold.ts` and
 * by the CI test). Heuristic and language-light on purpose: it only has to agree with the
 * hand-written fixture corpus and the polyglot sets' pinned trees, and every range it fills is
 * checked and reviewed.
 */
import type { GoldSpan } from "./types.ts";

/**
 * Why a gold span is wrong, or null when it is fine. The range must lie inside the file and not
 * end on a blank or comment line. When the span names a symbol, the first line must name it, or
 * open the definition's leading comments, attributes or annotations (`///`, `#[...]`, `@Override`)
 * with the name on or right after them; a range that opens in the middle of such a comment is
 * wrong.
 */
export function checkGoldSpan(text: string, gold: GoldSpan): string | null {
  const lines = text.split("\n");
  if (text.endsWith("\n")) lines.pop();
  if (!Number.isInteger(gold.startLine) || !Number.isInteger(gold.endLine)) return "startLine/endLine must be integers";
  if (gold.startLine < 1 || gold.endLine < gold.startLine) return `bad range ${gold.startLine}-${gold.endLine}`;
  if (gold.endLine > lines.length) return `endLine ${gold.endLine} is past the end of the file (${lines.length} lines)`;
  const isComment = commentTest(gold.file);
  if (gold.symbol !== undefined) {
    const name = memberName(gold.symbol);
    const first = lines[gold.startLine - 1];
    if (isComment(first) && gold.startLine > 1 && isComment(lines[gold.startLine - 2])) {
      return `line ${gold.startLine} is inside a comment that starts earlier`;
    }
    let i = gold.startLine - 1;
    // Parentheses and brackets left open by a multi-line attribute (`[Suppress(\n "x",\n ...)]`).
    let open = 0;
    while (
      i < gold.endLine - 1 &&
      !lines[i].includes(name) &&
      (open > 0 ||
        isComment(lines[i]) ||
        LEADING_ATTRIBUTE.test(lines[i]) ||
        TEMPLATE_HEAD.test(lines[i]) ||
        (i > gold.startLine - 1 && lines[i].trim() === ""))
    ) {
      if (!isComment(lines[i])) open = Math.max(0, open + (lines[i].match(/[([]/g)?.length ?? 0) - (lines[i].match(/[)\]]/g)?.length ?? 0));
      i++;
    }
    if (!lines[i].includes(name)) {
      return i === gold.startLine - 1
        ? `line ${gold.startLine} does not contain "${name}"`
        : `neither line ${gold.startLine} nor the first line after its comments (${i + 1}) contains "${name}"`;
    }
  }
  if (gold.endLine > gold.startLine && lines[gold.endLine - 1].trim() === "") return `endLine ${gold.endLine} is blank`;
  if (gold.endLine > gold.startLine && isComment(lines[gold.endLine - 1])) return `endLine ${gold.endLine} is a comment line`;
  return null;
}

/** Rust and C# attributes and Java/Kotlin annotations that may stand between a doc comment and its definition. */
const LEADING_ATTRIBUTE = /^\s*(#!?\[|@[A-Za-z]|\[[A-Z])/;
/** A C++ template head on its own line (`template <typename T, FMT_ENABLE_IF(...)>`). */
const TEMPLATE_HEAD = /^\s*template\s*</;

const SLASH_COMMENT_EXTS = new Set([
  "ts",
  "tsx",
  "js",
  "jsx",
  "mjs",
  "cjs",
  "go",
  "rs",
  "java",
  "kt",
  "scala",
  "swift",
  "c",
  "h",
  "cc",
  "cpp",
  "hpp",
  "cs",
  "php",
]);
const HASH_COMMENT_EXTS = new Set(["rb", "py", "sh", "yaml", "yml", "toml"]);

/** A test for whole-line comments in `path`'s language; never true for unknown languages. */
function commentTest(path: string): (line: string) => boolean {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const ext = base.includes(".") ? base.slice(base.lastIndexOf(".") + 1).toLowerCase() : base.toLowerCase();
  if (SLASH_COMMENT_EXTS.has(ext)) return (l) => /^\s*(\/\/|\/\*|\*)/.test(l);
  if (HASH_COMMENT_EXTS.has(ext) || ext === "makefile" || ext === "dockerfile") return (l) => /^\s*#(?!\[)/.test(l);
  if (ext === "sql") return (l) => /^\s*--/.test(l);
  return () => false;
}

/** `JobQueue.fail` -> `fail`, `dragonbox::to_decimal` -> `to_decimal`; a plain name stays as it is. */
export function memberName(symbol: string): string {
  if (symbol.includes(" ")) return symbol;
  const dot = symbol.lastIndexOf(".");
  const colons = symbol.lastIndexOf("::");
  const at = Math.max(dot + 1, colons >= 0 ? colons + 2 : 0);
  return symbol.slice(at);
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function declarationRe(name: string): RegExp {
  const n = escapeRe(name);
  return new RegExp(
    [
      `^\\s*(export\\s+)?(default\\s+)?(async\\s+)?(function|class|interface|type|const|let|def|enum)\\s+${n}\\b`,
      `^\\s*(public\\s+|private\\s+|protected\\s+|static\\s+|async\\s+)*${n}\\s*[(<]`,
      `^func\\s+(\\([^)]*\\)\\s+)?${n}\\s*\\(`,
      `^type\\s+${n}\\s+(struct|interface)`,
      `^CREATE\\s+(TABLE|INDEX|VIEW)\\s+${n}\\b`,
      `^#+\\s+${n}\\s*$`,
      `^${n}:`,
    ].join("|"),
    "i",
  );
}

/**
 * Finds the definition of `symbol` in `text` and returns its 1-based line range, or null.
 * `Container.member` looks for the member after the container's declaration. The end is found
 * by brace balance (TS/Go), indentation (Python, YAML), `;` (SQL), next heading (Markdown) or
 * the next blank line (Makefile targets).
 */
export function locateSymbol(path: string, text: string, symbol: string): { startLine: number; endLine: number } | null {
  const lines = text.split("\n");
  const dot = symbol.lastIndexOf(".");
  let from = 0;
  let name = symbol;
  if (dot > 0 && !symbol.includes(" ")) {
    const container = symbol.slice(0, dot);
    name = symbol.slice(dot + 1);
    const c = lines.findIndex((l) => declarationRe(container).test(l));
    if (c < 0) return null;
    from = c + 1;
  }
  const re = declarationRe(name);
  let start = -1;
  for (let i = from; i < lines.length; i++)
    if (re.test(lines[i])) {
      start = i;
      break;
    }
  if (start < 0) return null;
  const end = findEnd(path, lines, start);
  return { startLine: start + 1, endLine: end + 1 };
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

function findEnd(path: string, lines: string[], start: number): number {
  const ext = path.slice(path.lastIndexOf(".") + 1).toLowerCase();
  if (ext === "sql") {
    for (let i = start; i < lines.length; i++) if (lines[i].includes(";")) return i;
    return lines.length - 1;
  }
  if (ext === "md") {
    const level = /^#+/.exec(lines[start])?.[0].length ?? 1;
    let end = lines.length - 1;
    for (let i = start + 1; i < lines.length; i++) {
      const m = /^#+\s/.exec(lines[i]);
      if (m && m[0].trim().length <= level) {
        end = i - 1;
        break;
      }
    }
    while (end > start && lines[end].trim() === "") end--;
    return end;
  }
  if (ext === "py" || ext === "yaml" || ext === "yml") {
    const base = indentOf(lines[start]);
    let end = start;
    for (let i = start + 1; i < lines.length; i++) {
      if (lines[i].trim() === "") continue;
      if (indentOf(lines[i]) <= base) break;
      end = i;
    }
    return end;
  }
  if (/(^|\/)makefile$/i.test(path)) {
    let i = start;
    while (i + 1 < lines.length && lines[i + 1].trim() !== "") i++;
    return i;
  }
  // Brace languages: balance { } from the declaration line on.
  let depth = 0;
  let opened = false;
  for (let i = start; i < lines.length; i++) {
    for (const ch of lines[i]) {
      if (ch === "{") {
        depth++;
        opened = true;
      } else if (ch === "}") depth--;
    }
    if (opened && depth <= 0) return i;
    if (!opened && /;\s*$/.test(lines[i])) return i;
  }
  return lines.length - 1;
}
