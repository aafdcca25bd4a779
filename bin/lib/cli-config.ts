/**
 * Where the `codebase-copilot` CLI finds its server and token. In order, the first that gives a
 * value wins, separately for the URL and the token:
 *   1. flags `--url`, `--token`;
 *   2. the environment: `CODEBASE_COPILOT_URL`, `CODEBASE_COPILOT_TOKEN`;
 *   3. the config file written by `codebase-copilot login` (mode 600):
 *      `$CODEBASE_COPILOT_CONFIG`, else `$XDG_CONFIG_HOME/codebase-copilot/config.json`,
 *      else `~/.config/codebase-copilot/config.json`;
 *   4. a local `npm start` of this checkout: the URL it recorded in `.codebase-copilot/server-url`
 *      (bin/lib/local-server.ts; else `http://127.0.0.1:8787`, or `$PORT`) and the admin token in
 *      `.codebase-copilot/admin-token`.
 * The local admin token is sent only to the URL that `npm start` recorded, whichever of the
 * four gave the URL: never to another server, nor to a default port it was not started on.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

/** Contents of the config file. */
export interface StoredConfig {
  url?: string;
  token?: string;
}

/** A resolved target and where each half came from (for `codebase-copilot whoami`-style output). */
export interface Target {
  url: string;
  token?: string;
  urlFrom: "flag" | "env" | "config" | "local";
  tokenFrom?: "flag" | "env" | "config" | "local";
}

/** Default local server of `npm start`. */
export const LOCAL_URL = "http://127.0.0.1:8787";

/** Path of the config file for an environment (`process.env`). */
export function configPath(env: NodeJS.ProcessEnv): string {
  if (env.CODEBASE_COPILOT_CONFIG) return env.CODEBASE_COPILOT_CONFIG;
  const base = env.XDG_CONFIG_HOME || join(homedir(), ".config");
  return join(base, "codebase-copilot", "config.json");
}

/**
 * Reads the config file; `{}` when absent.
 * @throws Error naming the file when it is not a JSON object.
 */
export function readStoredConfig(path: string): StoredConfig {
  if (!existsSync(path)) return {};
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    throw new Error(`${path} is not valid JSON; fix it or run "codebase-copilot login" again.`);
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) throw new Error(`${path} must hold a JSON object {"url", "token"}.`);
  const { url, token } = data as Record<string, unknown>;
  return { ...(typeof url === "string" ? { url } : {}), ...(typeof token === "string" ? { token } : {}) };
}

/** Writes the config file with mode 600 (its folder 700), replacing what was there. */
export function writeStoredConfig(path: string, config: StoredConfig): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
}

/**
 * Resolves URL and token by the order in this file's header. Pure given its inputs.
 * `local` is this checkout's `npm start` (bin/lib/local-server.ts `localServer()`): the URL it
 * recorded, if running, and its admin token. A stored token goes only to the URL it was stored
 * with, and the local admin token only to the URL `npm start` recorded, so no token is ever
 * sent to a server it was not made for.
 */
export function resolveTarget(
  flags: { url?: string; token?: string },
  env: NodeJS.ProcessEnv,
  stored: StoredConfig,
  local: { url?: string; token?: string },
): Target {
  const localUrl = local.url ?? (env.PORT ? `http://127.0.0.1:${env.PORT}` : LOCAL_URL);
  const [url, urlFrom] = flags.url
    ? [flags.url, "flag" as const]
    : env.CODEBASE_COPILOT_URL
      ? [env.CODEBASE_COPILOT_URL, "env" as const]
      : stored.url
        ? [stored.url, "config" as const]
        : [localUrl, "local" as const];
  const normalized = url.replace(/\/+$/, "");
  if (flags.token) return { url: normalized, token: flags.token, urlFrom, tokenFrom: "flag" };
  if (env.CODEBASE_COPILOT_TOKEN) return { url: normalized, token: env.CODEBASE_COPILOT_TOKEN, urlFrom, tokenFrom: "env" };
  if (stored.token && (!stored.url || stored.url.replace(/\/+$/, "") === normalized))
    return { url: normalized, token: stored.token, urlFrom, tokenFrom: "config" };
  if (local.token && local.url && normalized === local.url.replace(/\/+$/, "")) return { url: normalized, token: local.token, urlFrom, tokenFrom: "local" };
  return { url: normalized, urlFrom };
}
