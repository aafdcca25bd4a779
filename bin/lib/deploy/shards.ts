/**
 * Shards for `npm run deploy -- --shards N` (docs/storage.md, "Shards"): the `[env.production]`
 * D1 bindings `SHARD_0..SHARD_{N-1}` and the `SHARD_BINDINGS` variable listing them, written
 * into wrangler.toml when missing. The databases themselves are provisioned by `wrangler deploy`
 * (bindings without an id, like `DB`), and the plan applies migrations/ to each. Idempotent: a
 * shard already declared is kept as it is; shards are never removed (they hold repos).
 */
import { parse } from "smol-toml";
import { DEPLOY_ENV } from "./config.ts";

/** Most shards one `--shards` asks for: Workers allow thousands of bindings; D1 allows 50,000 databases per account on paid plans. */
export const MAX_SHARDS = 1000;

/** A shard's binding name. */
export const shardBinding = (i: number): string => `SHARD_${i}`;

/** Shard bindings `[env.<env>]` declares (`SHARD_<n>` D1 entries), in file order. */
export function declaredShards(tomlText: string, env = DEPLOY_ENV): string[] {
  const root = parse(tomlText) as { env?: Record<string, { d1_databases?: { binding?: unknown }[] }> };
  return (root.env?.[env]?.d1_databases ?? []).map((d) => d.binding).filter((b): b is string => typeof b === "string" && /^SHARD_\d+$/.test(b));
}

/**
 * `tomlText` with `[env.<env>]` declaring shards 0..n-1 (database `<catalog>-shard-<i>`) and
 * `SHARD_BINDINGS` listing them; the same text when it already does.
 * @throws Error for n outside 1..MAX_SHARDS, or when more than n shards are declared.
 */
export function withShards(tomlText: string, n: number, catalogName: string, env = DEPLOY_ENV): string {
  if (!Number.isInteger(n) || n < 1 || n > MAX_SHARDS) throw new Error(`--shards must be an integer in 1..${MAX_SHARDS}; got ${n}.`);
  const have = declaredShards(tomlText, env);
  if (have.length > n)
    throw new Error(`wrangler.toml already declares ${have.length} shards; shards are never removed (they hold repos): pass --shards ${have.length} or more.`);
  let text = tomlText;
  for (let i = 0; i < n; i++) {
    if (have.includes(shardBinding(i))) continue;
    text = `${text.replace(/\n*$/, "\n")}\n[[env.${env}.d1_databases]]\nbinding = "${shardBinding(i)}"\ndatabase_name = "${catalogName}-shard-${i}"\nmigrations_dir = "migrations"\n`;
  }
  const list = `SHARD_BINDINGS = "${Array.from({ length: n }, (_, i) => shardBinding(i)).join(",")}"`;
  const header = `[env.${env}.vars]`;
  const at = text.indexOf(`\n${header}\n`);
  if (at < 0) return `${text.replace(/\n*$/, "\n")}\n${header}\n${list}\n`;
  const start = at + header.length + 2;
  const next = text.slice(start).search(/^\[/m);
  const end = next < 0 ? text.length : start + next;
  const section = text.slice(start, end);
  const replaced = /^SHARD_BINDINGS\s*=.*$/m.test(section) ? section.replace(/^SHARD_BINDINGS\s*=.*$/m, list) : `${list}\n${section}`;
  return text.slice(0, start) + replaced + text.slice(end);
}
