/**
 * `npm start [-- <git-url-or-local-path>] [--port 8787] [--name <id>] [--ref <ref>]`
 *
 * Runs Codebase Copilot locally on 127.0.0.1: applies the D1 migrations, starts `wrangler dev`
 * with state in `.codebase-copilot/state` and the local admin token (handed over in
 * `.codebase-copilot/dev.vars`, mode 600, never on the command line), waits for `/api/health`,
 * optionally registers a repository (git URL -> `POST /api/repos`; local folder -> tar.gz upload
 * to `POST /api/repos/{id}/archive`, no network needed), shows indexing progress, and prints the
 * web URL, the MCP URL and a curl search. Records the server's URL beside the admin token
 * (`.codebase-copilot/server-url`, mode 600) so the CLI finds it, and runs wrangler.toml's crons
 * through a local ticker (wrangler dev fires none). Runs until Ctrl-C, then stops wrangler's
 * process group and removes the URL record.
 */
import { existsSync, mkdirSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { ensureAdminToken } from "./lib/admin-token.ts";
import { localD1Bindings } from "./lib/d1-bindings.ts";
import { addToRunningServer, parseCliArgs, USAGE, type CliArgs } from "./lib/cli-args.ts";
import { createApiClient } from "./lib/api-client.ts";
import { errorText, followProgress, followTracked, startIndexing } from "./lib/index-source.ts";
import { describeTracked } from "./lib/register-url.ts";
import { ADMIN_TOKEN_FILE, DEV_VARS_FILE, PERSIST_DIR, PROJECT_ROOT, SERVER_URL_FILE, STATE_DIR, WRANGLER_LOG_FILE } from "./lib/paths.ts";
import { renderDone } from "./lib/progress.ts";
import { isGitUrl, repoIdForFolder, REPO_ID_PATTERN } from "./lib/repo-id.ts";
import { clearServerUrl, recordServerUrl } from "./lib/local-server.ts";
import { configuredCrons, startTicker, type Ticker } from "./lib/schedule-ticker.ts";
import { isHealthy, runWrangler, startDevServer, waitForHealth, type DevServer } from "./lib/wrangler.ts";

const parsed = parseCliArgs(process.argv.slice(2), process.env.PORT ?? "8787");
if ("error" in parsed) {
  console.error(`error: ${parsed.error}\n${USAGE}`);
  process.exit(2);
}
const values: CliArgs = parsed;
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

const port = Number(values.port);
if (!Number.isInteger(port) || port <= 0 || port > 65535) fail(`--port (or PORT) must be a TCP port; got "${values.port}".`);
if (values.name !== undefined && !REPO_ID_PATTERN.test(values.name)) fail(`--name must match ${REPO_ID_PATTERN}; got "${values.name}".`);
const source = values.source;
const base = `http://127.0.0.1:${port}`;
let server: DevServer | undefined;
let ticker: Ticker | undefined;
let stopping = false;

/** A local path is relative to where the user ran `npm start` (npm runs scripts from the project root; INIT_CWD is the caller's folder). */
function sourceDir(path: string): string {
  return resolve(process.env.INIT_CWD ?? process.cwd(), path);
}

function fail(message: string): never {
  console.error(`error: ${message}`);
  process.exit(1);
}

async function shutdown(code: number): Promise<never> {
  if (stopping) return new Promise<never>(() => {});
  stopping = true;
  ticker?.stop();
  clearServerUrl(base);
  if (server) {
    process.stderr.write("Stopping wrangler ...\n");
    await server.stop();
  }
  process.exit(code);
}

process.on("SIGINT", () => void shutdown(0));
process.on("SIGTERM", () => void shutdown(0));

async function main(): Promise<void> {
  if (source !== undefined && !isGitUrl(source)) {
    const dir = sourceDir(source);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) fail(`"${source}" is neither a git URL nor a local folder.`);
  }
  mkdirSync(STATE_DIR, { recursive: true, mode: 0o700 });
  const { token, created } = ensureAdminToken(ADMIN_TOKEN_FILE);
  if (created) {
    console.log(`Created the local admin token (shown once; also in ${ADMIN_TOKEN_FILE}, mode 600):\n\n  ${token}\n`);
  }
  if (await isHealthy(base)) {
    const target =
      source === undefined ? null : isGitUrl(source) ? { url: source } : { dir: sourceDir(source), id: values.name ?? repoIdForFolder(sourceDir(source)) };
    fail(
      `Something already answers on ${base}; stop it or pick another port with --port or PORT.\n` +
        `If it is Codebase Copilot started from here, add ${source === undefined ? "a folder or git URL" : `"${source}"`} to it instead:\n` +
        addToRunningServer(base, ADMIN_TOKEN_FILE, target)
          .map((l) => `  ${l}`)
          .join("\n"),
    );
  }

  process.stderr.write("Applying D1 migrations ...\n");
  // The catalog and every shard (docs/storage.md, "Shards") get the same migrations.
  for (const binding of localD1Bindings(PROJECT_ROOT)) await runWrangler(["d1", "migrations", "apply", binding, "--local", "--persist-to", PERSIST_DIR]);

  process.stderr.write(`Starting wrangler dev on ${base} (log: ${WRANGLER_LOG_FILE}) ...\n`);
  server = startDevServer({
    port,
    persistTo: PERSIST_DIR,
    logFile: WRANGLER_LOG_FILE,
    vars: { ADMIN_TOKEN: token, ALLOW_LOOPBACK_GIT_URLS: "true" },
    envFile: DEV_VARS_FILE,
    includeProjectDevVars: true,
    testScheduled: true,
  });
  server.child.on("exit", (code) => {
    if (stopping) return;
    ticker?.stop();
    clearServerUrl(base);
    console.error(`\nwrangler dev exited (code ${code}); see ${WRANGLER_LOG_FILE}.`);
    process.exit(1);
  });
  await waitForHealth(base, server, WRANGLER_LOG_FILE);
  recordServerUrl(base);
  ticker = startTicker(base, configuredCrons(), (line) => process.stderr.write(`${line}\n`));

  let repoId: string | undefined;
  if (source !== undefined) {
    const api = createApiClient(base, token);
    const startedAt = Date.now();
    const target = isGitUrl(source) ? source : sourceDir(source);
    const started = await startIndexing(api, { source: target, name: values.name, ref: values.ref }, (line) => process.stderr.write(`${line}\n`));
    repoId = started.id;
    if (started.tracked) {
      process.stderr.write(`${describeTracked(started)}\n`);
      const { failed } = await followTracked(api, repoId, started.tracked);
      for (const f of failed) console.error(`Indexing ${f.name} failed: ${f.error}`);
    }
    const final = await followProgress(api, repoId, process.stderr);
    if (final.status === "failed") {
      console.error(`Indexing failed after ${((Date.now() - startedAt) / 1000).toFixed(1)} s: ${errorText(final)}`);
    } else {
      process.stderr.write(`${renderDone(final, Date.now() - startedAt)}\n`);
    }
  }
  printUsage(repoId);
}

function nextTickText(): string {
  const next = ticker?.next();
  return next ? new Date(next).toISOString().replace(/\.\d+Z$/, "Z") : "none";
}

function printUsage(repoId: string | undefined): void {
  const repoParam = repoId ? `&repo=${encodeURIComponent(repoId)}` : "";
  console.log(`
Codebase Copilot is running on ${base}
  Web search:  ${base}/
  MCP URL:     ${base}/mcp
  REST API:    ${base}/api  (bearer token in ${ADMIN_TOKEN_FILE})
  API docs:    ${base}/api/docs  (OpenAPI 3.1: ${base}/api/openapi.json)
  CLI:         codebase-copilot status  (finds this server through ${SERVER_URL_FILE})
  Schedule:    ${configuredCrons().join(", ") || "no crons"} (UTC; git polling, connection syncs), next tick ${nextTickText()}

Search from a shell:
  curl -s -H "Authorization: Bearer $(cat '${ADMIN_TOKEN_FILE}')" '${base}/api/search?q=where+is+the+main+entry+point${repoParam}&k=5'

Ask a question (grounded answer; needs ANTHROPIC_API_KEY in .dev.vars, see docs/ask.md):
  curl -s -H "Authorization: Bearer $(cat '${ADMIN_TOKEN_FILE}')" -H 'content-type: application/json' ${base}/api/ask -d '{"question": "where is the main entry point?"${repoId ? `, "repo": "${repoId}"` : ""}}'

Connect an MCP client (docs/connect-clients.md): sign in through the browser, e.g.
  claude mcp add --transport http codebase-copilot ${base}/mcp
or give it a search-only token (never the admin token):
  curl -s -X POST -H "Authorization: Bearer $(cat '${ADMIN_TOKEN_FILE}')" -H 'content-type: application/json' \\
    -d '{"name":"my agent","scopes":["search"],"expiresInDays":90}' '${base}/api/tokens'
  claude mcp add --transport http codebase-copilot ${base}/mcp --header "Authorization: Bearer <token from above>"

Press Ctrl-C to stop.`);
}

main().catch(async (err: unknown) => {
  console.error(`error: ${err instanceof Error ? err.message : String(err)}`);
  await shutdown(1);
});
