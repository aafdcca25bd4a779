/**
 * Reads what a Cloudflare account already has, through wrangler, for the deployment plan.
 * Each look-up is one wrangler command; a command that fails because the thing is absent means
 * "absent", so the plan creates it.
 */
import type { DeployConfig } from "./config.ts";
import { DEPLOY_ENV } from "./config.ts";
import { emptyAccount, type AccountState } from "./plan.ts";

/** Runs `wrangler <args>`; resolves with exit code and combined output (never rejects on exit code). */
export type WranglerRunner = (args: string[]) => Promise<{ code: number; output: string }>;

/** The JSON document in a wrangler output that may carry banner lines before it. */
export function jsonIn(output: string): unknown {
  const start = output.search(/^[[{]/m);
  if (start < 0) throw new Error(`expected JSON from wrangler, got: ${output.slice(0, 200)}`);
  return JSON.parse(output.slice(start));
}

/** Whether `wrangler whoami --json` says we are logged in. */
export async function isLoggedIn(run: WranglerRunner): Promise<boolean> {
  const r = await run(["whoami", "--json"]);
  return r.code === 0;
}

/**
 * The account state for `config`: which queues exist (`queues info`), each Vectorize index and
 * its metadata indexes (`vectorize get --json`, `list-metadata-index --json`), and the Worker's
 * secrets (`secret list --format json`; none when the Worker does not exist yet).
 */
export async function readAccountState(run: WranglerRunner, config: DeployConfig): Promise<AccountState> {
  const state = emptyAccount();
  for (const q of config.queues) if ((await run(["queues", "info", q])).code === 0) state.queues.add(q);
  for (const { name } of config.vectorize) {
    const got = await run(["vectorize", "get", name, "--json"]);
    if (got.code === 0) {
      const info = jsonIn(got.output) as { config?: { dimensions?: number; metric?: string } };
      state.vectorize.set(name, { dimensions: Number(info.config?.dimensions), metric: String(info.config?.metric) });
      const meta = await run(["vectorize", "list-metadata-index", name, "--json"]);
      if (meta.code === 0) {
        const list = jsonIn(meta.output) as { propertyName?: string }[] | { metadataIndexes?: { propertyName?: string }[] };
        const entries = Array.isArray(list) ? list : (list.metadataIndexes ?? []);
        state.metadataIndexes.set(name, new Set(entries.map((m) => String(m.propertyName))));
      }
    }
  }
  const secrets = await run(["secret", "list", "--env", DEPLOY_ENV, "--format", "json"]);
  if (secrets.code === 0) for (const s of jsonIn(secrets.output) as { name: string }[]) state.secrets.add(s.name);
  return state;
}
