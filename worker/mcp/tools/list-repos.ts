/** @module worker/mcp/tools/list-repos — MCP tool `list_repos` over `listRepos` (worker/services/repos.ts). */
import { z } from "zod";
import { listRepos } from "../../services/repos";
import { defineTool } from "../tool";
import { renderRepoStatus, repoStatusSchema } from "./repo-status";

export const listReposTool = defineTool({
  name: "list_repos",
  title: "List repositories",
  description:
    "List the indexed repositories you can search, with their status (ready, indexing, ...) and current snapshot commit. Use the ids as `repo` in other tools.",
  inputSchema: z.object({}),
  outputSchema: z.object({ repos: z.array(repoStatusSchema) }),
  readOnly: true,
  async handler(_input, tc) {
    const r = await listRepos(tc.service);
    return { structured: r, text: r.repos.length ? r.repos.map(renderRepoStatus).join("\n") : "No repos yet; an admin registers them with POST /api/repos." };
  },
});
