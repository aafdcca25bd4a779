/**
 * First searches after snapshot flips, by mode, on a running server: indexes corpus A as one
 * repo, searches it in each mode (bm25, vector, symbol, hybrid twice; the first search of a mode
 * after a flip pays what the isolate reloads per snapshot, such as the local vector store's
 * matrix), searches again, re-indexes A with one source file changed and searches, then indexes
 * corpus B (another commit of the same repository) as the same repo and searches.
 *
 *   node scripts/bench-flip.ts --base-url http://127.0.0.1:8791 --token eval-token \
 *     --a /tmp/cc-corpora/sympy-09786a1 --b /tmp/cc-corpora/sympy-0dbdc0e [--repo flip-bench] [--query "..."]
 */
import { ApiClient } from "../evals/lib/client.ts";
import { readCorpus } from "../evals/lib/corpus-fs.ts";
import { indexCorpus } from "../evals/lib/evaluate.ts";
import type { SearchVariant } from "../evals/lib/types.ts";
import { parseCli } from "./lib/cli.ts";

const USAGE = `Usage: node scripts/bench-flip.ts --base-url URL --token T --a DIR --b DIR [--repo flip-bench] [--query TEXT]

First searches after snapshot flips (one file changed, then another commit), by mode.

  --base-url URL        a running server (scripts/serve-snapshot.ts)
  --token T             its API token
  --a DIR               the first tree (indexed, then re-indexed with one file changed)
  --b DIR               another commit of the same repository, indexed as the same repo
  --repo ID             repo id to index them as (default flip-bench)
  --query TEXT          the query (default: a short question)`;

const a = parseCli(USAGE, {
  "base-url": { type: "string" },
  token: { type: "string" },
  a: { type: "string" },
  b: { type: "string" },
  repo: { type: "string", default: "flip-bench" },
  query: { type: "string", default: "simplify trigonometric expression with powers of sine and cosine" },
});
if (!a["base-url"] || !a.a || !a.b) {
  process.stderr.write(`error: --base-url, --a and --b are required\n\n${USAGE}\n`);
  process.exit(2);
}
const client = new ApiClient({ baseUrl: a["base-url"], token: a.token });
const repo = a.repo!;
const MODES: { name: string; variant?: SearchVariant }[] = [
  { name: "bm25", variant: { label: "bm25", mode: "bm25" } },
  { name: "vector", variant: { label: "vector", mode: "vector" } },
  { name: "symbol", variant: { label: "symbol", mode: "symbol" } },
  { name: "hybrid" },
  { name: "hybrid" },
];

/** One search per mode, in order; prints client ms and the server's `stats.tookMs`. */
async function round(label: string): Promise<void> {
  const out: string[] = [];
  for (const m of MODES) {
    const { response, latencyMs } = await client.search({ query: a.query!, repo, k: 10, variant: m.variant });
    out.push(`${m.name} ${Math.round(latencyMs)} (server ${response.stats?.tookMs ?? "?"})`);
  }
  console.log(`${label}: ${out.join(", ")}`);
}

const first = readCorpus(a.a, "whole");
let run = await indexCorpus(client, repo, first);
console.log(`indexed ${a.a} (${first.length} files) in ${run.wallMs} ms`);
await round("first searches");
await round("again");
const i = first.findIndex((f) => /\.(py|ts|js|go|rs|java|rb|php|c|cc|cpp|cs)$/.test(f.path));
const edited = first.map((f, j) => (j === i ? { ...f, bytes: new Uint8Array([...f.bytes, ...new TextEncoder().encode("\n")]) } : f));
run = await indexCorpus(client, repo, edited);
console.log(`re-indexed with ${first[i].path} changed in ${run.wallMs} ms`);
await round("after a one-file change");
const second = readCorpus(a.b, "whole");
run = await indexCorpus(client, repo, second);
console.log(`indexed ${a.b} (${second.length} files) as the same repo in ${run.wallMs} ms`);
await round("after another commit");
