/**
 * `npm run bench:web -- --base-url URL --token T --repo ID`: the web page figures of
 * scripts/lib/bench-web.ts against a running server (e.g. `npm start -- /tmp/cc-corpora/hono-28a9c12`),
 * without the rest of `npm run bench`. Without --base-url, prints the page weight only.
 */
import { parseCli } from "./lib/cli.ts";
import { SHORT_QUERIES } from "./lib/bench-queries.ts";
import { measureFirstResult, measurePageWeight, webMarkdown } from "./lib/bench-web.ts";

const USAGE = "Usage: npm run bench:web -- [--base-url URL --token T --repo ID]";
const a = parseCli(USAGE, { "base-url": { type: "string" }, token: { type: "string" }, repo: { type: "string", default: "bench-corpus" } });
const weight = await measurePageWeight();
const timings = a["base-url"] && a.token ? await measureFirstResult(a["base-url"], a.token, a.repo!, SHORT_QUERIES.slice(0, 10)) : null;
console.log(webMarkdown(weight, timings));
console.log(JSON.stringify({ weight, timings }, null, 2));
