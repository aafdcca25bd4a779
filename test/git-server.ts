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

const require = createRequire(import.meta.url);

/** The files of the fixture's `main` branch, path -> content. */
export const FIXTURE_FILES: Record<string, string | Uint8Array> = {
  "README.md": "# Fixture\n\nA tiny repository used by the ingestion tests.\n",
  ".gitignore": "ignored-dir/\n*.log\n",
  "src/users.ts": [
    'import { db } from "./db";',
    "",
    "/** Finds a user by id. */",
    "export function getUserById(id: string) {",
    "  return db.users.find((u) => u.id === id);",
    "}",
    "",
    "export function deleteUser(id: string) {",
    "  return db.users.remove(id);",
    "}",
    "",
  ].join("\n"),
  "src/db.ts": "export const db = { users: { find: (f: unknown) => f, remove: (id: string) => id } };\n",
  "lib/invoice.py": [
    "def compute_invoice_total(lines):",
    '    """Sum of line amounts including tax."""',
    "    return sum(l.amount * (1 + l.tax_rate) for l in lines)",
    "",
  ].join("\n"),
  Makefile: "build:\n\tnpm run build\n",
  "ignored-dir/secret-notes.ts": "export const ignoredByGitignore = true;\n",
  "debug.log": "a log file the .gitignore excludes\n",
  "assets/logo.png": new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 1, 0, 0, 0, 0, 0, 0]),
  "data/huge.txt": "this line repeats to make the file larger than the 1 MiB cap\n".repeat(20_000),
  "config/deploy-key.txt": [
    "-----BEGIN OPENSSH PRIVATE KEY-----",
    "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW",
    "QyNTUxOQAAACDcBq0c8m0J7+5k3x1xwA3EXAMPLEKEYNOTREALxxxxxxxxxxxxxxxxxxxx",
    "-----END OPENSSH PRIVATE KEY-----",
    "",
  ].join("\n"),
  "node_modules/left-pad/index.js": "module.exports = function leftPad(s) { return s; };\n",
};

/** The `change` branch: `src/users.ts` gains a function, everything else as on `main`. */
export const CHANGED_USERS_TS = `${FIXTURE_FILES["src/users.ts"]}\nexport function renameUserAccount(id: string, name: string) {\n  return db.users.find((u) => u.id === id && name);\n}\n`;

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
