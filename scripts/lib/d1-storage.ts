/**
 * @module scripts/lib/d1-storage
 *
 * Bytes on disk of a D1 SQLite file, per table and index, from SQLite's `dbstat` virtual table
 * (compiled into Node 22's `node:sqlite`), for `npm run bench:storage` (issue #45). Read from a
 * copy made with SQLite's online backup, so a live or WAL-mode file is read consistently.
 */
import { backup, DatabaseSync } from "node:sqlite";

/** One table or index (FTS5 shadow tables count as tables of their own). */
export interface StorageRow {
  /** Table or index name as in `sqlite_schema`. */
  name: string;
  /** "table" or "index" (an automatic index of a UNIQUE or PRIMARY KEY constraint is "index"). */
  type: string;
  /** The table the row belongs to (for an index, its table). */
  table: string;
  /** Bytes of the pages it occupies (`dbstat.pgsize`), so including free space inside pages. */
  bytes: number;
  /** `bytes` / the source bytes. */
  perSourceByte: number;
}

/** What `measureD1` returns. */
export interface StorageReport {
  /** Sum of the UTF-8 byte lengths of `files.text`: the indexed source. */
  sourceBytes: number;
  /** Rows of `files`. */
  files: number;
  /** Page size and page count of the file (`PRAGMA page_size`, `PRAGMA page_count`). */
  pageSize: number;
  pageCount: number;
  /** Every table and index with at least one page, largest first. */
  rows: StorageRow[];
  /** Sum of `rows` (the file less its free-list pages). */
  totalBytes: number;
  /** `totalBytes` less `local_vectors` and its indexes (production keeps vectors in Vectorize). */
  totalWithoutVectorsBytes: number;
  /** Rows of `local_vectors`: one per embedded chunk, so the vectors Vectorize would hold (0 without the table). */
  vectors: number;
  /**
   * Rows a cold index wrote, at least: every row of every ordinary table (FTS5 shadow tables
   * included, virtual tables themselves not) plus one more per index on its table, which is how
   * D1 counts rows written (https://developers.cloudflare.com/d1/platform/pricing/, "Indexes will
   * add an additional written row"). A lower bound: rows written then deleted are not seen.
   */
  rowsWrittenAtLeast: number;
}

/** Copies `src` (a live SQLite file) to `dest` with SQLite's online backup API. */
export async function backupSqlite(src: string, dest: string): Promise<void> {
  const db = new DatabaseSync(src, { readOnly: true });
  try {
    await backup(db, dest);
  } finally {
    db.close();
  }
}

/**
 * Measures the SQLite file `path` (a copy: it is only read). Throws when it has no `files` table
 * or when `dbstat` is missing from this SQLite build (then the per-table split is unavailable).
 */
export function measureD1(path: string): StorageReport {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const one = <T>(sql: string) => Object.values(db.prepare(sql).get() ?? {})[0] as T;
    const pageSize = Number(one<number>("PRAGMA page_size"));
    const pageCount = Number(one<number>("PRAGMA page_count"));
    const src = db.prepare("SELECT count(*) AS n, coalesce(sum(length(CAST(text AS BLOB))), 0) AS bytes FROM files").get() as { n: number; bytes: number };
    let stats: { name: string; bytes: number }[];
    try {
      stats = db.prepare("SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name").all() as typeof stats;
    } catch (err) {
      throw new Error(`this SQLite build has no dbstat virtual table (${String(err)}); only PRAGMA page_count is available`, { cause: err });
    }
    const schema = new Map(
      (db.prepare("SELECT name, type, tbl_name FROM sqlite_schema").all() as { name: string; type: string; tbl_name: string }[]).map((r) => [r.name, r]),
    );
    const sourceBytes = Number(src.bytes);
    const rows = stats
      .map((s) => {
        const meta = schema.get(s.name);
        const bytes = Number(s.bytes);
        return { name: s.name, type: meta?.type ?? "table", table: meta?.tbl_name ?? s.name, bytes, perSourceByte: sourceBytes ? bytes / sourceBytes : 0 };
      })
      .sort((x, y) => y.bytes - x.bytes || x.name.localeCompare(y.name));
    const totalBytes = rows.reduce((s, r) => s + r.bytes, 0);
    const vectorBytes = rows.filter((r) => r.table === "local_vectors").reduce((s, r) => s + r.bytes, 0);
    return {
      sourceBytes,
      files: Number(src.n),
      pageSize,
      pageCount,
      rows,
      totalBytes,
      totalWithoutVectorsBytes: totalBytes - vectorBytes,
      vectors: schema.has("local_vectors") ? one<number>("SELECT count(*) FROM local_vectors") : 0,
      rowsWrittenAtLeast: rowsWritten(db, [...schema.values()]),
    };
  } finally {
    db.close();
  }
}

/** Rows of ordinary tables, each counted once more per index on its table (see `rowsWrittenAtLeast`). */
function rowsWritten(db: DatabaseSync, schema: { name: string; type: string; tbl_name: string }[]): number {
  const sqlOf = new Map(
    (db.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'table'").all() as { name: string; sql: string | null }[]).map((r) => [r.name, r.sql ?? ""]),
  );
  let total = 0;
  for (const t of schema) {
    if (t.type !== "table" || t.name.startsWith("sqlite_") || /^CREATE VIRTUAL/i.test(sqlOf.get(t.name) ?? "")) continue;
    const n = Number(Object.values(db.prepare(`SELECT count(*) FROM "${t.name.replaceAll('"', '""')}"`).get() ?? {})[0]);
    const indexes = schema.filter((i) => i.type === "index" && i.tbl_name === t.name).length;
    total += n * (1 + indexes);
  }
  return total;
}

const mb = (n: number) => (n / 1e6).toFixed(2);
const ratio = (n: number, d: number) => (d ? (n / d).toFixed(3) : "n/a");

/** The report as a Markdown table (MB are 10^6 bytes), plus the totals and their ratios. */
export function storageMarkdown(r: StorageReport, rowLimit = 20): string {
  const lines = [
    `Source: ${r.files} files, ${r.sourceBytes} bytes (${mb(r.sourceBytes)} MB) of \`files.text\`; page size ${r.pageSize}, ${r.pageCount} pages.`,
    "",
    "| table / index | type | of table | MB | bytes per source byte |",
    "| --- | --- | --- | ---: | ---: |",
    ...r.rows.slice(0, rowLimit).map((x) => `| \`${x.name}\` | ${x.type} | ${x.table} | ${mb(x.bytes)} | ${ratio(x.bytes, r.sourceBytes)} |`),
  ];
  if (r.rows.length > rowLimit) {
    const rest = r.rows.slice(rowLimit).reduce((s, x) => s + x.bytes, 0);
    lines.push(`| (${r.rows.length - rowLimit} more) | | | ${mb(rest)} | ${ratio(rest, r.sourceBytes)} |`);
  }
  lines.push(
    `| **total** | | | **${mb(r.totalBytes)}** | **${ratio(r.totalBytes, r.sourceBytes)}** |`,
    `| **total without \`local_vectors\`** | | | **${mb(r.totalWithoutVectorsBytes)}** | **${ratio(r.totalWithoutVectorsBytes, r.sourceBytes)}** |`,
    "",
    `Vectors (rows of \`local_vectors\`): ${r.vectors}; rows written by the cold index, at least (rows + index entries): ${r.rowsWrittenAtLeast}.`,
  );
  return lines.join("\n");
}
