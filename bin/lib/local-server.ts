/**
 * The URL of the server this checkout's `npm start` runs, recorded beside the local admin token
 * (`.codebase-copilot/server-url`, mode 600) so the CLI finds a server started with `--port`,
 * and sends the admin token to that server and no other. `npm start` writes it once the server
 * answers and removes it when it stops.
 */
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { ADMIN_TOKEN_FILE, SERVER_URL_FILE } from "./paths.ts";

/** Records `url` (e.g. `http://127.0.0.1:8881`) in `file` with mode 600 (its folder 700). */
export function recordServerUrl(url: string, file = SERVER_URL_FILE): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${url.replace(/\/+$/, "")}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}

/** The recorded URL, or undefined when none is (no `npm start` running, or it stopped). */
export function recordedServerUrl(file = SERVER_URL_FILE): string | undefined {
  try {
    return readFileSync(file, "utf8").trim().replace(/\/+$/, "") || undefined;
  } catch {
    return undefined;
  }
}

/** Removes the record if it still names `url` (a later `npm start` on another port keeps its own). */
export function clearServerUrl(url: string, file = SERVER_URL_FILE): void {
  if (recordedServerUrl(file) === url.replace(/\/+$/, "")) rmSync(file, { force: true });
}

/** The local server of this checkout: its recorded URL and the admin token, each if present. */
export function localServer(files = { url: SERVER_URL_FILE, token: ADMIN_TOKEN_FILE }): { url?: string; token?: string } {
  let token: string | undefined;
  try {
    token = readFileSync(files.token, "utf8").trim() || undefined;
  } catch {
    token = undefined;
  }
  return { url: recordedServerUrl(files.url), token };
}
