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
  server = createServer((req, res) =>
    middleware(req, res, () => {
      res.statusCode = 404;
      res.end("not found\n");
    }),
  );
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  provide("gitServerUrl", `http://127.0.0.1:${port}`);
  return async () => {
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    if (root) rmSync(root, { recursive: true, force: true });
  };
}
