/**
 * SWE-bench Lite file localization replayed through the real `runSearch` in Node, over a copy of
 * a local server's D1 file that kept every instance's snapshot. An eval run indexes each
 * instance's tree in turn and searches it once; with the snapshots kept, a change to the query
 * side (terms, channels, stages, weights) is scored on all of them in minutes instead of the
 * hour a sympy run takes.
 *
 *   node scripts/replay-swebench.ts --state DIR [--repos a/b,c/d] [--instances id,id] [--root DIR] [--out FILE] [--explain] [--set-file FILE] [--disable-rule ID[,ID]|all] [--d1 FILE]
 *
 * `--d1` names the D1 file to read (default: the state's largest); with local shards a repo's
 * rows are in one shard's file, so replay each shard's repositories with its file.
 *
 * `--disable-rule` is the eval's option (evals/lib/rule-ablation.ts): `all` replays the defaults
 * and then each report rule off alone, a list of ids the defaults and one variant with all of them
 * off, through the switch the server uses (`disabledRules` of runSearch, with explain on as the
 * REST route requires). `--out` then writes a saved rule run (`set`, `ruleMoves`, `outcomes` per
 * variant) that `evals/rule-table.ts --runs` reads beside the eval's.
 * `--set-file evals/sets/multifile.json` replays the multi-file set (evals/lib/multifile.ts) instead.
 *
 * The state folder comes from a `scripts/serve-snapshot.ts` server started with
 * `--keep-snapshots` (no garbage collection of `swe-*` repos) that served
 * `npm run eval -- --set swebench ...`. Each instance's snapshot is found by its files: the
 * snapshot whose (path, git blob sha) pairs hold the most of the instance's exported tree
 * (`--corpus-root`, default /tmp/cc-corpora). `--root` replays another checkout's search code
 * (`git worktree add DIR REV`). The request is the eval's: the whole problem statement, k 50,
 * server defaults otherwise. Prints Acc@1/3/5/10 per repository and over all; `--out` writes
 * each instance's gold ranks and top 10 files (with `--explain`, every result's explanation).
 * `node:sqlite` is not workerd's SQLite build: the eval through the REST API remains the figure
 * of record, and this replay is for comparing two checkouts over the same rows.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import { parseCli } from "./lib/cli.ts";
import { bundleWorkerModules, d1Over, largestD1File, sqliteRows } from "./lib/sqlite-d1.ts";
import { readCorpus } from "../evals/lib/corpus-fs.ts";
import { asSwebench, parseMultifileSet, perFileRecall } from "../evals/lib/multifile.ts";
import { DEFAULTS_LABEL, rankedByLabel, ruleMoves, ruleVariants } from "../evals/lib/rule-ablation.ts";
import type { SearchVariant } from "../evals/lib/types.ts";
import { corpusFolderName, parseSwebench, pickInstanceIds, pickInstances } from "../evals/lib/sets.ts";

const USAGE = `Usage: node scripts/replay-swebench.ts --state DIR [--repos a/b,c/d] [--instances id,id] [--root DIR] [--corpus-root DIR] [--out FILE] [--explain] [--set-file evals/sets/multifile.json] [--disable-rule ID[,ID]|all] [--d1 FILE]`;
const a = parseCli(USAGE, {
  state: { type: "string" },
  repos: { type: "string" },
  instances: { type: "string" },
  root: { type: "string" },
  "corpus-root": { type: "string", default: "/tmp/cc-corpora" },
  bench: { type: "string", default: fileURLToPath(new URL("../../shared/bench", import.meta.url)) },
  out: { type: "string" },
  explain: { type: "boolean", default: false },
  "set-file": { type: "string" },
  "disable-rule": { type: "string" },
  d1: { type: "string" },
});
if (!a.state) {
  console.error(USAGE);
  process.exit(2);
}
let variants: SearchVariant[] = [{ label: DEFAULTS_LABEL }];
if (a["disable-rule"]) {
  try {
    variants = ruleVariants(a["disable-rule"]);
  } catch (err) {
    console.error(`error: ${(err as Error).message}`);
    process.exit(2);
  }
}
const ablation = variants.length > 1;

const biggest = a.d1 ?? largestD1File(a.state);
if (!biggest) {
  console.error(`${a.state} has no D1 database (v3/d1/miniflare-D1DatabaseObject): pass the --state folder of the eval's server`);
  process.exit(2);
}
if (a.d1 && !existsSync(a.d1)) {
  console.error(`--d1 ${a.d1} does not exist: pass one of the .sqlite files under ${a.state}/v3/d1/miniflare-D1DatabaseObject`);
  process.exit(2);
}
const work = mkdtempSync(join(tmpdir(), "replay-swebench-"));
// Read in place: search only reads, and SQLite's WAL lets a server go on writing meanwhile (a
// copy of a multi-GB file restarts its backup at every write of the server).
const sqlite = new DatabaseSync(biggest, { readOnly: true });
const db = d1Over((sql, params) => sqliteRows(sqlite, sql, params));

const bundle = join(work, "search.mjs");
await bundleWorkerModules(
  a.root ?? fileURLToPath(new URL("..", import.meta.url)),
  'export { runSearch } from "./worker/search/searcher"; export { LocalEmbeddingProvider } from "./indexer/embed/local"; export { decodeHexVector, sparseScores, topKIndices } from "./indexer/store/vectors/local";',
  bundle,
);
interface Hit {
  path: string;
  [key: string]: unknown;
}
interface SearchBundle {
  runSearch(
    deps: unknown,
    targets: unknown[],
    text: string,
    options: unknown,
    expected?: unknown[],
  ): Promise<{ results: Hit[]; stats: { queryTerms?: string[] } }>;
  LocalEmbeddingProvider: new (dimensions: number) => unknown;
  decodeHexVector(hex: string, dims: number): Float32Array | null;
  sparseScores(m: { ids: string[]; dims: number; columns: Float32Array }, vector: Float32Array): Float32Array;
  topKIndices(scores: Float32Array, k: number): number[];
}
const { runSearch, LocalEmbeddingProvider, decodeHexVector, sparseScores, topKIndices } = (await import(bundle)) as SearchBundle;

/**
 * The local vector store's query over one snapshot's vectors only. The server kept every
 * snapshot, so the repo's vectors include other snapshots' chunks, which would fill the store's
 * top k before the channel keeps the active snapshot's; a server that collects garbage holds only
 * the active snapshot's. Same scores (sparseScores) and the same order of ties (ids sorted).
 */
class SnapshotVectorStore {
  #matrices = new Map<string, { ids: string[]; dims: number; columns: Float32Array }>();
  readonly dims: number;
  constructor(dims: number) {
    this.dims = dims;
  }
  async query(repo: string, vector: Float32Array, topK: number, options: { snapshot?: { commit: string } } = {}) {
    const commit = options.snapshot?.commit;
    if (!commit) throw new Error("the replay's vector store needs the snapshot");
    const key = `${repo}\0${commit}`;
    let m = this.#matrices.get(key);
    if (!m) {
      const rows = (
        sqlite
          .prepare(
            "SELECT v.id AS id, hex(v.vector) AS hex FROM snapshot_files sf JOIN chunks c ON c.repo = sf.repo AND c.file_id = sf.file_id " +
              "JOIN local_vectors v ON v.repo = c.repo AND v.id = c.id WHERE sf.repo = ? AND sf.commit_sha = ? ORDER BY v.id",
          )
          .all(repo, commit) as { id: string; hex: string }[]
      ).flatMap((r) => {
        const v = decodeHexVector(r.hex, this.dims);
        return v ? [{ id: r.id, v }] : [];
      });
      const unique = rows.filter((r, i) => i === 0 || rows[i - 1].id !== r.id);
      const n = unique.length;
      const columns = new Float32Array(n * this.dims);
      unique.forEach((r, i) => {
        for (let j = 0; j < this.dims; j++) columns[j * n + i] = r.v[j];
      });
      m = { ids: unique.map((r) => r.id), dims: this.dims, columns };
      this.#matrices.clear();
      this.#matrices.set(key, m);
    }
    if (!m.ids.length || topK <= 0) return [];
    const scores = sparseScores(m, vector);
    return topKIndices(scores, Math.min(topK, m.ids.length)).map((i) => ({ id: m.ids[i], score: scores[i] }));
  }
}

/** Stops with `message` (exit 2): a usage problem the user can fix, not a crash. */
function fail(message: string): never {
  console.error(`error: ${message}`);
  process.exit(2);
}

const all = a["set-file"]
  ? asSwebench(parseMultifileSet(JSON.parse(readFileSync(a["set-file"], "utf8"))))
  : parseSwebench(readFileSync(join(a.bench!, "swebench-lite-offline.jsonl"), "utf8"));
let instances: ReturnType<typeof pickInstances>;
try {
  instances = a.instances ? pickInstanceIds(all, a.instances.split(",")) : pickInstances(all, a.repos ? a.repos.split(",") : [], 200);
} catch (err) {
  fail((err as Error).message);
}
if (!instances.length) fail(`no SWE-bench Lite instance of ${a.repos}; repositories are named as in the set, e.g. psf/requests,sympy/sympy`);
if (a.explain && !a.out) console.error("note: --explain only adds to the --out file; pass --out to keep the explanations");

/** The product's repo id for an instance's repository, as evals/lib/swebench.ts names it. */
const repoIdOf = (repo: string) =>
  `swe-${repo
    .slice(repo.indexOf("/") + 1)
    .toLowerCase()
    .replace(/[^a-z0-9._-]/g, "-")}`;
const gitBlobSha = (bytes: Uint8Array) => createHash("sha1").update(`blob ${bytes.byteLength}\0`).update(bytes).digest("hex");

/** Every kept snapshot of a repo as its set of `path \0 blob sha` keys. */
const snapshotsByRepo = new Map<string, Map<string, Set<string>>>();
function snapshotsOf(repoId: string): Map<string, Set<string>> {
  let m = snapshotsByRepo.get(repoId);
  if (m) return m;
  m = new Map();
  const rows = sqlite
    .prepare(
      "SELECT sf.commit_sha AS c, sf.path AS p, f.blob_sha AS b FROM snapshot_files sf JOIN files f ON f.repo = sf.repo AND f.file_id = sf.file_id WHERE sf.repo = ?",
    )
    .all(repoId) as { c: string; p: string; b: string }[];
  for (const r of rows) {
    let s = m.get(r.c);
    if (!s) m.set(r.c, (s = new Set()));
    s.add(`${r.p}\0${r.b}`);
  }
  snapshotsByRepo.set(repoId, m);
  return m;
}

const repoRow = sqlite.prepare("SELECT embedding_model, embedding_dims FROM repos WHERE id = ?");
type Outcome = {
  id: string;
  repo: string;
  gold: string[];
  goldRanks: (number | null)[];
  allFoundAt: number | null;
  top: string[];
  queryTerms?: string[];
  results?: Hit[];
};
/** Each variant's outcomes (only the defaults' without --disable-rule). */
const byLabel: Record<string, Outcome[]> = {};
for (const inst of instances) {
  const repoId = repoIdOf(inst.repo);
  const tree = join(a["corpus-root"]!, corpusFolderName(inst.repo, inst.base_commit));
  if (!existsSync(tree)) {
    fail(
      `${tree} is missing: export the trees the eval indexed first (node evals/export-corpora.ts --set swebench --out ${a["corpus-root"]} --git-dir ${inst.repo}=<its .git>), or pass --corpus-root`,
    );
  }
  const files = readCorpus(tree, "whole");
  const keys = files.map((f) => `${f.path}\0${gitBlobSha(f.bytes)}`);
  let best: { commit: string; held: number; size: number } | null = null;
  for (const [commit, set] of snapshotsOf(repoId)) {
    const held = keys.filter((k) => set.has(k)).length;
    if (!best || held > best.held) best = { commit, held, size: set.size };
  }
  const row = repoRow.get(repoId) as { embedding_model: string; embedding_dims: number } | undefined;
  if (!best || !row) {
    console.error(`${inst.instance_id}: no snapshot of ${repoId} in ${biggest}`);
    continue;
  }
  // Every indexed file of the snapshot is in the tree (the rest were skipped at upload).
  if (best.held < best.size) console.error(`${inst.instance_id}: best snapshot ${best.commit} holds ${best.held} of its ${best.size} files`);
  const packages = sqlite.prepare("SELECT name, folder FROM snapshot_packages WHERE repo = ? AND commit_sha = ?").all(repoId, best.commit);
  const target = { id: repoId, commit: best.commit, indexedAt: null, embeddingModel: row.embedding_model, embeddingDims: row.embedding_dims, packages };
  const deps = { db, embedder: new LocalEmbeddingProvider(row.embedding_dims), vectors: new SnapshotVectorStore(row.embedding_dims) };
  for (const v of variants) {
    const off = v.disableRules?.length ? new Set(v.disableRules) : undefined;
    const options = { k: 50, mode: "hybrid", filters: {}, fileCap: 2, explain: a.explain || off !== undefined, disabledRules: off };
    const response = await runSearch(deps, [target], inst.problem_statement, options, [target]);
    const ranked = [...new Set(response.results.map((r) => r.path))];
    const goldRanks = inst.gold_files.map((g) => (ranked.includes(g) ? ranked.indexOf(g) + 1 : null));
    const allFoundAt = goldRanks.every((r) => r !== null) ? Math.max(...(goldRanks as number[])) : null;
    const outcome: Outcome = {
      id: inst.instance_id,
      repo: inst.repo,
      gold: inst.gold_files,
      goldRanks,
      allFoundAt,
      top: ranked.slice(0, 10),
      queryTerms: response.stats.queryTerms,
      ...(a.explain ? { results: response.results.map(({ snippet: _s, ...r }) => r as Hit) } : {}),
    };
    (byLabel[v.label] ??= []).push(outcome);
    console.log(`${inst.instance_id}${ablation ? ` ${v.label}` : ""}: gold at ${allFoundAt ?? "-"}`);
  }
}
const outcomes = byLabel[DEFAULTS_LABEL] ?? [];

const acc = (os: Outcome[], k: number) => os.filter((o) => o.allFoundAt !== null && o.allFoundAt <= k).length;
const accText = (os: Outcome[], k: number) => `Acc@${k} ${acc(os, k)} (${((100 * acc(os, k)) / Math.max(1, os.length)).toFixed(1)}%)`;
const line = (label: string, os: Outcome[]) => `${label.padEnd(22)} n ${String(os.length).padStart(3)}  ${[1, 3, 5, 10].map((k) => accText(os, k)).join("  ")}`;
for (const repo of [...new Set(outcomes.map((o) => o.repo))])
  console.log(
    line(
      repo,
      outcomes.filter((o) => o.repo === repo),
    ),
  );
console.log(line("all", outcomes));
console.log(`file recall@5 ${(100 * perFileRecall(outcomes, 5)).toFixed(1)}%  file recall@10 ${(100 * perFileRecall(outcomes, 10)).toFixed(1)}%`);
if (a.out && ablation) {
  // A saved rule run, as `npm run eval -- --disable-rule` writes it (evals/rule-table.ts reads it).
  const moves = ruleMoves(rankedByLabel({ outcomes: byLabel }));
  const command = `node scripts/replay-swebench.ts ${process.argv.slice(2).join(" ")}`;
  const commit = execFileSync("git", ["-C", a.root ?? fileURLToPath(new URL("..", import.meta.url)), "rev-parse", "--short", "HEAD"], {
    encoding: "utf8",
  }).trim();
  writeFileSync(a.out, `${JSON.stringify({ set: "swebench", replay: true, commit, command, outcomes: byLabel, ruleMoves: moves }, null, 1)}\n`);
} else if (a.out) writeFileSync(a.out, `${JSON.stringify(outcomes, null, 1)}\n`);
sqlite.close();
rmSync(work, { recursive: true, force: true });
const missing = instances.length - new Set(outcomes.map((o) => o.id)).size;
if (missing) {
  console.error(
    `error: ${missing} of ${instances.length} instances have no snapshot in this state: index them on a \`serve-snapshot.ts --keep-snapshots\` server first (npm run eval -- --set swebench --repos ... --base-url ...)`,
  );
  process.exit(1);
}
