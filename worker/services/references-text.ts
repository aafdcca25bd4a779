/**
 * @module worker/services/references-text
 *
 * The textual side of find_references: the whole-word pattern of an identifier per language,
 * the excerpt shown per occurrence, and the order of results (source, tests, docs).
 */
import { isTestPath } from "../search/filters";

/** Where a file sits in a repo: code, its tests, or prose. */
export type Role = "source" | "test" | "docs";

/** What ordering needs of a reference. */
interface Ordered {
  role: Role;
  repo: string;
  path: string;
  line: number;
  column: number;
}

/** Characters of the matching line returned per occurrence (centred on the match when cut). */
export const REFERENCE_LINE_MAX_CHARS = 240;
/**
 * Languages whose method names may end in `!` or `?` (Ruby's `compile!`, `empty?`): there such a
 * suffix makes another name, so `compile` does not match `compile!(x)`. Elsewhere `!` and `?`
 * are operators after a name (Rust's `println!`, TypeScript's `value!` and `a?.b`).
 */
const SUFFIXED_NAME_LANGUAGES: ReadonlySet<string> = new Set(["ruby"]);

/**
 * The whole-word pattern of `word` in a file of `language`: no letter, digit, `_` or `$` on
 * either side, and in SUFFIXED_NAME_LANGUAGES no `!` or `?` after it (unless it starts `!=`).
 */
export function wordPattern(word: string, language: string): RegExp {
  const after = SUFFIXED_NAME_LANGUAGES.has(language) ? "(?![\\p{L}\\p{N}_$]|[!?](?!=))" : "(?![\\p{L}\\p{N}_$])";
  return new RegExp(`(?<![\\p{L}\\p{N}_$])${regexEscape(word)}${after}`, "gu");
}

/** Escapes a string for use inside a RegExp. */
function regexEscape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** docs for prose and files under docs/, test by the test-path rules, else source. */
export function roleOf(path: string, language: string): Role {
  if (language === "markdown" || /\.(md|mdx|rst|txt|adoc)$/i.test(path) || /(^|\/)docs?\//.test(path)) return "docs";
  return isTestPath(path) ? "test" : "source";
}

const ROLE_ORDER: Record<Role, number> = { source: 0, test: 1, docs: 2 };

/** Orders references: source, tests, docs; then repo, path, line, column. */
export function compareReferences(a: Ordered, b: Ordered): number {
  return ROLE_ORDER[a.role] - ROLE_ORDER[b.role] || a.repo.localeCompare(b.repo) || a.path.localeCompare(b.path) || a.line - b.line || a.column - b.column;
}

/** The line trimmed, or a REFERENCE_LINE_MAX_CHARS window around the match marked with `…`. */
export function excerpt(line: string, at: number, len: number): string {
  const t = line.trim();
  if (t.length <= REFERENCE_LINE_MAX_CHARS) return t;
  const from = Math.max(0, Math.min(at - Math.floor((REFERENCE_LINE_MAX_CHARS - len) / 2), line.length - REFERENCE_LINE_MAX_CHARS));
  return `${from > 0 ? "…" : ""}${line.slice(from, from + REFERENCE_LINE_MAX_CHARS)}${from + REFERENCE_LINE_MAX_CHARS < line.length ? "…" : ""}`;
}
