/**
 * Vitest `globalSetup` (runs in Node, not workerd): builds fixture git repositories with the git
 * CLI in a temporary folder and serves them over smart HTTP on loopback with
 * git-http-mock-server (which runs the real `git http-backend`). Tests read the base URL with
 * `inject("gitServerUrl")`; repositories are at `${url}/<name>.git`.
 *
 * Fixtures:
 * - `fixture.git`: branch `main` (a small multi-language repo plus files every filter must
 *   skip: ignored, binary, oversized, private key, vendored, symlink), branch `change` (one file
 *   changed on top of `main`), tag `v1` (= main).
 *
 * Hostile routes for the outbound guard's tests (indexer/source/git-guard.test.ts):
 * - `/redirect/<url-encoded base>/<rest>`: 302 to `<base>/<rest>` with the same query, so a
 *   client that appends `/info/refs?service=...` is redirected to the same suffix on `<base>`;
 * - `/slow/<ms>/...`: answers 200 after `<ms>` milliseconds;
 * - `/huge/...`: streams 4 MiB of `f` bytes as a 200 (pkt-lines of 65,535 bytes, never ending early).
 *
 * The folder lives under `.wrangler/` in the project (gitignored) because git-http-mock-server
 * looks fixtures up from the folder upwards and stops at the working directory.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";

import { CHANGED_USERS_TS, FIXTURE_FILES } from "./worker/ingest-fixture.ts";

const require = createRequire(import.meta.url);

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "Fixture",
      GIT_AUTHOR_EMAIL: "fixture@example.com",
      GIT_COMMITTER_NAME: "Fixture",
      GIT_COMMITTER_EMAIL: "fixture@example.com",
      GIT_AUTHOR_DATE: "2024-01-01T00:00:00Z",
      GIT_COMMITTER_DATE: "2024-01-01T00:00:00Z",
    },
  });
}

function writeFiles(root: string, files: Record<string, string | Uint8Array>): void {
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
}

/** Builds `fixture.git` (bare) in `root`. */
function buildFixture(root: string): void {
  const work = join(root, "work");
  mkdirSync(work, { recursive: true });
  git(work, "init", "-q", "-b", "main");
  writeFiles(work, FIXTURE_FILES);
  symlinkSync("src/users.ts", join(work, "users-link.ts"));
  git(work, "add", "-A", "-f");
  git(work, "commit", "-q", "-m", "initial");
  git(work, "tag", "v1");
  git(work, "checkout", "-q", "-b", "change");
  writeFiles(work, { "src/users.ts": CHANGED_USERS_TS });
  git(work, "commit", "-q", "-am", "add renameUserAccount");
  git(work, "checkout", "-q", "main");
  git(root, "clone", "-q", "--bare", work, join(root, "fixture.git"));
  rmSync(work, { recursive: true, force: true });
}

/** Serves the hostile routes (see the module note); false for every other path. */
function hostile(rawUrl: string, res: import("node:http").ServerResponse): boolean {
  const url = new URL(rawUrl, "http://x");
  const redirect = /^\/redirect\/([^/]+)(\/.*)?$/.exec(url.pathname);
  if (redirect) {
    res.writeHead(302, { location: `${decodeURIComponent(redirect[1])}${redirect[2] ?? ""}${url.search}` });
    res.end();
    return true;
  }
  const slow = /^\/slow\/(\d+)\//.exec(url.pathname);
  if (slow) {
    setTimeout(() => res.writeHead(200, { "content-type": "text/plain" }).end("late\n"), Number(slow[1])).unref();
    return true;
  }
  if (url.pathname.startsWith("/huge/")) {
    res.writeHead(200, { "content-type": "application/x-git-upload-pack-advertisement" });
    const block = Buffer.alloc(64 * 1024, 0x66);
    let sent = 0;
    const write = () => {
      while (sent < 64) {
        sent++;
        if (!res.write(block)) return void res.once("drain", write);
      }
      res.end();
    };
    write();
    return true;
  }
  return false;
}

let server: Server | undefined;
let root: string | undefined;

/** Vitest globalSetup: build fixtures, start the server, provide its URL. */
export default async function setup({ provide }: { provide: (key: "gitServerUrl", value: string) => void }): Promise<() => Promise<void>> {
  root = join(process.cwd(), ".wrangler", "git-fixtures", String(process.pid));
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  buildFixture(root);
  const factory = require("git-http-mock-server/middleware") as (config: { root: string; glob: string; route: string }) => (req: unknown, res: unknown, next?: () => void) => void;
  const middleware = factory({ root, glob: "*", route: "/" });
  server = createServer((req, res) => {
    if (hostile(req.url ?? "/", res)) return;
    middleware(req, res, () => {
      res.statusCode = 404;
      res.end("not found\n");
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  provide("gitServerUrl", `http://127.0.0.1:${port}`);
  return async () => {
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    if (root) rmSync(root, { recursive: true, force: true });
  };
}
