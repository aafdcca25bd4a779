/**
 * `npm run bench:grep`: grep (REST /api/grep) beside ripgrep on the same trees, in the same run.
 *
 * Per corpus: index it by archive upload on a server started from a clean export of HEAD; then
 * 1. correctness: 50 patterns (literals, case-insensitive, whole word, regexes with classes and
 *    alternation), every page fetched with the cursor, the (path, line) set compared with
 *    `rg`'s over the same files: rg runs with `--no-ignore --hidden` and its output is kept to
 *    the files the index holds, so both sides apply the product's ignore rules; each pattern is
 *    listed with both counts;
 * 2. warm latency p50/p95: one grep page (limit 50, as an agent calls it) against one `rg -n`
 *    process over the tree (spawn included, default ignore rules, all matches printed);
 * 3. the trigram index's storage and build time, rebuilt in node:sqlite from the same texts with
 *    the migration's table definition: bytes of index per byte of source, ms per MB.
 *
 * JSON (with the markdown) goes to --out; `npm run bench` runs this script and writes the
 * markdown into docs/evaluation.md (block `bench-grep`).
 *
 *   npm run bench:grep -- --corpus /tmp/cc-corpora/hono-28a9c12 [--corpus /tmp/cc-corpora/sympy-e950d31]
 *                         [--rounds 15] [--port N] [--out FILE]
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { ApiClient } from "../evals/lib/client.ts";
import { readCorpus } from "../evals/lib/corpus-fs.ts";
import { indexCorpus } from "../evals/lib/evaluate.ts";
import { listIndexedFiles } from "../evals/lib/swebench.ts";
import { benchBlockWrites } from "../evals/lib/doc-blocks.ts";
import { replaceBlock } from "../evals/lib/readme.ts";
import { parseCli } from "./lib/cli.ts";
import { freePort, startSnapshotServer } from "./lib/dev-server.ts";
import { ripgrepVersion } from "./lib/ripgrep.ts";
import { grepBenchMarkdown, type GrepBenchResult, type GrepCorpusReport, type GrepLatency } from "./lib/bench-grep-report.ts";
import { PATTERNS, rgFlags, type Pattern } from "./lib/bench-grep-patterns.ts";
import { grepMatches, rgMatches, runRg } from "./lib/bench-grep-sides.ts";
import { trigramCost } from "./lib/trigram-cost.ts";

const USAGE = `Usage: npm run bench:grep -- --corpus DIR [--corpus DIR] [--rounds N] [--port N] [--out FILE] [--write-readme]

  --write-readme   rewrite the grep block (bench-grep) of docs/evaluation.md`;
const a = parseCli(USAGE, {
  corpus: { type: "string", multiple: true, default: ["/tmp/cc-corpora/hono-28a9c12"] },
  rounds: { type: "string", default: "15" },
  port: { type: "string" },
  commit: { type: "string", default: "HEAD" },
  out: { type: "string" },
  "write-readme": { type: "boolean", default: false },
});
const ROOT = resolve(dirname(new URL(import.meta.url).pathname), "..");
const log = (s: string) => process.stderr.write(`${s}\n`);

const pct = (xs: number[], q: number) => {
  const s = [...xs].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

const rgVersion = ripgrepVersion();
if (!rgVersion) {
  console.error("ripgrep (rg) is not installed; apt-get install -y ripgrep");
  process.exit(2);
}
const port = a.port ? Number(a.port) : await freePort();
const stateDir = mkdtempSync(join(tmpdir(), "grep-bench-state-"));
const server = await startSnapshotServer({
  projectRoot: ROOT,
  commit: a.commit,
  port,
  persistTo: stateDir,
  token: "bench-token",
  searchLimitPerMinute: 1_000_000,
});
const client = new ApiClient({ baseUrl: server.baseUrl, token: server.token });
const rounds = Number(a.rounds);
const report: GrepCorpusReport[] = [];
/** Size of the server's local D1 database files (bytes), or null when they are not found. */
function d1Size(): number | null {
  const dir = join(stateDir, "v3", "d1", "miniflare-D1DatabaseObject");
  if (!existsSync(dir)) return null;
  return readdirSync(dir)
    .filter((f) => /^[0-9a-f]{64}\.sqlite(-wal)?$/.test(f))
    .reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);
}
try {
  for (const dir of a.corpus as string[]) {
    const repo = basename(dir)
      .replace(/[^a-z0-9._-]/g, "-")
      .slice(0, 60);
    const files = readCorpus(dir, "whole");
    log(`${repo}: indexing ${files.length} files`);
    const d1Before = d1Size();
    const run = await indexCorpus(client, repo, files, { pollMs: 200, timeoutMs: 1_800_000 });
    const d1After = d1Size();
    const indexed = await listIndexedFiles(client, repo);
    const fileSet = new Set(indexed!.keys());
    const texts = files.filter((f) => fileSet.has(f.path)).map((f) => new TextDecoder().decode(f.bytes));
    const sourceBytes = texts.reduce((s, t) => s + Buffer.byteLength(t), 0);
    const lines = texts.reduce((s, t) => s + t.split("\n").length, 0);
    const cost = trigramCost(texts);
    log(`${repo}: ${fileSet.size} files indexed in ${run.wallMs} ms; trigram index ${cost.indexBytes} bytes for ${sourceBytes} bytes of source`);

    const correctness: Record<string, unknown>[] = [];
    for (const p of PATTERNS) {
      const [ours, theirs] = await Promise.all([grepMatches(client, repo, p), rgMatches(dir, p, fileSet)]);
      const missing = [...theirs].filter((x) => !ours.set.has(x));
      const extra = [...ours.set].filter((x) => !theirs.has(x));
      correctness.push({
        ...p,
        grep: ours.set.size,
        rg: theirs.size,
        equal: missing.length === 0 && extra.length === 0,
        pages: ours.pages,
        missing: missing.slice(0, 3),
        extra: extra.slice(0, 3),
      });
      log(
        `  ${missing.length || extra.length ? "DIFF" : "same"} ${JSON.stringify(p)} grep ${ours.set.size} rg ${theirs.size}${missing.length ? ` missing ${missing.slice(0, 2)}` : ""}${extra.length ? ` extra ${extra.slice(0, 2)}` : ""}`,
      );
    }

    const latency: Record<string, GrepLatency> = {};
    const classes: Record<string, Pattern[]> = {
      literal: [{ pattern: "parseSigned" }, { pattern: "TODO" }, { pattern: "return null" }, { pattern: "Content-Type" }, { pattern: "assert " }],
      regex: [
        { pattern: "(TODO|FIXME|XXX)", regex: true },
        { pattern: "[A-Z][a-z]+Error\\b", regex: true },
        { pattern: "\\bdef\\s+[a-z_]+\\(", regex: true },
        { pattern: "c\\.(req|res)\\.[a-z]+", regex: true },
        { pattern: "https?://[a-z.]+", regex: true },
      ],
    };
    for (const [name, ps] of Object.entries(classes)) {
      const ours: number[] = [];
      const rg: number[] = [];
      const ratios: number[] = [];
      for (const p of ps) await client.request("POST", "/api/grep", { ...p, repo }); // warm
      for (let r = 0; r < rounds; r++) {
        for (const p of ps) {
          const t = performance.now();
          await client.request("POST", "/api/grep", { ...p, repo });
          ours.push(performance.now() - t);
          rg.push((await runRg(["-n", ...rgFlags(p), "-e", p.pattern, dir])).ms);
          ratios.push(ours[ours.length - 1] / rg[rg.length - 1]);
        }
      }
      latency[name] = {
        grepP50: pct(ours, 0.5),
        grepP95: pct(ours, 0.95),
        rgP50: pct(rg, 0.5),
        rgP95: pct(rg, 0.95),
        pairedRatioP50: pct(ratios, 0.5),
        samples: ours.length,
      };
      log(
        `  ${name}: grep p50 ${pct(ours, 0.5).toFixed(1)} ms p95 ${pct(ours, 0.95).toFixed(1)} ms | rg p50 ${pct(rg, 0.5).toFixed(1)} ms p95 ${pct(rg, 0.95).toFixed(1)} ms`,
      );
    }
    report.push({
      repo,
      files: fileSet.size,
      lines,
      sourceBytes,
      indexWallMs: run.wallMs,
      trigramIndexBytes: cost.indexBytes,
      trigramBytesPerSourceByte: cost.indexBytes / sourceBytes,
      trigramBuildMs: cost.buildMs,
      trigramBuildMsPerMB: cost.buildMs / (sourceBytes / 1e6),
      d1Bytes: d1Before !== null && d1After !== null ? d1After - d1Before : null,
      correctness: correctness as unknown as GrepCorpusReport["correctness"],
      equalPatterns: correctness.filter((c) => c.equal).length,
      latency,
    });
  }
} catch (err) {
  // Keep the server's state and log for the post-mortem.
  log(`failed; server log: ${server.logFile}`);
  await server.stop();
  throw err;
}
await server.stop();
rmSync(stateDir, { recursive: true, force: true });

const result: GrepBenchResult = {
  date: new Date().toISOString(),
  commit: server.commit,
  rg: rgVersion,
  rounds,
  machine: `${cpus().length} cores (${cpus()[0]?.model.trim()}), Node ${process.version}`,
  command: `npm run bench:grep -- ${process.argv.slice(2).join(" ")}`.trim(),
  corpora: report,
};
const markdown = grepBenchMarkdown(result);
const out = a.out ?? join(ROOT, "bench", "out", `bench-grep-${result.date.slice(0, 19).replace(/:/g, "")}.json`);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify({ ...result, markdown }, null, 2));
console.log(markdown);
console.log(`\nJSON: ${out}`);
if (a["write-readme"]) {
  const b = benchBlockWrites("", markdown).find((w) => w.key === "bench-grep")!;
  const path = join(ROOT, b.file);
  writeFileSync(path, replaceBlock(readFileSync(path, "utf8"), b.key, b.content, b.heading));
  log(`updated ${b.file} block ${b.key}`);
}
