/**
 * The trigram index's storage and build time for the grep benchmark (scripts/bench-grep.ts),
 * rebuilt in node:sqlite with the table definition of migrations/0008.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";

/** Builds the trigram table of migrations/0008 in a fresh node:sqlite file from `texts`; returns its bytes and the insert time. */
export function trigramCost(texts: string[]): { indexBytes: number; buildMs: number } {
  const dir = mkdtempSync(join(tmpdir(), "grep-bench-"));
  const file = join(dir, "t.sqlite");
  const db = new DatabaseSync(file);
  db.exec("PRAGMA page_size = 4096; CREATE TABLE base (x INTEGER);");
  const before = statSync(file).size;
  db.exec("CREATE VIRTUAL TABLE grep_trigrams USING fts5 (text, content = '', contentless_delete = 1, detail = 'none', tokenize = 'trigram case_sensitive 0')");
  const insert = db.prepare("INSERT INTO grep_trigrams (rowid, text) VALUES (?, ?)");
  const t = performance.now();
  db.exec("BEGIN");
  texts.forEach((text, i) => insert.run(i + 1, text));
  db.exec("COMMIT");
  const buildMs = performance.now() - t;
  db.exec("VACUUM");
  db.close();
  const indexBytes = statSync(file).size - before;
  rmSync(dir, { recursive: true, force: true });
  return { indexBytes, buildMs };
}
