/**
 * Where `npm start` keeps its local state: `<project>/.codebase-copilot/` (gitignored).
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The project root (the folder holding package.json and wrangler.toml). */
export const PROJECT_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
/** Local state folder: admin token, wrangler's persisted D1/DO/Queue state, the wrangler log. */
export const STATE_DIR = join(PROJECT_ROOT, ".codebase-copilot");
/** The local admin token (mode 600). */
export const ADMIN_TOKEN_FILE = join(STATE_DIR, "admin-token");
/** The URL of the running `npm start` (mode 600), so the CLI finds it (bin/lib/local-server.ts). */
export const SERVER_URL_FILE = join(STATE_DIR, "server-url");
/** Secrets handed to wrangler dev (`--env-file`, mode 600): the admin token. */
export const DEV_VARS_FILE = join(STATE_DIR, "dev.vars");
/** wrangler's `--persist-to` folder. */
export const PERSIST_DIR = join(STATE_DIR, "state");
/** wrangler dev's output, kept out of the terminal so the progress bar stays readable. */
export const WRANGLER_LOG_FILE = join(STATE_DIR, "wrangler.log");

/**
 * The folder paths on the command line are relative to. `npm run cli` and `npm start` run from
 * the project root, so npm's INIT_CWD (the folder the user ran npm in) is that folder under
 * exactly those two scripts of this package; otherwise it is the process's working folder. A
 * user's own script calling `codebase-copilot`, and a process that only inherits npm's variables
 * (`npm test`, `npx`), run where they say.
 */
export function callerCwd(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string {
  const ownScript = env.npm_package_name === "codebase-copilot" && (env.npm_lifecycle_event === "cli" || env.npm_lifecycle_event === "start");
  return ownScript && env.INIT_CWD ? env.INIT_CWD : cwd;
}
