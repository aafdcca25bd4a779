/**
 * The deployment plan: from what the config asks for and what the account already has, the
 * ordered wrangler commands that create only what is missing, then deploy and migrate. Pure, so
 * planning, idempotence and the dry run are tested without a Cloudflare account.
 */
import { DEPLOY_ENV, VECTORIZE_METADATA_INDEXES, type DeployConfig } from "./config.ts";

/** What the account has, as far as the plan cares. `null` for a resource = not looked up. */
export interface AccountState {
  queues: Set<string>;
  /** Vectorize indexes by name, with their configuration. */
  vectorize: Map<string, { dimensions: number; metric: string }>;
  /** Metadata properties indexed, per Vectorize index name. */
  metadataIndexes: Map<string, Set<string>>;
  /** Secret names already set on the Worker (empty when it does not exist yet). */
  secrets: Set<string>;
}

/** Secrets the user may hand to `npm run deploy` (flags or prompts). */
export interface SecretInputs {
  GITHUB_CLIENT_ID?: string;
  GITHUB_CLIENT_SECRET?: string;
  ANTHROPIC_API_KEY?: string;
}

/** One step: a wrangler command line (arguments after `wrangler`) and what it is for. */
export interface Step {
  kind: "create-queue" | "create-vectorize" | "create-metadata-index" | "deploy" | "migrate";
  title: string;
  args: string[];
  /** Secret names uploaded with this step (`deploy --secrets-file`); values never in `args`. */
  secrets?: string[];
}

/** The plan and what it needs from the user before it can give a working sign-in. */
export interface Plan {
  steps: Step[];
  /** Secrets the deploy step uploads, by name (values in `secretValues`). */
  secretValues: Record<string, string>;
  /** Human notes: what was found already, what is still missing (e.g. GitHub OAuth app). */
  notes: string[];
}

/** An empty account: what a dry run without a login plans against. */
export function emptyAccount(): AccountState {
  return { queues: new Set(), vectorize: new Map(), metadataIndexes: new Map(), secrets: new Set() };
}

/**
 * Plans a deployment. `generateSecret` makes SIGNING_SECRET when the Worker has none (it is
 * never rotated by a re-run: sessions and signed links would break).
 * @throws Error when an existing Vectorize index has other dimensions or metric than the config
 *   (vectors of another size cannot be written; the message says how to resolve it).
 */
export function planDeploy(config: DeployConfig, state: AccountState, inputs: SecretInputs, generateSecret: () => string): Plan {
  const env = ["--env", DEPLOY_ENV];
  const steps: Step[] = [];
  const notes: string[] = [];
  for (const q of config.queues) {
    if (state.queues.has(q)) notes.push(`queue ${q} exists`);
    else steps.push({ kind: "create-queue", title: `Create queue ${q}`, args: ["queues", "create", q] });
  }
  for (const v of config.vectorize) {
    const found = state.vectorize.get(v.name);
    if (!found) {
      steps.push({
        kind: "create-vectorize",
        title: `Create Vectorize index ${v.name} (${v.dimensions} dimensions, ${v.metric})`,
        args: ["vectorize", "create", v.name, `--dimensions=${v.dimensions}`, `--metric=${v.metric}`],
      });
    } else if (found.dimensions !== v.dimensions || found.metric !== v.metric) {
      throw new Error(
        `Vectorize index ${v.name} has ${found.dimensions} dimensions (${found.metric}) but EMBEDDING_DIMENSIONS is ${v.dimensions} (${v.metric}). ` +
          `Set EMBEDDING_DIMENSIONS and EMBEDDING_MODEL in [env.production.vars] to match it, or delete the index (wrangler vectorize delete ${v.name}) and re-run.`,
      );
    } else notes.push(`Vectorize index ${v.name} exists`);
    const have = state.metadataIndexes.get(v.name) ?? new Set<string>();
    for (const m of VECTORIZE_METADATA_INDEXES) {
      if (have.has(m.property)) continue;
      steps.push({
        kind: "create-metadata-index",
        title: `Index metadata property ${m.property} of ${v.name}`,
        args: ["vectorize", "create-metadata-index", v.name, `--propertyName=${m.property}`, `--type=${m.type}`],
      });
    }
  }
  const secretValues: Record<string, string> = {};
  if (!state.secrets.has("SIGNING_SECRET")) secretValues.SIGNING_SECRET = generateSecret();
  for (const [name, value] of Object.entries(inputs)) if (value) secretValues[name] = value;
  if (config.authProvider === "github") {
    const missing = (["GITHUB_CLIENT_ID", "GITHUB_CLIENT_SECRET"] as const).filter((n) => !state.secrets.has(n) && !inputs[n]);
    if (missing.length)
      notes.push(
        `GitHub sign-in needs ${missing.join(" and ")}: create a GitHub OAuth app (callback URL printed below), then re-run with --github-client-id and --github-client-secret.`,
      );
  }
  if (!config.d1.hasId)
    notes.push(
      `D1 database ${config.d1.name} and the ${config.kv.binding} KV namespace are provisioned by wrangler deploy when missing (ids are written back to wrangler.toml).`,
    );
  const names = Object.keys(secretValues).sort();
  steps.push({
    kind: "deploy",
    title: names.length ? `Deploy the Worker with secrets ${names.join(", ")}` : "Deploy the Worker",
    args: ["deploy", ...env],
    ...(names.length ? { secrets: names } : {}),
  });
  steps.push({
    kind: "migrate",
    title: `Apply D1 migrations to ${config.d1.name}`,
    args: ["d1", "migrations", "apply", config.d1.binding, ...env, "--remote"],
  });
  // Every shard has the whole schema (docs/storage.md, "Shards"); applied migrations are skipped.
  for (const shard of config.shards) {
    steps.push({ kind: "migrate", title: `Apply D1 migrations to shard ${shard}`, args: ["d1", "migrations", "apply", shard, ...env, "--remote"] });
  }
  return { steps, secretValues, notes };
}

/**
 * The URLs a user needs after a deploy, from the Worker's base URL (`https://x.workers.dev`):
 * MCP endpoint, REST base, GitHub OAuth callback, and a first `claude mcp add` line.
 */
export function endpoints(base: string): { mcp: string; rest: string; githubCallback: string; claudeAdd: string } {
  const root = base.replace(/\/+$/, "");
  return {
    mcp: `${root}/mcp`,
    rest: `${root}/api`,
    githubCallback: `${root}/oauth/callback/github`,
    claudeAdd: `claude mcp add --transport http codebase-copilot ${root}/mcp`,
  };
}

/** The `https://<name>.<subdomain>.workers.dev` (or custom route) URL in wrangler deploy's output, if any. */
export function deployedUrl(output: string): string | undefined {
  return /https:\/\/[\w.-]+\.workers\.dev\b/.exec(output)?.[0];
}
