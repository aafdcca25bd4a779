import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { chunkFile } from "../../chunk";
import { fileId } from "../contract";
import { deleteFilesStatements, writeFiles, writeFilesStatements, type IndexedFile } from "./write-files";

/** A TypeScript file with `n` functions: several chunks, symbols and terms each. */
function source(i: number, n: number): string {
  return Array.from({ length: n }, (_, j) => `export function handler${i}x${j}(input: string): number {\n  return input.length * ${j} + ${i};\n}\n`).join("\n");
}

async function files(repo: string, count: number): Promise<IndexedFile[]> {
  const out: IndexedFile[] = [];
  for (let i = 0; i < count; i++) {
    const path = `src/mod${i}.ts`;
    const text = source(i, 1 + (i % 9));
    const blobSha = String(i).padStart(40, "0");
    out.push({ repo, path, blobSha, fileId: await fileId(repo, path, blobSha), text, chunked: await chunkFile(path, text) });
  }
  return out;
}

/** Every row of a repo, rowids replaced by what they point at, so two repos compare. */
async function rowsOf(repo: string) {
  const all = (sql: string) =>
    env.DB.prepare(sql)
      .bind(repo)
      .all()
      .then((r) => r.results.map((row) => JSON.stringify(row).replaceAll(repo, "R")));
  return {
    files: await all("SELECT path, blob_sha, language, line_count, byte_size, imports, text FROM files WHERE repo = ? ORDER BY path"),
    chunks: await all(
      "SELECT substr(id, instr(id, '-')) k, path, kind, symbol, start_line, end_line, content, token_count, text_from, text_len FROM chunks WHERE repo = ? ORDER BY rowid",
    ),
    fts: await all(
      "SELECT c.path, c.start_line, f.symbol, f.path fp, f.body FROM chunks c JOIN chunks_fts f ON f.rowid = c.rowid WHERE c.repo = ? ORDER BY c.rowid",
    ),
    terms: await all("SELECT part, terms FROM file_terms WHERE repo = ? ORDER BY rowid"),
    symbols: await all("SELECT path, name, kind, start_line, end_line, substr(chunk_id, instr(chunk_id, '-')) c FROM symbols WHERE repo = ? ORDER BY rowid"),
    grep: await all(
      `SELECT d.file_id IS NOT NULL ok, d.byte_size FROM grep_docs d JOIN grep_trigrams t ON t.rowid = d.rowid WHERE d.repo = ? AND grep_trigrams MATCH '"han" AND "ndl" AND "ler"' ORDER BY d.rowid`,
    ),
  };
}

describe("writeFiles over many files", () => {
  it("writes the rows, in the same rowid order, that writing the files one at a time writes, in far fewer statements", async () => {
    // 120 files: more than one IN list (99 ids) and many rows per multi-row INSERT.
    const together = await files("together", 120);
    const alone = await files("alone", 120);
    await writeFiles(env.DB, together);
    for (const f of alone) await writeFiles(env.DB, [f]);
    const a = await rowsOf("together");
    const b = await rowsOf("alone");
    expect(a.chunks.length).toBeGreaterThan(500);
    expect(a.grep).toHaveLength(120);
    expect(a).toEqual(b);
    const statements = writeFilesStatements(env.DB, together).statements.length;
    const rows = Object.values(a).reduce((n, r) => n + r.length, 0);
    expect(statements).toBeLessThan(rows / 5);
  });

  it("a second delivery of the batch, or a file given twice, leaves one copy, and deleting by IN lists removes every row", async () => {
    const trigramRows = () =>
      env.DB.prepare(`SELECT count(*) n FROM grep_trigrams WHERE grep_trigrams MATCH '"han" AND "ndl" AND "ler"'`)
        .first<{ n: number }>()
        .then((r) => r?.n);
    const before = await trigramRows(); // other tests' repos share the database
    const fs = await files("again", 110);
    await writeFiles(env.DB, fs);
    expect(await trigramRows()).toBe(before! + 110);
    const once = await rowsOf("again");
    await writeFiles(env.DB, fs);
    expect(await rowsOf("again")).toEqual(once);
    // A file given twice in one call is written once.
    await writeFiles(env.DB, [fs[3]!, fs[3]!]);
    const twice = await rowsOf("again");
    expect(Object.values(twice).map((r) => r.length)).toEqual(Object.values(once).map((r) => r.length));
    await env.DB.batch(
      deleteFilesStatements(
        env.DB,
        "again",
        fs.map((f) => f.fileId),
      ),
    );
    const left = await rowsOf("again");
    expect(Object.values(left).every((r) => r.length === 0)).toBe(true);
    expect(await trigramRows()).toBe(before);
  });
});
