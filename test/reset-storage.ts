/**
 * Wipes the storage of every binding of the test Worker (the Workers test project's setup,
 * test/apply-migrations.ts, runs it before each file).
 *
 * `reset()` from cloudflare:test (workerd's `deleteAllDurableObjects`) resets only the Durable
 * Objects that have a running instance. One that `abortAllDurableObjects()` stopped and that
 * nothing has used since keeps all its data, and in Miniflare every D1 database and KV
 * namespace is a Durable Object too. So a file that aborts the objects (a runtime restart in
 * ingest-batch-crash, freshness-crash) used to hand its rows in the databases it did not touch
 * afterwards to the next file in the same runtime. Waking every object first closes that gap.
 */
import { env, listDurableObjectIds, reset, runInDurableObject } from "cloudflare:test";

/**
 * Whether `value` is a service binding or RPC stub (has `fetch`): such a stub answers every
 * property name with a remote method, so the shape checks below would mistake it for storage.
 */
function isService(value: unknown): boolean {
  return typeof (value as { fetch?: unknown } | null)?.fetch === "function";
}

/** Whether `value` is a D1 binding (has `prepare` and `batch`). */
function isD1(value: unknown): value is D1Database {
  const v = value as Partial<D1Database> | null;
  return typeof v?.prepare === "function" && typeof v.batch === "function";
}

/** Whether `value` is a KV namespace binding (has `getWithMetadata`). */
function isKv(value: unknown): value is KVNamespace {
  return typeof (value as Partial<KVNamespace> | null)?.getWithMetadata === "function";
}

/** Whether `value` is a Durable Object namespace binding (has `idFromName`). */
function isDoNamespace(value: unknown): value is DurableObjectNamespace {
  return typeof (value as Partial<DurableObjectNamespace> | null)?.idFromName === "function";
}

/**
 * Starts an instance of every storage-backed Durable Object the test Worker can reach: each D1
 * database and KV namespace in `env`, and each object of each of its own namespaces that holds
 * storage (`listDurableObjectIds`). Reads only; creates nothing new.
 */
export async function wakeAllStorage(): Promise<void> {
  for (const value of Object.values(env as unknown as Record<string, unknown>)) {
    if (typeof value !== "object" || value === null || isService(value)) continue;
    if (isD1(value)) await value.prepare("SELECT 1").first();
    else if (isKv(value)) await value.get("reset-storage-wake");
    else if (isDoNamespace(value)) {
      const ids = await listDurableObjectIds(value);
      await Promise.all(ids.map((id) => runInDurableObject(value.get(id), () => undefined)));
    }
  }
}

/** The coordinator whose in-memory mark tells whether the objects were stopped since the last wipe. */
const SENTINEL = "__reset-storage-sentinel";
const MARK = Symbol.for("reset-storage-mark");

/** Runs `fn` on the sentinel's live instance (starting one if none runs). */
function onSentinel<T>(fn: (instance: Record<symbol, unknown>) => T): Promise<T> {
  const stub = env.REPO_COORDINATOR.get(env.REPO_COORDINATOR.idFromName(SENTINEL));
  return runInDurableObject(stub, (instance) => fn(instance as unknown as Record<symbol, unknown>));
}

/**
 * Deletes the data of every binding, including objects stopped by `abortAllDurableObjects()`.
 * Waking every listed object costs 12-44 ms each here (200 coordinators: 2.4-8.9 s, under load), and
 * `listDurableObjectIds` keeps listing wiped objects, so a runtime that ran many files would pay
 * for all of them in every file. So the wake runs only when needed: the sentinel's instance
 * still carries the mark set after the last wipe unless the objects were stopped since (an
 * abort, or an eviction, which drops the sentinel too: it was used before all the others).
 */
export async function resetAllStorage(): Promise<void> {
  if (!(await onSentinel((i) => i[MARK] === true))) await wakeAllStorage();
  await reset();
  await onSentinel((i) => {
    i[MARK] = true;
  });
}
