/**
 * Runs wrangler (the project's own copy, on this Node) for migrations and `wrangler dev`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
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
    child.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(`wrangler ${args.slice(0, 3).join(" ")} failed (exit ${code}):\n${out.slice(-4000)}`))));
  });
}

/** A running `wrangler dev` in its own process group. */
export interface DevServer {
  child: ChildProcess;
  /** Stops wrangler and workerd (the whole process group): SIGTERM, then SIGKILL after 5 s. */
  stop(): Promise<void>;
}

/**
 * Starts `wrangler dev` detached (own process group) with output to `logFile`.
 * `vars` become `--var KEY:VALUE` bindings.
 */
export function startDevServer(o: { port: number; persistTo: string; logFile: string; vars: Record<string, string> }): DevServer {
  const args = ["dev", "--ip", "127.0.0.1", "--port", String(o.port), "--persist-to", o.persistTo, "--show-interactive-dev-session=false"];
  for (const [k, v] of Object.entries(o.vars)) args.push("--var", `${k}:${v}`);
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
