/**
 * @module worker/mcp/budget
 *
 * Size budgets of MCP tool responses and the text renderings that respect them.
 *
 * Why these numbers: Claude Code warns when one MCP tool result passes 10,000 tokens and cuts
 * it at 25,000 (MAX_MCP_OUTPUT_TOKENS); at roughly 4 characters per token of code, 40,000
 * characters stays under the warning. Services bound their own payloads below this
 * (READ_MAX_CHARS = 32,000 characters of line text per read, per-hit snippet caps in search),
 * so a well-formed response never reaches the cap; long results paginate (`next`,
 * `next_offset`) instead of being cut. `capText` is the last guard: if a rendering ever
 * exceeds the budget it is cut with an explicit notice and the event is logged as a bug.
 */
import type { NumberedLine } from "../services/files";

/** Most characters of the text rendering of one tool response (see module note). */
export const MCP_RESPONSE_MAX_CHARS = 40_000;
/** Most characters of code shown per search hit in the text rendering. */
export const MCP_HIT_MAX_CHARS = 1_500;
/** Most lines of code shown per search hit in the text rendering. */
export const MCP_HIT_MAX_LINES = 30;

/** Cuts `text` to MCP_RESPONSE_MAX_CHARS with a notice naming what to do; logs when it happens. */
export function capText(tool: string, text: string): string {
  if (text.length <= MCP_RESPONSE_MAX_CHARS) return text;
  console.error("MCP response over budget", tool, text.length);
  const notice = `\n[response cut at ${MCP_RESPONSE_MAX_CHARS} characters: ask for a smaller range or page]`;
  return text.slice(0, MCP_RESPONSE_MAX_CHARS - notice.length) + notice;
}

/** Numbered lines as `  12  code`, numbers right-aligned to the widest one. */
export function renderLines(lines: NumberedLine[]): string {
  if (lines.length === 0) return "";
  const width = String(lines[lines.length - 1].n).length;
  return lines.map((l) => `${String(l.n).padStart(width)}  ${l.text}`).join("\n");
}

/**
 * Code of one hit for the text rendering: at most MCP_HIT_MAX_LINES lines and `maxChars`
 * (default MCP_HIT_MAX_CHARS) characters, with a trailing note saying how many lines were left
 * out and where they are.
 */
export function renderSnippet(code: string, startLine: number, endLine: number, maxChars = MCP_HIT_MAX_CHARS): string {
  const all = code.split("\n");
  const kept: string[] = [];
  let chars = 0;
  for (const line of all) {
    if (kept.length >= MCP_HIT_MAX_LINES || chars + line.length > maxChars) break;
    kept.push(line);
    chars += line.length + 1;
  }
  if (kept.length === 0 && all.length > 0) kept.push(all[0].slice(0, maxChars));
  const numbered = renderLines(kept.map((text, i) => ({ n: startLine + i, text })));
  const shownEnd = startLine + kept.length - 1;
  return shownEnd < endLine ? `${numbered}\n  … lines ${shownEnd + 1}-${endLine} not shown (read_file or get_code_context)` : numbered;
}

/** `path:start-end`, the citation form used everywhere. */
export function cite(path: string, startLine: number, endLine: number): string {
  return startLine === endLine ? `${path}:${startLine}` : `${path}:${startLine}-${endLine}`;
}
