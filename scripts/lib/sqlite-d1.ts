/**
 * The Worker's search code run in Node over a local server's D1 file, for the replay scripts
 * (scripts/replay-search.ts, scripts/replay-swebench.ts): the file itself, D1's statement
 * interface over `node:sqlite`, and the search modules bundled as wrangler bundles them.
 * `node:sqlite` is not workerd's SQLite build and has no D1 round trips: these replays compare
 * checkouts over the same rows, they do not measure speed.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { type DatabaseSync, type SQLInputValue } from "node:sqlite";
import { build } from "esbuild";

/**
 * The largest `.sqlite` file of a `scripts/serve-snapshot.ts` state folder's D1 (the database
 * holding the indexed repos; the others are empty), or undefined when the folder has no D1.
 */
export function largestD1File(state: string): string | undefined {
  const d1Dir = join(state, "v3", "d1", "miniflare-D1DatabaseObject");
  if (!existsSync(d1Dir)) return undefined;
  return readdirSync(d1Dir)
    .filter((f) => f.endsWith(".sqlite"))
    .map((f) => join(d1Dir, f))
    .sort((x, y) => statSync(y).size - statSync(x).size)[0];
}

/** Rows of one statement; D1 binds blobs as ArrayBuffer, `node:sqlite` wants a Uint8Array. */
export function sqliteRows(sqlite: DatabaseSync, sql: string, params: unknown[]): Record<string, unknown>[] {
  return sqlite.prepare(sql).all(...(params.map((p) => (p instanceof ArrayBuffer ? new Uint8Array(p) : p)) as SQLInputValue[])) as Record<string, unknown>[];
}

/** The part of D1's database interface the searcher uses (`prepare`, `bind`, `all`, `first`, `raw`, `run`, `batch`), over `run`. */
export function d1Over(run: (sql: string, params: unknown[]) => Record<string, unknown>[]) {
  const statement = (sql: string, params: unknown[] = []) => {
    const result = () => ({ results: run(sql, params), success: true, meta: {} });
    return {
      sql,
      params,
      bind: (...p: unknown[]) => statement(sql, p),
      all: async () => result(),
      first: async (column?: string) => {
        const row = run(sql, params)[0] ?? null;
        return column && row ? row[column] : row;
      },
      raw: async () => run(sql, params).map((r) => Object.values(r)),
      run: async () => result(),
    };
  };
  return {
    prepare: (sql: string) => statement(sql),
    batch: async (statements: ReturnType<typeof statement>[]) => statements.map((s) => ({ results: run(s.sql, s.params), success: true, meta: {} })),
  };
}

/**
 * Bundles `exports` (an ES module's export lines, resolved from the checkout `root`) into
 * `outfile` as wrangler does: TypeScript beyond type stripping, extensionless imports,
 * linguist's vendor.yml as text. Import the file afterwards.
 */
export async function bundleWorkerModules(root: string, exports: string, outfile: string): Promise<void> {
  await build({
    stdin: { contents: exports, resolveDir: root, loader: "ts" },
    bundle: true,
    platform: "node",
    format: "esm",
    loader: { ".yml": "text" },
    outfile,
    logLevel: "warning",
  });
}
