/**
 * Characters a file path must not carry into the index. Pure.
 *
 * A path is printed in places that trust its characters: the ask evidence block (one numbered
 * line per chunk, so a newline lets a file name write a line of its own), terminals (an ESC
 * starts an escape sequence) and code review views (bidirectional overrides reorder what is
 * shown: "Trojan Source", CVE-2021-42574). Git allows all of these in tree entry names and tar
 * and zip allow them in entry names, so both sources pass them to the filter, which skips such
 * entries as `unsafe_path` (a NUL ends a name in C and is refused earlier: archive-paths.ts).
 */

/** C0 controls (tab, newline, ESC ...), DEL and C1 controls. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** Bidi embeddings, overrides and isolates (U+202A-202E, U+2066-2069) and the bidi marks (ALM, LRM, RLM). */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
/** Unicode line and paragraph separators: line breaks to many renderers and to JavaScript. */
const LINE_SEPARATOR = /[\u2028\u2029]/;
const ANY_UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * The rule that makes `path` unsafe, or null: `path:control-char`, `path:bidi-control` or
 * `path:line-separator`.
 */
export function unsafePathRule(path: string): string | null {
  if (CONTROL.test(path)) return "path:control-char";
  if (BIDI.test(path)) return "path:bidi-control";
  if (LINE_SEPARATOR.test(path)) return "path:line-separator";
  return null;
}

/**
 * `path` with every unsafe character written as `\uXXXX` (and a backslash as itself): what is
 * recorded and shown for a skipped entry, so a listing of skips stays one line per file.
 * The identity for a safe path.
 * @example escapeUnsafePath("a\nb.ts") // "a\\u000ab.ts"
 */
export function escapeUnsafePath(path: string): string {
  return path.replace(ANY_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
