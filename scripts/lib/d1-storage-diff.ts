/**
 * @module scripts/lib/d1-storage-diff
 *
 * What one step of a benchmark added to a local server's D1, by table and index (issue #49,
 * `npm run bench:refs`): every D1 file of the state folder (catalog and shards) is copied with
 * SQLite's online backup while the server runs, and each copy's `dbstat` is read
 * (scripts/lib/d1-storage.ts). Bytes are pages (`pgsize`), so free space inside pages counts,
 * while free-list pages (which `meta.size_after` counts) do not. Row counts of the tables that
 * grow per snapshot rather than per file version are read too.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { backupSqlite, measureD1 } from "./d1-storage.ts";

/** Tables whose rows are counted: per snapshot (membership, statistics) and per file version. */
export const COUNTED_TABLES = ["snapshot_files", "snapshot_df", "snapshot_stats", "files", "chunks", "file_terms", "symbols", "local_vectors"] as const;

/** Bytes by table/index name and rows by counted table, summed over every D1 file of a state folder. */
export interface StorageSnapshot {
  bytes: Map<string, number>;
  /** The table each name belongs to (an index's table; a table's own name). */
  tableOf: Map<string, string>;
  rows: Map<string, number>;
}

/** Measures every `.sqlite` file of a `scripts/lib/dev-server.ts` state folder (copies; the originals are only read). */
export async function measureStateFolder(stateDir: string): Promise<StorageSnapshot> {
  const d1Dir = join(stateDir, "v3", "d1", "miniflare-D1DatabaseObject");
  const out: StorageSnapshot = { bytes: new Map(), tableOf: new Map(), rows: new Map() };
  if (!existsSync(d1Dir)) return out;
  const tmp = mkdtempSync(join(tmpdir(), "cc-d1-diff-"));
  try {
    for (const f of readdirSync(d1Dir).filter((n) => n.endsWith(".sqlite"))) {
      const copy = join(tmp, f);
      await backupSqlite(join(d1Dir, f), copy);
      let report;
      try {
        report = measureD1(copy);
      } catch {
        continue; // a database without `files` (none of ours): nothing to split
      }
      for (const r of report.rows) {
        out.bytes.set(r.name, (out.bytes.get(r.name) ?? 0) + r.bytes);
        out.tableOf.set(r.name, r.table);
      }
      const db = new DatabaseSync(copy, { readOnly: true });
      try {
        for (const t of COUNTED_TABLES) {
          const n = (db.prepare(`SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table' AND name = ?`).get(t) as { n: number }).n;
          if (!n) continue;
          const rows = Number((db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n);
          out.rows.set(t, (out.rows.get(t) ?? 0) + rows);
        }
      } finally {
        db.close();
      }
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return out;
}

/** One table or index's growth between two measurements. */
export interface StorageDelta {
  name: string;
  table: string;
  bytes: number;
}

/** Growth by table and index from `before` to `after`, largest first (names that did not change are left out). */
export function storageDelta(before: StorageSnapshot, after: StorageSnapshot): StorageDelta[] {
  const names = new Set([...before.bytes.keys(), ...after.bytes.keys()]);
  return [...names]
    .map((name) => ({
      name,
      table: after.tableOf.get(name) ?? before.tableOf.get(name) ?? name,
      bytes: (after.bytes.get(name) ?? 0) - (before.bytes.get(name) ?? 0),
    }))
    .filter((d) => d.bytes !== 0)
    .sort((x, y) => y.bytes - x.bytes || x.name.localeCompare(y.name));
}

const mb = (n: number) => (n / 1e6).toFixed(2);
const total = (s: StorageSnapshot, withVectors: boolean) =>
  [...s.bytes].reduce((n, [name, b]) => n + (withVectors || s.tableOf.get(name) !== "local_vectors" ? b : 0), 0);

/**
 * A Markdown table of what each step added (columns `steps`, each measured against the one
 * before it; `points` has one more entry than `steps`), by table and index, with row counts of
 * the counted tables and totals with and without `local_vectors` (Vectorize in production).
 */
export function storageDeltaMarkdown(steps: string[], points: StorageSnapshot[], rowLimit = 16): string {
  const deltas = steps.map((_, i) => storageDelta(points[i], points[i + 1]));
  const byName = new Map<string, number>();
  for (const d of deltas.flat()) byName.set(d.name, Math.max(byName.get(d.name) ?? 0, Math.abs(d.bytes)));
  const names = [...byName].sort((x, y) => y[1] - x[1]).map(([n]) => n);
  const cell = (i: number, name: string) => mb(deltas[i].find((d) => d.name === name)?.bytes ?? 0);
  const lines = [`| table / index | ${steps.map((s) => `${s}, MB added`).join(" | ")} |`, `| --- | ${steps.map(() => "---:").join(" | ")} |`];
  for (const name of names.slice(0, rowLimit)) lines.push(`| \`${name}\` | ${steps.map((_, i) => cell(i, name)).join(" | ")} |`);
  if (names.length > rowLimit) {
    const rest = names.slice(rowLimit);
    lines.push(
      `| (${rest.length} more) | ${steps.map((_, i) => mb(deltas[i].filter((d) => rest.includes(d.name)).reduce((n, d) => n + d.bytes, 0))).join(" | ")} |`,
    );
  }
  const sum = (i: number, withVectors: boolean) => mb(total(points[i + 1], withVectors) - total(points[i], withVectors));
  lines.push(
    `| **total** | ${steps.map((_, i) => `**${sum(i, true)}**`).join(" | ")} |`,
    `| **total without \`local_vectors\`** | ${steps.map((_, i) => `**${sum(i, false)}**`).join(" | ")} |`,
  );
  for (const t of COUNTED_TABLES)
    lines.push(`| rows of \`${t}\` | ${steps.map((_, i) => String((points[i + 1].rows.get(t) ?? 0) - (points[i].rows.get(t) ?? 0))).join(" | ")} |`);
  return lines.join("\n");
}
