/**
 * @module worker/mcp/tools/search-code
 *
 * MCP tool `search_code` over `search` (worker/services/search.ts). The input schema is the
 * service's `searchInput` with the agent-facing names of issue 5 (`query`, k at most
 * SEARCH_CODE_MAX_K); the output is the search's own schema (worker/search/schema.ts).
 */
import { z } from "zod";
import { DEFAULT_FILE_CAP } from "../../search/ranking/weights";
import { searchResponseSchema, searchStatsSchema } from "../../search/schema";
import type { SearchResponse, SearchResult } from "../../search/types";
import { search, searchInput } from "../../services/search";
import { cite, MCP_HIT_MAX_CHARS, MCP_RESPONSE_MAX_CHARS, renderSnippet } from "../budget";
import { snapshotsLine, withLine } from "../snapshot-label";
import { defineTool } from "../tool";

/** Most results one search_code call returns (issue 5: k in 1-25). */
export const SEARCH_CODE_MAX_K = 25;
/** Characters of the text rendering kept for headers and the confidence line, not code. */
const TEXT_OVERHEAD_CHARS = 4_000;

const { q, k: _k, channels: _c, per_file_cap: _p, ...filters } = searchInput.shape;

/** Input of search_code: the search service's fields, `q` named `query`. */
export const searchCodeInput = z.object({
  query: q,
  ...filters,
  k: z.number().int().min(1).max(SEARCH_CODE_MAX_K).default(10).describe(`Results to return, 1-${SEARCH_CODE_MAX_K} (default 10).`),
});

/** A duration in the largest whole unit: "3 h", "2 d", "45 min". */
function age(ms: number): string {
  const min = Math.floor(ms / 60_000);
  if (min < 120) return `${min} min`;
  const h = Math.floor(min / 60);
  return h < 48 ? `${h} h` : `${Math.floor(h / 24)} d`;
}

/** One line per stale repo among the hits (empty when none is stale). */
export function renderStale(results: readonly SearchResult[]): string {
  const seen = new Map<string, NonNullable<SearchResult["stale"]>>();
  for (const h of results) if (h.stale && !seen.has(h.repo)) seen.set(h.repo, h.stale);
  return [...seen]
    .map(
      ([repo, s]) =>
        `stale: ${repo} results come from a snapshot ${age(s.snapshotAge)} old; refreshing has failed since ${new Date(s.since).toISOString()}: ${s.reason}`,
    )
    .join("\n");
}

/** Output of search_code: results, confidence, and the repos searched or failed (the search schema without per-channel detail). */
export const searchCodeOutput = searchResponseSchema.extend({ stats: searchStatsSchema });

/** Text rendering: one block per hit (citation, symbol, ranks, numbered code), then confidence. */
export function renderSearch(r: SearchResponse): string {
  if (r.results.length === 0) return `No results (${r.confidence.reason}). Try other words, find_symbol for a known name, or fewer filters.`;
  const perHit = Math.min(MCP_HIT_MAX_CHARS, Math.floor((MCP_RESPONSE_MAX_CHARS - TEXT_OVERHEAD_CHARS) / r.results.length));
  const blocks = r.results.map((h, i) => {
    const ranks = Object.entries(h.ranks)
      .map(([ch, rank]) => `${ch}#${rank}`)
      .join(" ");
    const what = h.symbol ? ` ${h.kind} ${h.symbol}` : "";
    return `${i + 1}. ${h.repo}:${cite(h.path, h.startLine, h.endLine)}${what} [${ranks}] chunk ${h.chunkId}\n${renderSnippet(h.snippet, h.startLine, h.endLine, perHit)}`;
  });
  const c = r.confidence;
  const missing = c.missingTerms.length ? `; missing terms: ${c.missingTerms.join(", ")}` : "";
  const failed = r.stats.failedRepos.length ? `\nfailed repos: ${r.stats.failedRepos.map((f) => `${f.repo} (${f.error})`).join(", ")}` : "";
  const stale = renderStale(r.results);
  return `${blocks.join("\n\n")}\n\nconfidence: ${c.level} (${c.reason}${missing})${failed}${stale ? `\n${stale}` : ""}${withLine(snapshotsLine(r.results))}`;
}

export const searchCodeTool = defineTool({
  name: "search_code",
  title: "Search code",
  description:
    "Hybrid code search (BM25 + embeddings + symbol and path matching, fused by reciprocal rank) over the indexed repos. " +
    "Ask in natural language, with identifiers, or paste an error with its whole stack trace or a bug report. Returns ranked chunks as path:start-end with symbol, " +
    "per-channel ranks, the code, and a confidence block: when confidence is low, say so rather than guess.",
  inputSchema: searchCodeInput,
  outputSchema: searchCodeOutput,
  readOnly: true,
  async handler(input, tc) {
    const { query, ...rest } = input;
    const r = await search(tc.service, { q: query, ...rest, per_file_cap: DEFAULT_FILE_CAP });
    const structured = {
      results: r.results,
      confidence: r.confidence,
      stats: { tookMs: r.stats.tookMs, repos: r.stats.repos, failedRepos: r.stats.failedRepos, queryTerms: r.stats.queryTerms },
    };
    return { structured, text: renderSearch(r) };
  },
});
