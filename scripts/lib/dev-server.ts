/**
 * @module scripts/lib/dev-server
 *
 * Runs the product for measurements from a clean export of one commit (Node only). `wrangler
 * dev` reloads whenever a watched source file changes, so a server started in a work tree that
 * is being edited measures a moving target; an export of `HEAD` (or any commit) is stable and
 * names exactly what was measured. The export shares the project's `node_modules` by symlink.
 */
import { execFileSync, execSync, spawn, type ChildProcess } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { localD1Bindings } from "../../bin/lib/d1-bindings.ts";
import { writeEnvFile } from "../../bin/lib/wrangler.ts";

/** A TCP port on 127.0.0.1 that is free right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === "object" && addr ? resolve(addr.port) : reject(new Error("no port"))));
    });
  });
}

/** A running `wrangler dev` (own process group). */
export interface DevServer {
  baseUrl: string;
  token: string;
  /** Commit the server runs (full SHA). */
  commit: string;
  /** Pid of the wrangler process; its process group holds workerd. */
  pid: number;
  logFile: string;
  stop(): Promise<void>;
}

/** Options of `startSnapshotServer`. */
export interface SnapshotServerOptions {
  /** The project checkout (its git dir and node_modules are used). */
  projectRoot: string;
  /** Commit-ish to export; default HEAD. */
  commit?: string;
  port: number;
  /** Fresh state folder (deleted contents mean a cold index). */
  persistTo: string;
  /** Where exports go: `<dir>/<sha>`; default /tmp/cc-snapshots. */
  snapshotsDir?: string;
  token: string;
  /** Search rate limit per minute written into the export's wrangler.toml (see `exportSnapshot`). */
  searchLimitPerMinute?: number;
  /** Local shard databases written into the export's wrangler.toml (see `exportSnapshot`); default: as committed. */
  localShards?: number;
  /** Extra variables, written with the admin token to the server's env file. */
  vars?: Record<string, string>;
  /** Secrets for the Worker (e.g. ANTHROPIC_API_KEY), written to the same mode-600 env file, never argv. */
  secrets?: Record<string, string>;
  /** Port of wrangler's inspector proxy (DevTools protocol), e.g. for a CPU profile; default: wrangler picks one. */
  inspectorPort?: number;
  /** Health wait, ms; default 180 s (first start bundles the Worker). */
  healthTimeoutMs?: number;
}

const childEnv = { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false", CI: "1" };

/**
 * Exports `commit` of `projectRoot` to `<snapshotsDir>/<sha>[-limit<N>]` once; returns the
 * folder and SHA. With `searchLimitPerMinute`, the export's wrangler.toml search rate limits
 * (`[[ratelimits]] simple = { limit = ... }`) are set to that number, so a benchmark that sends
 * thousands of searches from one address measures search and not the limiter.
 */
export function exportSnapshot(
  projectRoot: string,
  commit = "HEAD",
  snapshotsDir = "/tmp/cc-snapshots",
  searchLimitPerMinute?: number,
  localShards?: number,
): { dir: string; sha: string } {
  const sha = execFileSync("git", ["rev-parse", `${commit}^{commit}`], { cwd: projectRoot, encoding: "utf8" }).trim();
  const dir = join(snapshotsDir, `${sha}${searchLimitPerMinute ? `-limit${searchLimitPerMinute}` : ""}${localShards ? `-shards${localShards}` : ""}`);
  if (!existsSync(join(dir, "wrangler.toml"))) {
    // Built aside and renamed into place: two servers started at once for the same commit
    // (an eval script starting several) must not both write into one folder.
    const building = `${dir}.building-${process.pid}`;
    rmSync(building, { recursive: true, force: true });
    mkdirSync(building, { recursive: true });
    execSync(`git archive ${sha} | tar -x -C ${JSON.stringify(building)}`, { cwd: projectRoot, stdio: ["ignore", "inherit", "inherit"] });
    symlinkSync(join(projectRoot, "node_modules"), join(building, "node_modules"));
    if (searchLimitPerMinute) {
      const toml = join(building, "wrangler.toml");
      writeFileSync(
        toml,
        readFileSync(toml, "utf8").replace(/simple = \{ limit = \d+, period = 60 \}/g, `simple = { limit = ${searchLimitPerMinute}, period = 60 }`),
      );
    }
    if (localShards) writeLocalShards(join(building, "wrangler.toml"), localShards);
    if (existsSync(dir) && !existsSync(join(dir, "wrangler.toml"))) rmSync(dir, { recursive: true, force: true }); // an interrupted export
    try {
      renameSync(building, dir);
    } catch {
      rmSync(building, { recursive: true, force: true }); // another process put its export there first
    }
  }
  // An export made from a since-removed worktree links to node_modules that are gone: relink.
  const modules = join(dir, "node_modules");
  if (!existsSync(modules)) {
    rmSync(modules, { force: true });
    symlinkSync(join(projectRoot, "node_modules"), modules);
  }
  return { dir, sha };
}

/**
 * Sets the local shards of an exported wrangler.toml to `n` (docs/storage.md, "Shards"):
 * `SHARD_BINDINGS` lists SHARD_0..n-1, and bindings the committed file lacks are added as
 * `[[d1_databases]]` entries (an array of tables may be continued anywhere in a TOML file).
 * Throws on a commit without shards.
 */
function writeLocalShards(toml: string, n: number): void {
  const text = readFileSync(toml, "utf8");
  if (!/^SHARD_BINDINGS = "/m.test(text)) throw new Error(`${toml} has no SHARD_BINDINGS: this commit predates shards`);
  const names = Array.from({ length: n }, (_, i) => `SHARD_${i}`);
  const missing = names.filter((b) => !new RegExp(`^binding = "${b}"$`, "m").test(text));
  const blocks = missing.map(
    (b, i) =>
      `\n[[d1_databases]]\nbinding = "${b}"\ndatabase_name = "codebase-copilot-${b.toLowerCase().replace("_", "-")}"\ndatabase_id = "00000000-0000-0000-0000-${String(900 + i).padStart(12, "0")}"\nmigrations_dir = "migrations"\n`,
  );
  writeFileSync(toml, text.replace(/^SHARD_BINDINGS = "[^"]*"/m, `SHARD_BINDINGS = "${names.join(",")}"`) + blocks.join(""));
}

/** Exports the commit, applies migrations to `persistTo`, starts `wrangler dev` and waits for /api/health. */
export async function startSnapshotServer(o: SnapshotServerOptions): Promise<DevServer> {
  const { dir, sha } = exportSnapshot(o.projectRoot, o.commit, o.snapshotsDir, o.searchLimitPerMinute, o.localShards);
  const wrangler = join(dir, "node_modules", "wrangler", "bin", "wrangler.js");
  // The catalog and the shards of that commit's wrangler.toml (commits before shards have DB only).
  for (const binding of localD1Bindings(dir)) {
    execFileSync(process.execPath, [wrangler, "d1", "migrations", "apply", binding, "--local", "--persist-to", o.persistTo], {
      cwd: dir,
      env: childEnv,
      stdio: "ignore",
    });
  }
  mkdirSync(o.persistTo, { recursive: true });
  // The admin token goes through a mode-600 env file, not argv (where `ps` shows it).
  const envFile = join(o.persistTo, "dev.vars");
  // Secrets (an API key) go the same way, never as --var.
  writeEnvFile(envFile, { ADMIN_TOKEN: o.token, ...o.vars, ...o.secrets });
  const args = [
    "dev",
    "--ip",
    "127.0.0.1",
    "--port",
    String(o.port),
    "--persist-to",
    o.persistTo,
    "--show-interactive-dev-session=false",
    "--env-file",
    envFile,
    ...(o.inspectorPort ? ["--inspector-port", String(o.inspectorPort)] : []),
  ];
  const logFile = join(o.persistTo, "wrangler.log");
  const log = openSync(logFile, "w");
  const child: ChildProcess = spawn(process.execPath, [wrangler, ...args], { cwd: dir, env: childEnv, stdio: ["ignore", log, log], detached: true });
  closeSync(log);
  let exited = false;
  child.on("exit", () => (exited = true));
  const baseUrl = `http://127.0.0.1:${o.port}`;
  const server: DevServer = {
    baseUrl,
    token: o.token,
    commit: sha,
    pid: child.pid!,
    logFile,
    async stop() {
      if (exited) return;
      try {
        process.kill(-child.pid!, "SIGTERM");
      } catch {
        return;
      }
      for (let i = 0; i < 50 && !exited; i++) await new Promise((r) => setTimeout(r, 100));
      if (!exited) {
        try {
          process.kill(-child.pid!, "SIGKILL");
        } catch {
          // Already gone.
        }
      }
    },
  };
  const deadline = Date.now() + (o.healthTimeoutMs ?? 180_000);
  while (Date.now() < deadline) {
    if (exited) throw new Error(`wrangler dev exited; log tail:\n${readFileSync(logFile, "utf8").slice(-3000)}`);
    try {
      const res = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(2000) });
      await res.body?.cancel();
      if (res.ok) return server;
    } catch {
      // Not up yet.
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  await server.stop();
  throw new Error(`wrangler dev did not answer ${baseUrl}/api/health in time; log: ${logFile}`);
}
