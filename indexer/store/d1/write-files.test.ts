import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { chunkColumns, chunkPostings, fileId, type ChunkedFile } from "../contract";
import { loadChunks } from "../../../worker/search/chunk-rows";
import { deleteFileStatements, toChunkRecords, writeFiles, type IndexedFile } from "./write-files";

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

  it("stores every chunk's term frequencies once, in chunks_fts, exactly as chunkPostings counts them, and each file's chunks per term", async () => {
    // 40 chunks of 150 distinct terms: 6,000 postings.
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
    const records = toChunkRecords(big);
    const expected = records
      .flatMap((c) => [...chunkPostings(chunkColumns(big.path, c)).terms].map(([term, [s, p, b]]) => `${c.id} ${term} ${s} ${p} ${b}`))
      .sort();
    const { results } = await env.DB.prepare(
      "SELECT c.id || ' ' || v.term || ' ' || sum(v.col = 'symbol') || ' ' || sum(v.col = 'path') || ' ' || sum(v.col = 'body') AS row " +
        "FROM chunks_fts_instance v JOIN chunks c ON c.rowid = v.doc WHERE c.repo = 'r2' GROUP BY v.doc, v.term",
    ).all<{ row: string }>();
    expect(expected.length).toBeGreaterThan(6000);
    expect(results.map((r) => r.row).sort()).toEqual(expected);
    const perFile = new Map<string, number>();
    for (const c of records) for (const t of chunkPostings(chunkColumns(big.path, c)).terms.keys()) perFile.set(t, (perFile.get(t) ?? 0) + 1);
    const row = await env.DB.prepare("SELECT terms FROM file_terms WHERE repo = 'r2' AND file_id = ?").bind(big.fileId).first<{ terms: string }>();
    expect(JSON.parse(row!.terms)).toEqual(Object.fromEntries(perFile));
    expect(perFile.get("shared")).toBe(40);
    // Format 10 writes no chunk_terms rows; deleting the file version removes the rest.
    expect((await env.DB.prepare("SELECT count(*) n FROM chunk_terms").first<{ n: number }>())?.n).toBe(0);
    await env.DB.batch(deleteFileStatements(env.DB, big.repo, big.fileId));
    const left = await env.DB.prepare(
      "SELECT (SELECT count(*) FROM file_terms WHERE repo = 'r2') + (SELECT count(*) FROM chunks_fts_instance WHERE term = 'shared') + (SELECT count(*) FROM chunks WHERE repo = 'r2') AS n",
    ).first<{ n: number }>();
    expect(left?.n).toBe(0);
  });

  it("deletes the chunk_terms postings of a format 9 file version, moved or still staged", async () => {
    const f = await file();
    await writeFiles(env.DB, [f]);
    // Rows as format 9 wrote them beside its chunks (migrations/0007, 0014).
    const [first] = toChunkRecords(f);
    for (const table of ["chunk_terms", "chunk_terms_staged"])
      await env.DB.prepare(
        `INSERT INTO ${table} (repo, term, chunk_rowid, file_id, tf_symbol, tf_path, tf_body) SELECT repo, 'legacy', rowid, file_id, 0, 0, 1 FROM chunks WHERE id = ?`,
      )
        .bind(first.id)
        .run();
    const legacy = () => env.DB.prepare("SELECT (SELECT count(*) FROM chunk_terms) + (SELECT count(*) FROM chunk_terms_staged) AS n").first<{ n: number }>();
    expect((await legacy())?.n).toBe(2);
    await env.DB.batch(deleteFileStatements(env.DB, f.repo, f.fileId));
    expect((await legacy())?.n).toBe(0);
  });

  it("keeps no second copy of a chunk's code: it is read back from files.text exactly, across characters outside the BMP and CRLF lines", async () => {
    const lines = ["// 🎉 party 🎉", "", "export function f() {\r", "  return '𝒳 ünïcode';\r", "}", "const x = 1; // 🙂"];
    const wide: IndexedFile = {
      repo: "r3",
      path: "src/wide.ts",
      blobSha: "c".repeat(40),
      fileId: await fileId("r3", "src/wide.ts", "c".repeat(40)),
      text: `${lines.join("\n")}\n`,
      chunked: {
        language: "typescript",
        imports: [],
        symbols: [],
        chunks: [
          { startLine: 1, endLine: 1, kind: "module", content: lines[0] },
          { startLine: 3, endLine: 5, kind: "function", symbol: "f", content: lines.slice(2, 5).join("\n") },
          { startLine: 6, endLine: 6, kind: "module", content: lines[5] },
          // Not the text at its line (a chunker's quirk): stored inline, still returned exactly.
          { startLine: 2, endLine: 2, kind: "window", content: "not in the file" },
        ],
      },
    };
    await writeFiles(env.DB, [wide]);
    const stored = await env.DB.prepare("SELECT coalesce(sum(length(content)), 0) AS n FROM chunks WHERE repo = 'r3' AND text_from IS NOT NULL").first<{
      n: number;
    }>();
    expect(stored?.n).toBe(0);
    const rows = await loadChunks(
      env.DB,
      toChunkRecords(wide).map((c) => c.id),
    );
    expect(toChunkRecords(wide).map((c) => rows.get(c.id)?.content)).toEqual(wide.chunked.chunks.map((c) => c.content));
  });
});
