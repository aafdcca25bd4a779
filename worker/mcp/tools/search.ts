/**
 * @module worker/mcp/tools/search
 *
 * MCP tool `search` in the shape ChatGPT connectors and deep research expect: input `{query}`,
 * output `{results: [{id, title, url}]}` (the JSON also as the text content). Ids are line
 * ranges the `fetch` tool accepts; urls are signed source links.
 */
import { z } from "zod";
import { parseOrThrow } from "../../../kernel/validation";
import { search, searchInput } from "../../services/search";
import { sourceUrl } from "../links";
import { defineTool } from "../tool";
import { documentId } from "./fetch";

/** Results per connector search. */
export const CONNECTOR_SEARCH_K = 10;

const searchConnectorInput = z.object({ query: z.string().trim().min(1).max(2_000).describe("What to look for in the indexed code.") });
const searchConnectorOutput = z.object({
  results: z.array(z.object({ id: z.string(), title: z.string(), url: z.string() })),
});

export const searchConnectorTool = defineTool({
  name: "search",
  title: "Search (connector)",
  description:
    `Search the indexed code repositories; returns up to ${CONNECTOR_SEARCH_K} results as {id, title, url}. ` +
    "Pass an id to fetch for the code. For ChatGPT connectors and deep research; other clients should prefer search_code.",
  inputSchema: searchConnectorInput,
  outputSchema: searchConnectorOutput,
  readOnly: true,
  async handler(input, tc) {
    // The connector's schema is not the service's: parse the handoff (trim, defaults, limits).
    const r = await search(tc.service, parseOrThrow(searchInput, { q: input.query, k: CONNECTOR_SEARCH_K }, { q: "query" }));
    const results = await Promise.all(
      r.results.map(async (h) => ({
        id: documentId(h.repo, h.path, h.startLine, h.endLine),
        title: `${h.path}:${h.startLine}-${h.endLine}${h.symbol ? ` ${h.symbol}` : ""} (${h.repo})`,
        url: await sourceUrl(tc, h.repo, h.path, h.startLine, h.endLine),
      })),
    );
    const structured = { results };
    return { structured, text: JSON.stringify(structured) };
  },
});
