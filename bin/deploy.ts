/**
 * `npm run deploy [-- --dry-run] [--shards N] [--github-client-id ID --github-client-secret S] [--anthropic-api-key K] [--yes]`
 *
 * From a clone to a live, OAuth-protected MCP URL: reads `[env.production]` of wrangler.toml,
 * looks up what the Cloudflare account already has, creates only what is missing (queues and
 * their dead-letter queue, the Vectorize index and its metadata indexes), deploys with the
 * secrets (SIGNING_SECRET generated once; D1 and KV provisioned by wrangler itself), applies the
 * D1 migrations remotely (to the catalog and to every shard), and prints the MCP URL, the REST base, the GitHub OAuth callback URL
 * and a `claude mcp add` line. Re-running creates nothing that exists.
 *
 * `--shards N` declares the shard databases SHARD_0..SHARD_{N-1} in `[env.production]` of
 * wrangler.toml when missing (bin/lib/deploy/shards.ts; wrangler deploy provisions them), and a
 * Vectorize index per shard (`VECTORIZE`, `VECTORIZE_1`, ...; the plan creates them).
 *
 * `--dry-run` prints every step with its exact wrangler command (planned against the account
 * when logged in, else against an empty one) and runs `wrangler deploy --dry-run`.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline/promises";
import { Command } from "commander";
import { DEPLOY_ENV, readDeployConfig } from "./lib/deploy/config.ts";
import { deployedUrl, emptyAccount, endpoints, planDeploy, type SecretInputs } from "./lib/deploy/plan.ts";
import { declaredShards, shardVectorIndexes, withShards } from "./lib/deploy/shards.ts";
import { isLoggedIn, readAccountState, type WranglerRunner } from "./lib/deploy/state.ts";
import { PROJECT_ROOT } from "./lib/paths.ts";

const WRANGLER_BIN = join(PROJECT_ROOT, "node_modules", "wrangler", "bin", "wrangler.js");

interface Options {
  dryRun?: boolean;
  githubClientId?: string;
  githubClientSecret?: string;
  anthropicApiKey?: string;
  yes?: boolean;
  shards?: string;
}

/** Runs wrangler with output captured; `echo` also streams it (deploy, migrations). */
function wrangler(echo: boolean): WranglerRunner {
  return (args) =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [WRANGLER_BIN, ...args], {
        cwd: PROJECT_ROOT,
        env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      const take = (d: Buffer) => {
        output += d;
        if (echo) process.stderr.write(d);
      };
      child.stdout.on("data", take);
      child.stderr.on("data", take);
      child.on("error", reject);
      child.on("close", (code) => resolve({ code: code ?? 1, output }));
    });
}

const shown = (args: string[]) => `npx wrangler ${args.map((a) => (/^[\w./:=@-]+$/.test(a) ? a : `'${a}'`)).join(" ")}`;

async function ask(question: string): Promise<string | undefined> {
  if (!process.stdin.isTTY) return undefined;
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await rl.question(question)).trim() || undefined;
  } finally {
    rl.close();
  }
}

async function main(o: Options): Promise<number> {
  const tomlPath = join(PROJECT_ROOT, "wrangler.toml");
  let toml = readFileSync(tomlPath, "utf8");
  if (o.shards !== undefined) {
    const wanted = withShards(toml, Number(o.shards), readDeployConfig(toml).d1.name);
    if (wanted !== toml) {
      const added = declaredShards(wanted).filter((s) => !declaredShards(toml).includes(s));
      console.log(
        `- ${o.dryRun ? "would declare" : "declaring"} shard databases ${added.join(", ") || "(none new)"}, SHARD_BINDINGS and each shard's Vectorize index (VECTORIZE_BINDINGS) in [env.${DEPLOY_ENV}] of wrangler.toml`,
      );
      const indexes = shardVectorIndexes(wanted, Number(o.shards));
      const sharing = indexes.flatMap((b, i) => (indexes.indexOf(b) !== i || indexes.lastIndexOf(b) !== i ? [i] : []));
      if (sharing.length)
        console.log(
          `- shards ${sharing.join(", ")} share one Vectorize index (declared before per-shard indexes; their vectors are there): move repos to a shard with its own index to spread them (docs/scale.md)`,
        );
      if (!o.dryRun) writeFileSync(tomlPath, wanted);
      toml = wanted;
    } else console.log(`- wrangler.toml already declares ${declaredShards(toml).length} shards`);
  }
  const config = readDeployConfig(toml);
  const quiet = wrangler(false);
  const loggedIn = await isLoggedIn(quiet);
  if (!loggedIn && !o.dryRun) {
    console.error(
      "Not logged in to Cloudflare. Run `npx wrangler login` (or set CLOUDFLARE_API_TOKEN and CLOUDFLARE_ACCOUNT_ID), then re-run `npm run deploy`.",
    );
    return 1;
  }
  process.stderr.write(loggedIn ? "Reading what the account already has ...\n" : "Not logged in: planning as for an empty account.\n");
  const state = loggedIn ? await readAccountState(quiet, config) : emptyAccount();
  const inputs: SecretInputs = {
    GITHUB_CLIENT_ID: o.githubClientId,
    GITHUB_CLIENT_SECRET: o.githubClientSecret,
    ANTHROPIC_API_KEY: o.anthropicApiKey ?? process.env.ANTHROPIC_API_KEY,
  };
  if (!o.dryRun && !o.yes && config.authProvider === "github") {
    if (!state.secrets.has("GITHUB_CLIENT_ID") && !inputs.GITHUB_CLIENT_ID)
      inputs.GITHUB_CLIENT_ID = await ask("GitHub OAuth app client id (Enter to set it later): ");
    if (!state.secrets.has("GITHUB_CLIENT_SECRET") && !inputs.GITHUB_CLIENT_SECRET && inputs.GITHUB_CLIENT_ID)
      inputs.GITHUB_CLIENT_SECRET = await ask("GitHub OAuth app client secret: ");
  }
  const plan = planDeploy(config, state, inputs, () => randomBytes(32).toString("base64url"));
  for (const n of plan.notes) console.log(`- ${n}`);
  console.log(`\nPlan (${plan.steps.length} steps, env ${DEPLOY_ENV}):`);
  plan.steps.forEach((s, i) => console.log(`  ${i + 1}. ${s.title}\n     ${shown(s.args)}${s.secrets ? " --secrets-file <temporary file, mode 600>" : ""}`));

  if (o.dryRun) {
    console.log("\nDry run: checking the bundle with `wrangler deploy --dry-run` ...");
    const r = await wrangler(true)(["deploy", "--dry-run", "--env", DEPLOY_ENV, "--outdir", mkdtempSync(join(tmpdir(), "ccp-dry-"))]);
    console.log(r.code === 0 ? "\nDry run passed: nothing was created or uploaded." : "\nwrangler deploy --dry-run failed (see above).");
    return r.code === 0 ? 0 : 1;
  }

  const loud = wrangler(true);
  let base: string | undefined;
  for (const step of plan.steps) {
    console.log(`\n==> ${step.title}`);
    let args = step.args;
    let dir: string | undefined;
    if (step.secrets) {
      dir = mkdtempSync(join(tmpdir(), "ccp-secrets-"));
      const file = join(dir, "secrets.json");
      writeFileSync(file, JSON.stringify(plan.secretValues), { mode: 0o600 });
      args = [...args, "--secrets-file", file];
    }
    try {
      const r = await loud(args);
      if (r.code !== 0) {
        console.error(`\nStep failed: ${shown(step.args)} (exit ${r.code}). Fix the cause above and re-run npm run deploy: finished steps are not repeated.`);
        return 1;
      }
      if (step.kind === "deploy") base = deployedUrl(r.output);
    } finally {
      if (dir) rmSync(dir, { recursive: true, force: true });
    }
  }
  const urls = base ? endpoints(base) : undefined;
  console.log(`
Deployed.
  MCP URL:   ${urls?.mcp ?? "<worker URL>/mcp"}
  REST API:  ${urls?.rest ?? "<worker URL>/api"}  (OpenAPI at /api/openapi.json)
  GitHub OAuth app "Authorization callback URL": ${urls?.githubCallback ?? "<worker URL>/oauth/callback/github"}

Connect Claude Code:
  ${urls?.claudeAdd ?? "claude mcp add --transport http codebase-copilot <worker URL>/mcp"}`);
  return 0;
}

const program = new Command("deploy")
  .description("Provision what is missing on Cloudflare, deploy, and migrate D1 (idempotent)")
  .option("--dry-run", "print every step and run `wrangler deploy --dry-run`; create nothing")
  .option("--github-client-id <id>", "GitHub OAuth app client id (AUTH_PROVIDER=github)")
  .option("--github-client-secret <secret>", "GitHub OAuth app client secret")
  .option("--anthropic-api-key <key>", "Anthropic API key for answers (default: $ANTHROPIC_API_KEY)")
  .option("--shards <n>", "shard databases to have (declared in wrangler.toml when missing, never removed); default: those declared")
  .option("--yes", "never prompt (CI)")
  .action(async (o: Options) => {
    process.exitCode = await main(o);
  });
program.parseAsync(process.argv).catch((err: unknown) => {
  console.error(`error: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
