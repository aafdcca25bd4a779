/**
 * What `npm run deploy` must provision, read from `[env.production]` of wrangler.toml, so the
 * config file stays the one place that names queues, the Vectorize index and its dimensions.
 */
import { parse } from "smol-toml";

/** Wrangler environment that `npm run deploy` targets. */
export const DEPLOY_ENV = "production";

/**
 * Vectorize metadata properties given an index before the first insert (Vectorize only filters
 * on properties indexed before the vectors were written; docs: "Metadata filtering").
 * indexer/store/vectors/vectorize.ts writes exactly these.
 */
export const VECTORIZE_METADATA_INDEXES = [
  { property: "language", type: "string" },
  { property: "path", type: "string" },
] as const;

/** One Vectorize index the Worker binds. */
export interface VectorizeSpec {
  binding: string;
  name: string;
  dimensions: number;
  metric: "cosine";
}

/** Resources of one deployment, as the plan needs them. */
export interface DeployConfig {
  workerName: string;
  /** Every queue a producer, consumer or dead-letter setting names, deduplicated, in file order. */
  queues: string[];
  /** Every `[[vectorize]]` index, in file order: `VECTORIZE`, then a shard's own (`VECTORIZE_<n>`, bin/lib/deploy/shards.ts). */
  vectorize: VectorizeSpec[];
  d1: { binding: string; name: string; hasId: boolean };
  /** Shard D1 bindings (`SHARD_<n>`, docs/storage.md "Shards"), in file order; each gets the migrations too. */
  shards: string[];
  kv: { binding: string; hasId: boolean };
  /** `AUTH_PROVIDER` of the environment (`github` needs the GitHub OAuth app's id and secret). */
  authProvider: string;
}

type Table = Record<string, unknown>;
const tables = (v: unknown): Table[] => (Array.isArray(v) ? (v as Table[]) : []);
const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

/**
 * Parses wrangler.toml's text into the resources of `[env.<env>]`.
 * @throws Error naming the missing table or key, e.g. `[env.production] has no d1_databases`.
 */
export function readDeployConfig(tomlText: string, env = DEPLOY_ENV): DeployConfig {
  const root = parse(tomlText) as Table;
  const e = ((root.env as Table | undefined)?.[env] ?? undefined) as Table | undefined;
  if (!e) throw new Error(`wrangler.toml has no [env.${env}] table.`);
  const where = `[env.${env}]`;
  const queues = e.queues as Table | undefined;
  const names: string[] = [];
  for (const p of tables(queues?.producers)) if (str(p.queue)) names.push(p.queue as string);
  for (const c of tables(queues?.consumers)) {
    if (str(c.queue)) names.push(c.queue as string);
    if (str(c.dead_letter_queue)) names.push(c.dead_letter_queue as string);
  }
  const d1 = tables(e.d1_databases)[0];
  if (!d1 || !str(d1.binding) || !str(d1.database_name)) throw new Error(`${where} has no d1_databases entry with binding and database_name.`);
  const kv = tables(e.kv_namespaces)[0];
  if (!kv || !str(kv.binding)) throw new Error(`${where} has no kv_namespaces entry with a binding.`);
  const vars = (e.vars ?? {}) as Table;
  const vectorize: VectorizeSpec[] = [];
  for (const vec of tables(e.vectorize)) {
    const dimensions = Number(vars.EMBEDDING_DIMENSIONS);
    if (!str(vec.index_name) || !str(vec.binding)) throw new Error(`${where}.vectorize needs binding and index_name.`);
    if (!Number.isInteger(dimensions) || dimensions <= 0 || dimensions > 1536)
      throw new Error(`${where}.vars.EMBEDDING_DIMENSIONS must be an integer in 1..1536 (Vectorize's limit); got "${vars.EMBEDDING_DIMENSIONS}".`);
    vectorize.push({ binding: vec.binding as string, name: vec.index_name as string, dimensions, metric: "cosine" });
  }
  return {
    workerName: str(e.name) ?? str(root.name) ?? "codebase-copilot",
    queues: [...new Set(names)],
    vectorize,
    d1: { binding: d1.binding as string, name: d1.database_name as string, hasId: str(d1.database_id) !== undefined },
    shards: tables(e.d1_databases)
      .map((d) => str(d.binding))
      .filter((b): b is string => !!b && /^SHARD_\d+$/.test(b)),
    kv: { binding: kv.binding as string, hasId: str(kv.id) !== undefined },
    authProvider: str(vars.AUTH_PROVIDER) ?? "local",
  };
}
