import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { chunkColumns, chunkPostings, fileId, type ChunkedFile } from "../contract";
import { deleteFileStatements, movePostingsStatements, toChunkRecords, writeFiles, type IndexedFile } from "./write-files";

const chunked: ChunkedFile = {
  language: "typescript",
  imports: ['import { db } from "./db";'],
  chunks: [
    { startLine: 1, endLine: 1, kind: "module", content: 'import { db } from "./db";' },
    {
      startLine: 3,
      endLine: 5,
      kind: "function",
      symbol: "getUserById",
      signature: "export function getUserById(id: string)",
      content: "export function getUserById(id: string) {\n  return db.users.find(id);\n}",
    },
  ],
  symbols: [{ name: "getUserById", kind: "function", signature: "export function getUserById(id: string)", startLine: 3, endLine: 5 }],
};
const text = 'import { db } from "./db";\n\nexport function getUserById(id: string) {\n  return db.users.find(id);\n}\n';

async function file(): Promise<IndexedFile> {
  return { repo: "r1", path: "src/users.ts", blobSha: "a".repeat(40), fileId: await fileId("r1", "src/users.ts", "a".repeat(40)), text, chunked };
}

async function counts() {
  const q = (sql: string) =>
    env.DB.prepare(sql)
      .first<{ n: number }>()
      .then((r) => r?.n);
  return {
    files: await q("SELECT count(*) n FROM files"),
    chunks: await q("SELECT count(*) n FROM chunks"),
    symbols: await q("SELECT count(*) n FROM symbols"),
    fts: await q("SELECT count(*) n FROM chunks_fts WHERE chunks_fts MATCH 'getuserbyid OR import'"),
    grepDocs: await q("SELECT count(*) n FROM grep_docs"),
    // Trigrams are case-folded: "USERBY" finds "getUserById"; "zzz" occurs in no file.
    trigrams: await q(`SELECT count(*) n FROM grep_trigrams WHERE grep_trigrams MATCH '"USE" AND "ERB" AND "RBY"'`),
    absent: await q(`SELECT count(*) n FROM grep_trigrams WHERE grep_trigrams MATCH '"zzz"'`),
  };
}

describe("writeFiles", () => {
  it("deletes a file version's grep trigram rows with its other rows", async () => {
    const f = await file();
    await writeFiles(env.DB, [f]);
    await env.DB.batch(deleteFileStatements(env.DB, f.repo, f.fileId));
    expect(await counts()).toEqual({ files: 0, chunks: 0, symbols: 0, fts: 0, grepDocs: 0, trigrams: 0, absent: 0 });
  });

  it("writes chunks that BM25 finds, and a second delivery leaves the same rows", async () => {
    const f = await file();
    const written = await writeFiles(env.DB, [f]);
    expect(written.map((c) => c.id)).toEqual([`${f.fileId}-0`, `${f.fileId}-1`]);
    const first = await counts();
    expect(first).toEqual({ files: 1, chunks: 2, symbols: 1, fts: 2, grepDocs: 1, trigrams: 1, absent: 0 });
    await writeFiles(env.DB, [f]);
    expect(await counts()).toEqual(first);
    const hit = await env.DB.prepare(
      "SELECT c.symbol, c.start_line, c.end_line FROM chunks_fts JOIN chunks c ON c.rowid = chunks_fts.rowid WHERE chunks_fts MATCH ? ORDER BY bm25(chunks_fts, 4, 2, 1) LIMIT 1",
    )
      .bind("user AND id")
      .first();
    expect(hit).toEqual({ symbol: "getUserById", start_line: 3, end_line: 5 });
    const sym = await env.DB.prepare("SELECT chunk_id FROM symbols WHERE name_lower = 'getuserbyid'").first<{ chunk_id: string }>();
    expect(sym?.chunk_id).toBe(`${f.fileId}-1`);
  });

  it("writes every chunk's postings, in as many statements as their size needs, exactly as chunkPostings counts them", async () => {
    // 40 chunks of 150 distinct terms: 6,000 postings, more than one statement's JSON holds.
    const chunks = Array.from({ length: 40 }, (_, i) => ({
      startLine: i + 1,
      endLine: i + 1,
      kind: "function" as const,
      symbol: `handler${i}`,
      content: Array.from({ length: 150 }, (_, j) => `word${i}x${j} shared`).join(" "),
    }));
    const big: IndexedFile = {
      repo: "r2",
      path: "src/big.ts",
      blobSha: "b".repeat(40),
      fileId: await fileId("r2", "src/big.ts", "b".repeat(40)),
      text: chunks.map((c) => c.content).join("\n"),
      chunked: { language: "typescript", imports: [], chunks, symbols: [] },
    };
    await writeFiles(env.DB, [big]);
    const expected = toChunkRecords(big)
      .flatMap((c) => [...chunkPostings(chunkColumns(big.path, c)).terms].map(([term, [s, p, b]]) => `${c.id} ${term} ${s} ${p} ${b}`))
      .sort();
    const rows = async (table: string) =>
      (
        await env.DB.prepare(
          `SELECT c.id || ' ' || t.term || ' ' || t.tf_symbol || ' ' || t.tf_path || ' ' || t.tf_body AS row FROM ${table} t JOIN chunks c ON c.rowid = t.chunk_rowid WHERE t.repo = 'r2'`,
        ).all<{ row: string }>()
      ).results
        .map((r) => r.row)
        .sort();
    expect(expected.length).toBeGreaterThan(6000);
    // Under POSTINGS_MOVE_ROWS the postings wait in the staging table; a move (activation runs one) brings them all.
    expect(await rows("chunk_terms_staged")).toEqual(expected);
    expect(await rows("chunk_terms")).toEqual([]);
    await env.DB.batch(movePostingsStatements(env.DB, "r2", expected.length + 1));
    expect(await rows("chunk_terms")).toEqual([]);
    await env.DB.batch(movePostingsStatements(env.DB, "r2", expected.length));
    expect(await rows("chunk_terms")).toEqual(expected);
    expect(await rows("chunk_terms_staged")).toEqual([]);
    // Deleting the file version removes its postings wherever they are.
    await env.DB.batch(deleteFileStatements(env.DB, big.repo, big.fileId));
    expect(await rows("chunk_terms")).toEqual([]);
  });

  it("deletes a file version's postings while they are still staged", async () => {
    const f = await file();
    await writeFiles(env.DB, [f]);
    const staged = () => env.DB.prepare("SELECT count(*) n FROM chunk_terms_staged WHERE repo = ?").bind(f.repo).first<{ n: number }>();
    expect((await staged())?.n).toBeGreaterThan(0);
    await env.DB.batch(deleteFileStatements(env.DB, f.repo, f.fileId));
    expect((await staged())?.n).toBe(0);
  });
});
