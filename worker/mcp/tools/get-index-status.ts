/** @module worker/mcp/tools/get-index-status — MCP tool `get_index_status` over `getRepoStatus` (worker/services/repos.ts). */
import { getRepoStatus, repoIdInput } from "../../services/repos";
import { skippedListPath } from "../../services/skipped";
import { visibleRepo } from "../../services/files";
import { defineTool } from "../tool";
import { renderRepoStatus, repoStatusSchema } from "./repo-status";

export const getIndexStatusTool = defineTool({
  name: "get_index_status",
  title: "Index status",
  description:
    "Show a repo's indexing status: queued, fetching, indexing (with file progress), ready or failed (with the error), the snapshot being served, and skipped files by reason. Which files were skipped, and by which rule (secret, vendored, generated ...), is listed by the REST route GET /api/repos/{id}/skipped?reason=&offset=.",
  inputSchema: repoIdInput,
  outputSchema: repoStatusSchema,
  readOnly: true,
  async handler(input, tc) {
    await visibleRepo(tc.service, input.repo); // unknown repo: names the available ones
    const r = await getRepoStatus(tc.service, input);
    const skipped = Object.values(r.skipped).reduce((a, b) => a + b, 0);
    const pointer = skipped ? `\nSkipped files with path, reason and rule: GET ${skippedListPath(r.id)}?reason=<reason>&offset=0 (needs the index scope).` : "";
    return { structured: r, text: renderRepoStatus(r) + pointer };
  },
});
