/**
 * Runs wrangler (the project's own copy, on this Node) for migrations and `wrangler dev`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, closeSync, existsSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PROJECT_ROOT } from "./paths.ts";

const WRANGLER_BIN = join(PROJECT_ROOT, "node_modules", "wrangler", "bin", "wrangler.js");
/** How long the first `wrangler dev` start (bundling, workerd boot) may take. */
export const HEALTH_TIMEOUT_MS = 180_000;
const HEALTH_POLL_MS = 500;

// No request.cf download (workers.cloudflare.com): `npm start` must work offline.
const childEnv = { CLOUDFLARE_CF_FETCH_ENABLED: "false", ...process.env, WRANGLER_SEND_METRICS: "false", CI: "1" };

/** Runs `wrangler <args>` to completion; rejects with its output when it fails. */
export function runWrangler(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WRANGLER_BIN, ...args], { cwd: PROJECT_ROOT, env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d));
    child.stderr.on("data", (d: Buffer) => (out += d));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(out) : reject(new Error(`wrangler ${args.slice(0, 3).join(" ")} failed (exit ${code}):\n${out.slice(-4000)}`)),
    );
  });
}

/** A running `wrangler dev` in its own process group. */
export interface DevServer {
  child: ChildProcess;
  /** Stops wrangler and workerd (the whole process group): SIGTERM, then SIGKILL after 5 s. */
  stop(): Promise<void>;
}

/** The project's own `.dev.vars` (the user's local secrets, e.g. GitHub settings), if any. */
export const PROJECT_DEV_VARS = join(PROJECT_ROOT, ".dev.vars");

/** Options of `startDevServer`. */
export interface DevServerOptions {
  port: number;
  persistTo: string;
  logFile: string;
  /**
   * Secrets and variables (e.g. ADMIN_TOKEN), written to `envFile` with mode 600 and read by
   * wrangler from there (`--env-file`): never on the command line, where `ps` shows them to
   * every local user.
   */
  vars: Record<string, string>;
  /** Where to write `vars` (dotenv format); a gitignored path such as .codebase-copilot/dev.vars. */
  envFile: string;
  /** Also load the project's .dev.vars first (its values lose to `vars`). npm start: yes; e2e: no. */
  includeProjectDevVars: boolean;
  /**
   * Serve `GET /__scheduled` (wrangler's `--test-scheduled`), which runs the `scheduled`
   * handler: wrangler dev fires no cron by itself, so npm start's ticker calls it.
   */
  testScheduled?: boolean;
}

/** Writes `vars` as a dotenv file readable by its owner only. Throws on a value with a line break. */
export function writeEnvFile(file: string, vars: Record<string, string>): void {
  const lines = Object.entries(vars).map(([k, v]) => {
    if (!/^[A-Z_][A-Z0-9_]*$/.test(k)) throw new Error(`env name ${k} is not UPPER_SNAKE`);
    if (/[\r\n"$]/.test(v)) throw new Error(`value of ${k} holds a line break, quote or $`);
    return `${k}="${v}"`;
  });
  writeFileSync(file, `${lines.join("\n")}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}

/**
 * Starts `wrangler dev` on 127.0.0.1 detached (own process group) with output to `logFile`.
 * Secrets go through `envFile` (see DevServerOptions.vars). `CLIENT_IP_SOURCE=loopback` is set
 * because wrangler dev listens on loopback only and lets clients choose CF-Connecting-IP
 * (worker/auth/client-address.ts).
 */
export function startDevServer(o: DevServerOptions): DevServer {
  writeEnvFile(o.envFile, { CLIENT_IP_SOURCE: "loopback", ...o.vars });
  const args = ["dev", "--ip", "127.0.0.1", "--port", String(o.port), "--persist-to", o.persistTo, "--show-interactive-dev-session=false"];
  if (o.testScheduled) args.push("--test-scheduled");
  // With --env-file wrangler skips .dev.vars, so name it first when it should count.
  if (o.includeProjectDevVars && existsSync(PROJECT_DEV_VARS)) args.push("--env-file", PROJECT_DEV_VARS);
  args.push("--env-file", o.envFile);
  const log = openSync(o.logFile, "w", 0o600);
  const child = spawn(process.execPath, [WRANGLER_BIN, ...args], { cwd: PROJECT_ROOT, env: childEnv, stdio: ["ignore", log, log], detached: true });
  closeSync(log);
  let exited = child.exitCode !== null;
  child.on("exit", () => (exited = true));
  return {
    child,
    async stop() {
      if (exited || child.pid === undefined) return;
      const group = -child.pid;
      try {
        process.kill(group, "SIGTERM");
      } catch {
        return;
      }
      for (let i = 0; i < 50 && !exited; i++) await new Promise((r) => setTimeout(r, 100));
      if (!exited) {
        try {
          process.kill(group, "SIGKILL");
        } catch {
          /* already gone */
        }
      }
    },
  };
}

/** Whether `GET {base}/api/health` answers 200 now. */
export async function isHealthy(base: string): Promise<boolean> {
  try {
    const res = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(2000) });
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false;
  }
}

/** Waits until `/api/health` answers; throws with the log tail when wrangler exits or time runs out. */
export async function waitForHealth(base: string, server: DevServer, logFile: string): Promise<void> {
  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) throw new Error(`wrangler dev exited (code ${server.child.exitCode}). Log tail:\n${tail(logFile)}`);
    if (await isHealthy(base)) return;
    await new Promise((r) => setTimeout(r, HEALTH_POLL_MS));
  }
  throw new Error(`wrangler dev did not answer ${base}/api/health within ${HEALTH_TIMEOUT_MS / 1000} s. Log tail:\n${tail(logFile)}`);
}

function tail(file: string): string {
  try {
    return readFileSync(file, "utf8").split("\n").slice(-30).join("\n");
  } catch {
    return "(no log)";
  }
}
