/** @module worker/mcp/tools/search-commits — MCP tool `search_commits` over `searchCommits` (worker/services/history-commits.ts). */
import { searchCommits } from "../../services/history-commits";
import { searchCommitsInput, searchCommitsOutput, type SearchCommitsOutput } from "../../services/history-schema";
import { shortRefName } from "../../services/refs";
import { defineTool } from "../tool";

/** One line per commit, then the first line of its body. */
export function renderCommits(r: SearchCommitsOutput): string {
  const at = r.ref && r.commit ? ` at ${shortRefName(r.ref)} (${r.commit.slice(0, 12)})` : "";
  if (r.commits.length === 0) return `No commit message matched (searched: ${r.repos.join(", ") || "no repo keeps history"}${at}).`;
  const head = at ? `Commits reachable from ${r.repos[0]}${at}:\n` : "";
  return (
    head +
    r.commits
      .map((c) => {
        const body = c.body.split("\n").find((l) => l.trim()) ?? "";
        return `${c.repo} ${c.sha.slice(0, 12)} ${c.date.slice(0, 10)} ${c.author.name}: ${c.subject}${body ? `\n    ${body.slice(0, 200)}` : ""}`;
      })
      .join("\n")
  );
}

export const searchCommitsTool = defineTool({
  name: "search_commits",
  title: "Search commit messages",
  description:
    "Find commits by words in their subject and body (BM25), optionally by author and date range. Searches the commits of every tracked ref, or with repo and ref those reachable from that ref. Use to find why something changed, or when a feature or fix landed.",
  inputSchema: searchCommitsInput,
  outputSchema: searchCommitsOutput,
  readOnly: true,
  async handler(input, tc) {
    const r = await searchCommits(tc.service, input);
    return { structured: r, text: renderCommits(r) };
  },
});
