/**
 * @module worker/mcp/tools/fetch
 *
 * MCP tool `fetch` in the shape ChatGPT connectors and deep research expect: input `{id}` (an id
 * from the `search` tool), output `{id, title, text, url, metadata}`. Ids are
 * `<repo>:<path>:<start>-<end>` (lines 1-based, inclusive) or `<repo>:<path>` for a file's start;
 * the text is read through `readFile`, so the same budget and pagination apply. `url` is a
 * signed source link a browser can open (worker/mcp/links.ts).
 */
import { z } from "zod";
import { CodeSearchError } from "../../../kernel/errors";
import { fileHeaderSchema, readFile, READ_MAX_LINES, type ReadFileOutput } from "../../services/files";
import { MCP_RESPONSE_MAX_CHARS, renderLines } from "../budget";
import { sourceUrl } from "../links";
import { defineTool } from "../tool";

/** The id of a line range, parsed by `parseDocumentId`. */
export function documentId(repo: string, path: string, startLine: number, endLine: number): string {
  return `${repo}:${path}:${startLine}-${endLine}`;
}

/** Parses `<repo>:<path>[:<start>-<end>]`; repo ids never contain `:`, the range is the last part. */
export function parseDocumentId(id: string): { repo: string; path: string; startLine?: number; endLine?: number } {
  const first = id.indexOf(":");
  if (first <= 0 || first === id.length - 1) {
    throw new CodeSearchError("invalid_input", `"${id}" is not a document id; pass an id from the search tool, like "repo:src/app.ts:10-42".`);
  }
  const repo = id.slice(0, first);
  const rest = id.slice(first + 1);
  const m = /^(.*):(\d+)-(\d+)$/.exec(rest);
  if (!m) return { repo, path: rest };
  return { repo, path: m[1], startLine: Number(m[2]), endLine: Number(m[3]) };
}

const fetchInput = z.object({ id: z.string().min(3).max(1200).describe('Document id from the search tool, e.g. "hono:src/hono.ts:10-42".') });
const fetchOutput = z.object({
  id: z.string(),
  title: z.string(),
  text: z.string(),
  url: z.string(),
  metadata: fileHeaderSchema.extend({
    startLine: z.number().int(),
    endLine: z.number().int(),
    nextId: z.string().nullable().describe("Id that continues this document when it did not fit one response."),
  }),
});

export const fetchTool = defineTool({
  name: "fetch",
  title: "Fetch a search result",
  description:
    `Fetch the code behind an id returned by the search tool: numbered lines of that range (at most ${READ_MAX_LINES} lines), ` +
    "with the file path, language and snapshot commit. For ChatGPT connectors and deep research.",
  inputSchema: fetchInput,
  outputSchema: fetchOutput,
  readOnly: true,
  async handler(input, tc) {
    const ref = parseDocumentId(input.id);
    const r = await readFile(tc.service, { repo: ref.repo, path: ref.path, start_line: ref.startLine, end_line: ref.endLine });
    const wantedEnd = r.next ? r.next.end_line : r.endLine;
    const url = await sourceUrl(tc, r.repo, r.path, r.startLine, r.endLine);
    let structured = shape(input.id, r, wantedEnd, url);
    // JSON escaping can push a full read past the budget: give back fewer lines and a nextId.
    while (JSON.stringify(structured).length > MCP_RESPONSE_MAX_CHARS && r.lines.length > 1) {
      r.lines = r.lines.slice(0, Math.max(1, Math.floor(r.lines.length * 0.9)));
      r.endLine = r.lines[r.lines.length - 1].n;
      structured = shape(input.id, r, wantedEnd, url);
    }
    // ChatGPT reads the JSON-encoded object from the text content.
    return { structured, text: JSON.stringify(structured) };
  },
});

/** The connector document for the lines in `r`; `nextId` continues up to `wantedEnd`. */
function shape(id: string, r: ReadFileOutput, wantedEnd: number, url: string): z.infer<typeof fetchOutput> {
  return {
    id,
    title: `${r.path}:${r.startLine}-${r.endLine} (${r.repo})`,
    text: renderLines(r.lines),
    url,
    metadata: {
      repo: r.repo,
      path: r.path,
      language: r.language,
      ref: r.ref,
      commit: r.commit,
      startLine: r.startLine,
      endLine: r.endLine,
      totalLines: r.totalLines,
      nextId: r.endLine < wantedEnd ? documentId(r.repo, r.path, r.endLine + 1, wantedEnd) : null,
    },
  };
}
