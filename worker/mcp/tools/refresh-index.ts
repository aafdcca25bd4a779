/** @module worker/mcp/tools/refresh-index — MCP tool `refresh_index` over `refreshRepo` (worker/services/repos.ts); needs the `index` scope. */
import { refreshRepo, repoIdInput, type RepoStatus } from "../../services/repos";
import { visibleRepo } from "../../services/files";
import { defineTool } from "../tool";
import { renderRepoStatus, repoStatusSchema } from "./repo-status";

/** What the refresh did, in words that match the status: a new job, one folded into a job about to fetch, or a follow-up. */
export function refreshOutcome(r: RepoStatus): string {
  if (r.pending) return `A job is already running (${r.job?.status}); a follow-up re-index is queued and starts when it ends.`;
  if (r.job && r.job.status !== "queued" && r.job.status !== "ready" && r.job.status !== "failed")
    return `A job is already running (${r.job.status}) and covers this refresh.`;
  return "Re-index started.";
}

export const refreshIndexTool = defineTool({
  name: "refresh_index",
  title: "Refresh index",
  description:
    "Re-index a repo from its source (same ref) after code changed. Only new or changed files are processed; the current snapshot keeps serving until the new one is complete. " +
    "Needs the index permission. Poll get_index_status to follow progress.",
  inputSchema: repoIdInput,
  outputSchema: repoStatusSchema,
  readOnly: false,
  scope: "index",
  async handler(input, tc) {
    await visibleRepo(tc.service, input.repo);
    const r = await refreshRepo(tc.service, { repo: input.repo });
    return { structured: r, text: `${refreshOutcome(r)} ${renderRepoStatus(r)}` };
  },
});
