/**
 * @module worker/mcp/tools/grep
 *
 * MCP tool `grep` over `grep` (worker/services/grep.ts): exact or regex search with complete,
 * ordered results. Same input schema as REST, except `limit` is at most GREP_MCP_MAX_LIMIT so
 * the response stays within the MCP size budget (worker/mcp/budget.ts); the text rendering is
 * ripgrep-like, grouped by file, matches marked «like this».
 */
import { z } from "zod";
import { GREP_DEFAULT_LIMIT, grep, grepInput, grepOutput, type GrepOutput } from "../../services/grep";
import { MCP_RESPONSE_MAX_CHARS } from "../budget";
import { snapshotsLine, withLine } from "../snapshot-label";
import { defineTool } from "../tool";

/** Most matching lines per MCP call: 100 lines of at most 300 characters stay under MCP_RESPONSE_MAX_CHARS with their headers. */
export const GREP_MCP_MAX_LIMIT = 100;
/** Characters of the rendering kept for file headers and the summary, not line text. */
const TEXT_OVERHEAD_CHARS = 6_000;

/** Input of the grep tool: the service's, with `limit` capped for the MCP budget. */
export const grepToolInput = grepInput.extend({
  limit: z
    .number()
    .int()
    .min(1)
    .max(GREP_MCP_MAX_LIMIT)
    .default(GREP_DEFAULT_LIMIT)
    .describe(`Matching lines per call, 1-${GREP_MCP_MAX_LIMIT} (default ${GREP_DEFAULT_LIMIT}).`),
});

/** A line with its match ranges marked «...», cut to `max` characters. */
function marked(text: string, ranges: [number, number][], max: number): string {
  let out = "";
  let at = 0;
  for (const [s, e] of ranges) {
    out += `${text.slice(at, s)}«${text.slice(s, e)}»`;
    at = e;
  }
  out += text.slice(at);
  return out.length > max ? `${out.slice(0, max)}…` : out;
}

/** Text rendering: matches grouped by file (`repo:path`), then `line:column: text  [in kind name]`, then totals and how to continue. */
export function renderGrep(r: GrepOutput): string {
  const notes: string[] = [];
  if (r.index === "scan")
    notes.push(
      `no literal of 3+ characters in the pattern: ${r.filesScanned} files scanned${r.scan_capped ? " before the scan budget ran out (scan_capped): narrow with path or language, or add a literal" : ""}`,
    );
  if (r.truncated) notes.push("the work budget ran out before this page was full (truncated): continue with the cursor");
  if (r.notReady.length) notes.push(`not indexed yet: ${r.notReady.join(", ")}`);
  if (r.withoutRef?.length) notes.push(`without that ref (not searched): ${r.withoutRef.join(", ")}`);
  const total = `${r.total_exact ? "" : "at least "}${r.total_count}`;
  const more = r.has_more && r.next_cursor ? `\n[more: call grep again with cursor "${r.next_cursor}"]` : "";
  const tail = `${notes.length ? `\nnote: ${notes.join("; ")}` : ""}${more}`;
  if (r.matches.length === 0) return `No matching lines (${total} in ${r.repos.join(", ") || "no repos"}; ${r.filesScanned} files verified).${tail}`;
  const perLine = Math.max(80, Math.min(400, Math.floor((MCP_RESPONSE_MAX_CHARS - TEXT_OVERHEAD_CHARS) / r.matches.length)));
  const out: string[] = [];
  let file = "";
  for (const m of r.matches) {
    const here = `${m.repo}:${m.path}`;
    if (here !== file) {
      out.push(here);
      file = here;
    }
    const sym = m.symbol ? `  [in ${m.symbol.kind} ${m.symbol.container ? `${m.symbol.container}.` : ""}${m.symbol.name}]` : "";
    out.push(`  ${m.line}:${m.column}: ${marked(m.text, m.ranges, perLine)}${sym}`);
  }
  return `${out.join("\n")}\n\nmatching lines ${r.offset + 1}-${r.offset + r.matches.length} of ${total}.${withLine(snapshotsLine(r.matches))}${tail}`;
}

export const grepTool = defineTool({
  name: "grep",
  title: "Grep (exact or regex)",
  description:
    "Exact text or regular-expression (RE2) search across the indexed repos, complete and in order (repo, path, line), like ripgrep: " +
    "every call site of a function, every TODO(security), every use of a config key. Literal by default; regex: true for RE2 syntax. " +
    "Filters: repo/repos, path (prefix or glob such as **/*.proto), language, case_sensitive, whole_word. Each match gives line, column, " +
    "the line text with the match marked and the enclosing definition. Pages with cursor; total_count says how many in all. " +
    "For questions in words, use search_code instead.",
  inputSchema: grepToolInput,
  outputSchema: grepOutput,
  readOnly: true,
  async handler(input, tc) {
    const r = await grep(tc.service, input);
    return { structured: r, text: renderGrep(r) };
  },
});
