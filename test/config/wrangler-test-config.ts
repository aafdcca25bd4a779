/**
 * The Wrangler configuration the Workers test pool reads: wrangler.toml's top level, written
 * as JSON into a folder of its own (`.wrangler/vitest/`, gitignored).
 *
 * Why a copy: Wrangler loads secrets from `.dev.vars` (or `.env`) in the folder of the
 * configuration file it reads, and the vitest plugin gives it no option to skip that
 * (`unstable_getMiniflareWorkerOptions` is called without `envFiles`). Pointed at the project's
 * own wrangler.toml, the tests would run with the developer's real keys (an Anthropic key in
 * `.dev.vars`, as the README suggests) and print `Using secrets defined in .dev.vars` per
 * runtime. From a folder that holds no such file, the test Worker gets exactly the bindings
 * declared in wrangler.toml plus the test pool's own (vitest.config.mts).
 *
 * Kept: every top-level key (bindings, vars, rules, define, compatibility settings), with
 * `main` and `migrations_dir` made absolute. Dropped: `env` (the test Worker is the local
 * one) and `build` (vitest transforms the sources itself; the web bundle is built by the
 * globalSetup test/build-web.ts). Added: shards up to TEST_SHARDS (`SHARD_<n>` D1 bindings,
 * listed in `SHARD_BINDINGS`), so the tests run with more shards than `npm start`'s two.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parse } from "smol-toml";

/** Shards the test Worker has (docs/storage.md, "Shards"; issue #45 asks for three). */
export const TEST_SHARDS = 3;

/** The test Worker's shard binding names, shard 0 first. */
export function testShardBindings(): string[] {
  return Array.from({ length: TEST_SHARDS }, (_, i) => `SHARD_${i}`);
}

/** Files from which Wrangler would load secrets next to a configuration file. */
export const SECRET_FILES: readonly string[] = [".dev.vars", ".env", ".env.local"];

/**
 * Writes `<root>/.wrangler/vitest/wrangler.json` from `<root>/wrangler.toml` and returns its
 * path. Throws if a secrets file exists in that folder, since Wrangler would load it.
 */
export function writeTestWranglerConfig(root: string): string {
  const config = parse(readFileSync(join(root, "wrangler.toml"), "utf8")) as Record<string, unknown>;
  delete config.env;
  delete config.build;
  if (typeof config.main === "string") config.main = resolve(root, config.main);
  const d1 = config.d1_databases as { migrations_dir?: string }[] | undefined;
  for (const db of d1 ?? []) if (db.migrations_dir) db.migrations_dir = resolve(root, db.migrations_dir);
  const bound = new Set((d1 ?? []).map((b) => (b as { binding?: string }).binding));
  for (const [i, name] of testShardBindings().entries()) {
    if (bound.has(name)) continue;
    d1?.push({
      binding: name,
      database_name: `codebase-copilot-test-shard-${i}`,
      database_id: `00000000-0000-0000-0000-0000000001${String(i).padStart(2, "0")}`,
      migrations_dir: resolve(root, "migrations"),
    } as { migrations_dir?: string });
  }
  config.vars = { ...(config.vars as Record<string, unknown>), SHARD_BINDINGS: testShardBindings().join(",") };
  const dir = join(root, ".wrangler", "vitest");
  mkdirSync(dir, { recursive: true });
  for (const name of SECRET_FILES) {
    if (existsSync(join(dir, name))) throw new Error(`${join(dir, name)} exists; delete it: the test Worker must not read secrets files`);
  }
  const path = join(dir, "wrangler.json");
  writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`);
  return path;
}

/** The binding names wrangler.toml's top level declares (vars, D1, Durable Objects, queues, KV, rate limits). */
export function declaredBindingNames(root: string): string[] {
  const c = parse(readFileSync(join(root, "wrangler.toml"), "utf8")) as Record<string, any>;
  return [
    ...Object.keys(c.vars ?? {}),
    ...(c.d1_databases ?? []).map((b: { binding: string }) => b.binding),
    ...(c.durable_objects?.bindings ?? []).map((b: { name: string }) => b.name),
    ...(c.queues?.producers ?? []).map((b: { binding: string }) => b.binding),
    ...(c.kv_namespaces ?? []).map((b: { binding: string }) => b.binding),
    ...(c.ratelimits ?? []).map((b: { name: string }) => b.name),
  ];
}
