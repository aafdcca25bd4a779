/**
 * @module worker/mcp/resources
 *
 * MCP resources: `codebase://repos` (the repos the caller can see, as JSON) and the template
 * `codebase://{repo}/files` (the indexed paths of a repo's current snapshot, one per line,
 * LIST_FILES_MAX at most; later pages are `codebase://{repo}/files?offset=N`, named at the end
 * of a page). Errors surface as MCP errors
 * whose message says what to do, as for tools.
 */
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/server";
import { CodeSearchError } from "../../kernel/errors";
import { LIST_FILES_MAX, listFiles } from "../services/files";
import { listRepos } from "../services/repos";
import type { ToolContext } from "./tool";

/** URI of the repo list resource. */
export const REPOS_URI = "codebase://repos";

/** Runs a resource callback; unexpected errors are logged and replaced so internals stay server-side. */
async function guard<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof CodeSearchError) throw err;
    console.error("MCP resource failed", what, err);
    // eslint-disable-next-line preserve-caught-error -- the cause is logged above and must not travel to the client
    throw new Error("Internal error reading the resource; the server log has details.");
  }
}

/** Registers the resources on `server`, bound to `tc`. */
export function registerResources(server: McpServer, tc: ToolContext): void {
  server.registerResource(
    "repos",
    REPOS_URI,
    { title: "Indexed repositories", description: "Repos you can search, with status and snapshot (same data as list_repos).", mimeType: "application/json" },
    (uri) => guard(REPOS_URI, async () => ({ contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify(await listRepos(tc.service)) }] })),
  );
  const readFiles = (uri: URL, vars: Record<string, string | string[]>) =>
    guard(uri.href, async () => {
      const repo = String(vars.repo);
      const offset = vars.offset === undefined ? 0 : Number(vars.offset);
      if (!Number.isInteger(offset) || offset < 0) throw new CodeSearchError("invalid_input", "offset must be a whole number >= 0.");
      const page = await listFiles(tc.service, { repo, offset });
      const more = page.next_offset !== null ? `\n# ${page.total_count - page.next_offset} more: codebase://${repo}/files?offset=${page.next_offset}` : "";
      return { contents: [{ uri: uri.href, mimeType: "text/plain", text: page.files.map((f) => f.path).join("\n") + more }] };
    });
  const filesMeta = {
    title: "Files of a repo",
    description: `Indexed paths of a repo's current snapshot, one per line (${LIST_FILES_MAX} per page).`,
    mimeType: "text/plain",
  };
  server.registerResource(
    "repo-files",
    new ResourceTemplate("codebase://{repo}/files", {
      list: async () => {
        const { repos } = await listRepos(tc.service);
        return {
          resources: repos
            .filter((r) => r.snapshot)
            .map((r) => ({ uri: `codebase://${r.id}/files`, name: `${r.id} files`, description: `Indexed paths of ${r.id}`, mimeType: "text/plain" })),
        };
      },
    }),
    filesMeta,
    readFiles,
  );
  // Later pages: a query-expression template only matches URIs that carry the query.
  server.registerResource(
    "repo-files-page",
    new ResourceTemplate("codebase://{repo}/files{?offset}", { list: undefined }),
    { ...filesMeta, title: "Files of a repo (later pages)" },
    readFiles,
  );
}
