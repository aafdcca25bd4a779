/**
 * `npm run bench:web -- --base-url URL --token T --repo ID [--baseline-url URL2] [--rounds N]`:
 * the web page figures of scripts/lib/bench-web.ts against a running server (e.g.
 * `npm start -- /tmp/cc-corpora/hono-28a9c12`, or `node scripts/serve-snapshot.ts`), without
 * the rest of `npm run bench`. With --baseline-url, a second server of the same corpus (e.g.
 * main) is measured in the same period, query by query in turn, and the paired ratios are
 * printed: the figure to trust on a shared machine. --rounds repeats the 10 queries. Without
 * --base-url, prints the page weight only.
 */
import { parseCli } from "./lib/cli.ts";
import { SHORT_QUERIES } from "./lib/bench-queries.ts";
import { measureFirstResultPaired, measurePageWeight, pairedMarkdown, webMarkdown } from "./lib/bench-web.ts";

const USAGE = "Usage: npm run bench:web -- [--base-url URL --token T --repo ID [--baseline-url URL] [--rounds N]]";
const a = parseCli(USAGE, {
  "base-url": { type: "string" },
  "baseline-url": { type: "string" },
  token: { type: "string" },
  repo: { type: "string", default: "bench-corpus" },
  rounds: { type: "string", default: "1" },
});
const rounds = Number(a.rounds);
if (!Number.isInteger(rounds) || rounds < 1) {
  process.stderr.write(`error: --rounds must be a whole number >= 1, got ${a.rounds}\n\n${USAGE}\n`);
  process.exit(2);
}
const urls = a["base-url"] ? [a["base-url"], ...(a["baseline-url"] ? [a["baseline-url"]] : [])] : [];
const weight = await measurePageWeight();
const runs = urls.length && a.token ? await measureFirstResultPaired(urls, a.token, a.repo!, SHORT_QUERIES.slice(0, 10), rounds) : null;
console.log(webMarkdown(weight, runs?.[0] ?? null));
if (runs && runs.length > 1) console.log(`Paired with the baseline, same period:\n${pairedMarkdown(["this server", "baseline"], [runs[0], runs[1]])}`);
console.log(JSON.stringify({ weight, timings: runs?.[0] ?? null, baselineTimings: runs?.[1] ?? null }, null, 2));
