/**
 * Shards for `npm run deploy -- --shards N` (docs/storage.md, "Shards"): the `[env.production]`
 * D1 bindings `SHARD_0..SHARD_{N-1}` and the `SHARD_BINDINGS` variable listing them, written
 * into wrangler.toml when missing. The databases themselves are provisioned by `wrangler deploy`
 * (bindings without an id, like `DB`), and the plan applies migrations/ to each. Idempotent: a
 * shard already declared is kept as it is; shards are never removed (they hold repos).
 *
 * Each shard's vectors live in a Vectorize index of its own (indexer/store/vectors/indexes.ts):
 * shard 0 keeps the `VECTORIZE` index a one-shard deployment had, shard n > 0 gets `VECTORIZE_<n>`
 * (index `<VECTORIZE's index_name>-shard-<n>`), and `VECTORIZE_BINDINGS` lists them in shard
 * order. A shard declared before `VECTORIZE_BINDINGS` existed keeps the shared `VECTORIZE`,
 * where its repos' vectors are; the plan creates every index that is missing.
 */
import { parse } from "smol-toml";
import { DEPLOY_ENV } from "./config.ts";

/** Most shards one `--shards` asks for: Workers allow thousands of bindings; D1 allows 50,000 databases per account on paid plans. */
export const MAX_SHARDS = 1000;

/** A shard's binding name. */
export const shardBinding = (i: number): string => `SHARD_${i}`;

/** The Vectorize binding of shard `i`'s own index: shard 0 keeps the one-shard deployment's `VECTORIZE`. */
export const vectorizeBinding = (i: number): string => (i === 0 ? "VECTORIZE" : `VECTORIZE_${i}`);

type EnvTables = { vars?: Record<string, unknown>; vectorize?: { binding?: unknown; index_name?: unknown }[] };
const envOf = (tomlText: string, env: string): EnvTables | undefined => (parse(tomlText) as { env?: Record<string, EnvTables> }).env?.[env];

/** `[env.<env>.vars]` of `text` with `name = "value"` set (replaced in place, or added first). */
function setVar(text: string, env: string, name: string, value: string): string {
  const line = `${name} = "${value}"`;
  const header = `[env.${env}.vars]`;
  const at = text.indexOf(`\n${header}\n`);
  if (at < 0) return `${text.replace(/\n*$/, "\n")}\n${header}\n${line}\n`;
  const start = at + header.length + 2;
  const next = text.slice(start).search(/^\[/m);
  const end = next < 0 ? text.length : start + next;
  const section = text.slice(start, end);
  const re = new RegExp(`^${name}\\s*=.*$`, "m");
  return text.slice(0, start) + (re.test(section) ? section.replace(re, line) : `${line}\n${section}`) + text.slice(end);
}

/**
 * The Vectorize binding of each of `n` shards: those `VECTORIZE_BINDINGS` lists already, else
 * `VECTORIZE` for a shard declared before the list existed (its vectors are there), else the
 * shard's own `vectorizeBinding(i)`.
 */
export function shardVectorIndexes(tomlText: string, n: number, env = DEPLOY_ENV): string[] {
  const listed = String(envOf(tomlText, env)?.vars?.VECTORIZE_BINDINGS ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const before = listed.length ? listed : declaredShards(tomlText, env).map(() => "VECTORIZE");
  return Array.from({ length: n }, (_, i) => before[i] ?? vectorizeBinding(i));
}

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
  text = setVar(text, env, "SHARD_BINDINGS", Array.from({ length: n }, (_, i) => shardBinding(i)).join(","));
  // Vector indexes follow the shards, when the environment has Vectorize at all.
  const base = (envOf(tomlText, env)?.vectorize ?? []).find((v) => v.binding === "VECTORIZE");
  if (!base || typeof base.index_name !== "string") return text;
  const indexes = shardVectorIndexes(tomlText, n, env);
  const bound = new Set((envOf(tomlText, env)?.vectorize ?? []).map((v) => v.binding));
  for (const [i, b] of indexes.entries()) {
    if (bound.has(b)) continue;
    bound.add(b);
    text = `${text.replace(/\n*$/, "\n")}\n[[env.${env}.vectorize]]\nbinding = "${b}"\nindex_name = "${base.index_name}-shard-${i}"\n`;
  }
  return setVar(text, env, "VECTORIZE_BINDINGS", indexes.join(","));
}
