/**
 * What every `codebase-copilot` command shares: the global options, the usage error, the
 * resolved server and token, output, and option parsers.
 */
import type { Command } from "commander";
import { createApiClient, type ApiClient } from "./api-client.ts";
import { configPath, readStoredConfig, resolveTarget, type Target } from "./cli-config.ts";
import { localServer } from "./local-server.ts";
import { SERVER_URL_FILE } from "./paths.ts";

/** Options every command accepts. */
export interface GlobalOptions {
  url?: string;
  token?: string;
  json?: boolean;
}

/** A usage error found after parsing (a missing token, a bad number): exit 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** The global options merged with the command's own. */
export function globals(cmd: Command): GlobalOptions {
  return cmd.optsWithGlobals<GlobalOptions>();
}

/** Server URL and token for these options (bin/lib/cli-config.ts gives the order). */
export function target(opts: GlobalOptions): Target {
  return resolveTarget(opts, process.env, readStoredConfig(configPath(process.env)), localServer());
}

/** An API client for these options. Throws UsageError when no token applies to the URL. */
export function client(opts: GlobalOptions): ApiClient {
  const t = target(opts);
  if (!t.token) {
    const how =
      t.urlFrom === "local"
        ? `No npm start of this checkout is running (it records its URL in ${SERVER_URL_FILE}); start one, or pass --url and --token.`
        : `Pass --token, set CODEBASE_COPILOT_TOKEN, or run "codebase-copilot login --url ${t.url} --token <token>".`;
    throw new UsageError(`No token for ${t.url}. ${how}`);
  }
  return createApiClient(t.url, t.token);
}

/** Prints `data` as JSON with `--json`, else the human text. */
export function print(opts: GlobalOptions, data: unknown, human: () => string): void {
  console.log(opts.json ? JSON.stringify(data, null, 2) : human());
}

/** A commander parser for a positive integer option named `name`. */
export function positiveInt(name: string): (v: string) => number {
  return (v) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${name} must be a positive integer; got "${v}".`);
    return n;
  };
}

/** A commander parser for a comma-separated list. */
export function list(v: string): string[] {
  return v
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

/** `{repo}` for one id, `{repos}` for several, `{}` for none: the API's two repo fields. */
export function repoFields(ids: string[] | undefined): { repo?: string; repos?: string[] } {
  return ids?.length === 1 ? { repo: ids[0] } : ids?.length ? { repos: ids } : {};
}
