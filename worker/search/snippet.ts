/**
 * @module worker/search/snippet
 *
 * Bounded snippets: a result carries its chunk's code, cut to SNIPPET_MAX_LINES lines and
 * SNIPPET_MAX_CHARS characters so one huge chunk cannot flood an agent's context. Pure.
 */

/** Most lines in a snippet. */
export const SNIPPET_MAX_LINES = 40;
/** Most characters in a snippet. */
export const SNIPPET_MAX_CHARS = 2000;

/** The bounded snippet of `content`; `truncated` says whether anything was cut. */
export function makeSnippet(content: string): { snippet: string; truncated: boolean } {
  const lines = content.split("\n");
  let out = lines.slice(0, SNIPPET_MAX_LINES).join("\n");
  let truncated = lines.length > SNIPPET_MAX_LINES;
  if (out.length > SNIPPET_MAX_CHARS) {
    out = out.slice(0, SNIPPET_MAX_CHARS);
    const nl = out.lastIndexOf("\n");
    if (nl > SNIPPET_MAX_CHARS / 2) out = out.slice(0, nl);
    truncated = true;
  }
  return { snippet: out, truncated };
}
