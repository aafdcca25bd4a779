/**
 * `npm run bench:index-stages`: the CPU of each stage of indexing a tree, one stage at a time, in
 * Node on one core: the content filters (secret scan, decoding), chunking (tree-sitter), the local
 * embedding, building the D1 statements (tokenizing, postings), the JSON the D1 binding sends, and
 * the SQL itself, replayed into `node:sqlite` over this checkout's migrations, by statement.
 *
 *   npm run bench:index-stages -- --corpus /tmp/cc-corpora/hono-28a9c12 [--files-per-batch 40]
 *
 * CPU time (process.cpuUsage), so a shared machine slows the figures less than wall time. The
 * SQL runs on `node:sqlite`'s build, in memory, without D1's round trips: its figures rank the
 * statements and compare groupings; `npm run bench:index` times the product itself.
 */
import "./lib/extensionless-ts.ts";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import { listCorpus } from "../evals/lib/corpus-fs.ts";
import { parseCli } from "./lib/cli.ts";

const USAGE = `Usage: npm run bench:index-stages -- --corpus DIR [--files-per-batch 40]

CPU of each indexing stage over DIR, in Node, and of the D1 write statements by kind.`;
const a = parseCli(USAGE, { corpus: { type: "string" }, "files-per-batch": { type: "string", default: "40" } });
if (!a.corpus) {
  console.error(`--corpus is required\n\n${USAGE}`);
  process.exit(2);
}
const root = resolve(a.corpus);
const perBatch = Number(a["files-per-batch"]);
const W = fileURLToPath(new URL("..", import.meta.url));

// Imported at run time: the Worker modules use bundler-style extensionless imports.
const { chunkFile } = await import(`${W}indexer/chunk/chunk-file.ts`);
const parser = await import(`${W}indexer/chunk/parser.ts`);
const { GRAMMAR_FILES } = (await import(`${W}indexer/chunk/grammar-files.ts`)) as { GRAMMAR_FILES: Record<string, string> };
const { GRAMMAR_LANGUAGES } = await import(`${W}indexer/chunk/languages.ts`);
const { createFileFilter } = await import(`${W}indexer/filter/index.ts`);
const { fileId, chunkIndexText } = await import(`${W}indexer/store/contract.ts`);
const { writeFilesStatements, toChunkRecords } = await import(`${W}indexer/store/d1/write-files.ts`);
const { LocalVectorStore } = await import(`${W}indexer/store/vectors/local.ts`);
const { LocalEmbeddingProvider } = await import(`${W}indexer/embed/local.ts`);

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const stages: [string, number][] = [];
async function stage<T>(name: string, work: () => Promise<T> | T): Promise<T> {
  const t = cpuMs();
  const out = await work();
  stages.push([name, Math.round(cpuMs() - t)]);
  return out;
}

parser.setGrammarLoader(async (name: string) => readFileSync(join(W, "node_modules", GRAMMAR_FILES[name]!)));
for (const l of GRAMMAR_LANGUAGES) await parser.getParser(l);

/** D1's statement interface, recording each `batch` instead of running it. */
type Recorded = { sql: string; params: unknown[] };
const batches: Recorded[][] = [];
const statement = (sql: string, params: unknown[] = []) => ({ sql, params, bind: (...p: unknown[]) => statement(sql, p) });
const d1 = {
  prepare: (sql: string) => statement(sql),
  batch: async (s: Recorded[]) => (batches.push(s), s.map(() => ({ results: [] }))),
};

const paths = listCorpus(root, "whole");
const files = paths.map((path) => ({ path, bytes: new Uint8Array(readFileSync(join(root, path))) }));
const kept = await stage("filter (entry rules, secret scan, decoding)", async () => {
  const filter = createFileFilter({ maxFileBytes: 1024 * 1024, ignoreFiles: [], paths });
  const out: { path: string; text: string }[] = [];
  const entries = files.filter((f) => !filter.checkEntry({ path: f.path, mode: "100644", size: f.bytes.byteLength }));
  for (let i = 0; i < entries.length; i += 64) {
    const group = entries.slice(i, i + 64);
    const verdicts = await filter.checkContents(group);
    group.forEach((f, j) => {
      const v = verdicts[j]!;
      if (!("skip" in v)) out.push({ path: f.path, text: v.text });
    });
  }
  return out;
});
const indexed = await stage("chunk (tree-sitter, windows)", async () => {
  const out = [];
  for (const f of kept)
    out.push({ repo: "r", fileId: await fileId("r", f.path, f.path), path: f.path, blobSha: f.path, text: f.text, chunked: await chunkFile(f.path, f.text) });
  return out;
});
const chunks = indexed.flatMap((f) => toChunkRecords(f));
const embedder = new LocalEmbeddingProvider(384);
const vectors = await stage("embed (local hash, 384 dims)", () =>
  embedder.embed(
    chunks.map((c) => chunkIndexText(c.path, c)),
    "document",
  ),
);
await stage(`D1 statements (tokenize, postings, vectors), ${perBatch} files per transaction`, async () => {
  const store = new LocalVectorStore(d1, 384);
  let at = 0;
  for (let i = 0; i < indexed.length; i += perBatch) {
    const part = indexed.slice(i, i + perBatch);
    const records = part.flatMap((f) => toChunkRecords(f)).map((c) => ({ id: c.id, vector: vectors[at++]!, metadata: { path: c.path, language: c.language } }));
    for (let j = 0; j < records.length; j += embedder.maxBatch) await store.upsert("r", records.slice(j, j + embedder.maxBatch));
    await d1.batch(writeFilesStatements(d1, part).statements);
  }
});
const jsonBytes = await stage("JSON of the D1 requests", () => batches.reduce((n, b) => n + JSON.stringify(b).length, 0));

const db = new DatabaseSync(":memory:");
for (const m of readdirSync(join(W, "migrations")).sort()) db.exec(readFileSync(join(W, "migrations", m), "utf8"));
const prepared = new Map<string, StatementSync>();
const bySql = new Map<string, number>();
await stage("SQL (node:sqlite, in memory)", () => {
  for (const batch of batches) {
    db.exec("BEGIN");
    for (const s of batch) {
      let p = prepared.get(s.sql);
      if (!p) prepared.set(s.sql, (p = db.prepare(s.sql)));
      const t = cpuMs();
      p.run(...(s.params as SQLInputValue[]));
      const kind = s.sql.replace(/\s+/g, " ").slice(0, 70);
      bySql.set(kind, (bySql.get(kind) ?? 0) + cpuMs() - t);
    }
    db.exec("COMMIT");
  }
});

const lines = kept.reduce((n, f) => n + f.text.split("\n").length, 0);
console.log(
  `${root}: ${kept.length} of ${files.length} files kept, ${lines} lines, ${chunks.length} chunks, ${batches.length} D1 transactions, ${(jsonBytes / 1e6).toFixed(1)} MB of D1 request JSON`,
);
console.log("CPU ms by stage:");
for (const [name, ms] of stages) console.log(`${String(ms).padStart(7)}  ${name}`);
console.log("SQL CPU ms by statement (top 10):");
for (const [sql, ms] of [...bySql].sort((x, y) => y[1] - x[1]).slice(0, 10)) console.log(`${String(Math.round(ms)).padStart(7)}  ${sql}`);
