/**
 * @module worker/mcp/tools/list-files
 *
 * MCP tool `list_files` over `listFiles` (worker/services/files.ts): the indexed paths of a
 * repo's current snapshot, filtered by a path prefix and/or a glob (`**\/*.proto` in one call),
 * paged. The same data as the `codebase://{repo}/files` resource, with filters.
 */
import { z } from "zod";
import { LIST_FILES_MAX, listFiles, listFilesInput } from "../../services/files";
import { snapshotRefField } from "../../services/refs";
import { atRef } from "../snapshot-label";
import { defineTool } from "../tool";

/** Most paths per list_files call: 500 paths of ~80 characters stay under the MCP response budget. */
export const LIST_FILES_MCP_MAX = 500;

const listFilesToolInput = listFilesInput.extend({
  limit: z.number().int().min(1).max(LIST_FILES_MCP_MAX).default(200).describe(`Paths per call, 1-${LIST_FILES_MCP_MAX} (default 200).`),
  offset: z.number().int().min(0).default(0).describe("Paths to skip (from next_offset)."),
});

const listFilesOutput = z.object({
  repo: z.string(),
  ref: snapshotRefField,
  commit: z.string(),
  files: z.array(z.object({ path: z.string(), language: z.string(), lines: z.number().int() })),
  total_count: z.number().int(),
  has_more: z.boolean(),
  next_offset: z.number().int().nullable(),
});

export const listFilesTool = defineTool({
  name: "list_files",
  title: "List files",
  description:
    "List the indexed file paths of a repo (current snapshot), sorted, with language and line count. Filter with path_prefix " +
    '("src/router/") and/or glob ("**/*.proto", "src/**/*.{ts,tsx}"; a glob without "/" matches file names at any depth). Paged.',
  inputSchema: listFilesToolInput,
  outputSchema: listFilesOutput,
  readOnly: true,
  async handler(input, tc) {
    const r = await listFiles(tc.service, { ...input, limit: Math.min(input.limit, LIST_FILES_MAX) });
    const lines = r.files.map((f) => `${f.path}  (${f.language}, ${f.lines} lines)`);
    const head = `${r.repo} @ ${atRef(r.ref, r.commit)}: ${r.total_count} file${r.total_count === 1 ? "" : "s"}${input.glob ? ` matching ${input.glob}` : ""}${input.path_prefix ? ` under ${input.path_prefix}` : ""}`;
    const more = r.next_offset !== null ? `\n[more: call list_files with offset ${r.next_offset}]` : "";
    return { structured: r, text: `${head}\n${lines.join("\n")}${more}` };
  },
});
