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
 * - `history.git`: a file renamed, changed on a side branch and merged (test/history-fixture.ts).
 *
 * Control routes (for tests that need an upstream that changes, asks for credentials, or hangs):
 * - `POST /_control/repos {name, from?, auth?}` makes `<name>.git` a copy of `<from>.git`
 *   (default `fixture`); `auth` is `{username, password}` (HTTP basic) or `{bearer}`, and then
 *   every git request without those credentials gets 401.
 * - `POST /_control/repos/<name>/commit {branch?, files, message?}` commits `files` (path ->
 *   text) on `branch` (default `main`), as a push would; answers `{commit}`.
 * - `POST /_control/repos/<name>/refs {set?: {ref: rev}, delete?: [ref]}` creates or moves refs
 *   (`refs/tags/v2.0` -> `main`) and deletes refs, as a push of new tags or a branch deletion would.
 * - `POST /_control/repos/<name>/hold {only?: "upload-pack"}` makes git requests for it (or only
 *   its pack fetches) wait until `.../release`.
 * - `POST /_control/repos/<name>/auth {auth?}` changes (or drops) the credentials it asks for,
 *   as revoking a token does.
 * - `GET /_control/repos/<name>/log` lists the git requests it served (`{path, kind}`), so a
 *   test can tell an ls-remote (`info/refs` only) from a fetch (`upload-pack`).
 * Hostile routes for the outbound guard's tests (indexer/source/git-guard.test.ts):
 * - `/redirect/<url-encoded base>/<rest>`: 302 to `<base>/<rest>` with the same query, so a
 *   client that appends `/info/refs?service=...` is redirected to the same suffix on `<base>`;
 * - `/slow/<ms>/...`: answers 200 after `<ms>` milliseconds;
 * - `/huge/...`: streams 4 MiB of `f` bytes as a 200 (pkt-lines of 65,535 bytes, never ending early);
 * - `/cut/<name>.git/...`: serves `<name>.git`, but a pack fetch (`git-upload-pack`) has its
 *   connection destroyed after CUT_AFTER_BYTES of the answer, as a dropped link does mid-pack.
 *
 * The folder lives under `.wrangler/` in the project (gitignored) because git-http-mock-server
 * looks fixtures up from the folder upwards and stops at the working directory.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, ServerResponse, type IncomingMessage, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";

import { closeServer } from "./close-server.ts";
import { buildHistoryRepo } from "./history-fixture.ts";
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

type RepoAuth = { username: string; password: string } | { bearer: string };
interface RepoControl {
  auth?: RepoAuth;
  /** Held requests, when holding: all git requests, or only the pack fetches (`upload-pack`). */
  held: { only: "upload-pack" | null; queue: (() => void)[] } | null;
  /** Served git requests: `info/refs` (an ls-remote, or the first step of a fetch) or `upload-pack` (a fetch). */
  log: { path: string; kind: "info/refs" | "upload-pack" | "other" }[];
}
const controls = new Map<string, RepoControl>();
let commitCounter = 0;

function controlOf(name: string): RepoControl {
  let c = controls.get(name);
  if (!c) controls.set(name, (c = { held: null, log: [] }));
  return c;
}

function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    let text = "";
    req.on("data", (d) => (text += d));
    req.on("end", () => {
      try {
        resolve(text ? JSON.parse(text) : {});
      } catch (err) {
        reject(err);
      }
    });
  });
}

function authorized(auth: RepoAuth | undefined, header: string | undefined): boolean {
  if (!auth) return true;
  if ("bearer" in auth) return header === `Bearer ${auth.bearer}`;
  return header === `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString("base64")}`;
}

/** Commits `files` on `branch` of the bare repo `<name>.git`, as a push would. */
function commitTo(fixtures: string, name: string, branch: string, files: Record<string, string>, message: string): string {
  const work = join(fixtures, `.work-${name}-${++commitCounter}`);
  git(fixtures, "clone", "-q", "-b", branch, join(fixtures, `${name}.git`), work);
  writeFiles(work, files);
  git(work, "add", "-A", "-f");
  // A distinct date per commit, so that equal trees still give distinct commits.
  execFileSync("git", ["commit", "-q", "-m", message], {
    cwd: work,
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "Fixture",
      GIT_AUTHOR_EMAIL: "fixture@example.com",
      GIT_COMMITTER_NAME: "Fixture",
      GIT_COMMITTER_EMAIL: "fixture@example.com",
      GIT_AUTHOR_DATE: `2024-02-01T00:00:${String(commitCounter % 60).padStart(2, "0")}Z`,
      GIT_COMMITTER_DATE: `2024-02-01T00:00:${String(commitCounter % 60).padStart(2, "0")}Z`,
    },
  });
  git(work, "push", "-q", "origin", branch);
  const commit = git(work, "rev-parse", "HEAD").trim();
  rmSync(work, { recursive: true, force: true });
  return commit;
}

async function handleControl(fixtures: string, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  const send = (status: number, body: unknown) => {
    res.statusCode = status;
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(body));
  };
  const m = /^\/_control\/repos(?:\/([\w.-]+)\/(commit|hold|release|log|auth|refs))?$/.exec(path);
  if (!m) return send(404, { error: "no such control route" });
  const [, name, action] = m;
  if (!name && req.method === "POST") {
    const body = (await readJson(req)) as { name: string; from?: string; auth?: RepoAuth };
    if (!/^[\w.-]+$/.test(body.name)) return send(400, { error: "bad name" });
    rmSync(join(fixtures, `${body.name}.git`), { recursive: true, force: true });
    git(fixtures, "clone", "-q", "--bare", join(fixtures, `${body.from ?? "fixture"}.git`), join(fixtures, `${body.name}.git`));
    controls.set(body.name, { auth: body.auth, held: null, log: [] });
    return send(200, { name: body.name, head: git(join(fixtures, `${body.name}.git`), "rev-parse", "HEAD").trim() });
  }
  const c = controlOf(name!);
  if (action === "commit" && req.method === "POST") {
    const body = (await readJson(req)) as { branch?: string; files: Record<string, string>; message?: string };
    return send(200, { commit: commitTo(fixtures, name!, body.branch ?? "main", body.files, body.message ?? "change") });
  }
  if (action === "refs" && req.method === "POST") {
    const body = (await readJson(req)) as { set?: Record<string, string>; delete?: string[] };
    const bare = join(fixtures, `${name}.git`);
    for (const [ref, rev] of Object.entries(body.set ?? {})) git(bare, "update-ref", ref, git(bare, "rev-parse", `${rev}^{commit}`).trim());
    for (const ref of body.delete ?? []) git(bare, "update-ref", "-d", ref);
    return send(200, { refs: git(bare, "for-each-ref", "--format=%(refname) %(objectname)").trim().split("\n") });
  }
  if (action === "hold" && req.method === "POST") {
    const body = (await readJson(req)) as { only?: "upload-pack" };
    c.held ??= { only: body.only ?? null, queue: [] };
    return send(200, { held: true });
  }
  if (action === "release" && req.method === "POST") {
    const waiting = c.held?.queue ?? [];
    c.held = null;
    for (const go of waiting) go();
    return send(200, { released: waiting.length });
  }
  if (action === "log" && req.method === "GET") return send(200, { requests: c.log });
  if (action === "auth" && req.method === "POST") {
    c.auth = ((await readJson(req)) as { auth?: RepoAuth }).auth;
    return send(200, { auth: !!c.auth });
  }
  return send(405, { error: "method not allowed" });
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

/** Bytes of a `/cut/` pack answer sent before the connection is destroyed (past the NAK, inside the pack). */
const CUT_AFTER_BYTES = 200;

/** Makes `res` destroy its connection once `limit` body bytes were written. */
function cutAfter(res: ServerResponse, limit: number): void {
  let sent = 0;
  const write = res.write.bind(res) as (chunk: Buffer) => boolean;
  res.write = ((chunk: string | Uint8Array) => {
    const buf = Buffer.from(chunk);
    if (sent + buf.length <= limit) {
      sent += buf.length;
      return write(buf);
    }
    const head = buf.subarray(0, limit - sent);
    sent = limit;
    // Destroyed once the answer's head and first bytes are flushed: destroying at once could drop
    // them under load, and the client would see no answer rather than one cut mid-pack.
    (write as (c: Buffer, cb: () => void) => boolean)(head, () => res.socket?.destroy());
    return false;
  }) as typeof res.write;
  res.end = ((...args: unknown[]) => {
    if (sent >= limit) return res;
    return ServerResponse.prototype.end.apply(res, args as Parameters<ServerResponse["end"]>);
  }) as typeof res.end;
}

let server: Server | undefined;
let root: string | undefined;

/** Vitest globalSetup: build fixtures, start the server, provide its URL. */
/**
 * A control call from a Node script (the e2e tests) to this server's `/_control` routes: POSTs
 * `body` as JSON and returns the JSON answer. Throws unless the server answers 200.
 */
export async function gitControl(gitUrl: string, path: string, body: unknown): Promise<Record<string, string>> {
  const res = await fetch(`${gitUrl}/_control${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  if (res.status !== 200) throw new Error(`POST /_control${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as Record<string, string>;
}

export default async function setup({ provide }: { provide: (key: "gitServerUrl", value: string) => void }): Promise<() => Promise<void>> {
  root = join(process.cwd(), ".wrangler", "git-fixtures", String(process.pid));
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  buildFixture(root);
  buildHistoryRepo(join(root, "history-work"));
  git(root, "clone", "-q", "--bare", join(root, "history-work"), join(root, "history.git"));
  rmSync(join(root, "history-work"), { recursive: true, force: true });
  const factory = require("git-http-mock-server/middleware") as (config: {
    root: string;
    glob: string;
    route: string;
  }) => (req: unknown, res: unknown, next?: () => void) => void;
  const middleware = factory({ root, glob: "*", route: "/" });
  const fixtures = root;
  server = createServer((req, res) => {
    if (hostile(req.url ?? "/", res)) return;
    if (req.url?.startsWith("/cut/")) {
      req.url = req.url.slice("/cut".length);
      if (req.url.includes("/git-upload-pack")) cutAfter(res, CUT_AFTER_BYTES);
    }
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname.startsWith("/_control/")) {
      handleControl(fixtures, req, res, url.pathname).catch((err) => {
        res.statusCode = 500;
        res.end(String(err));
      });
      return;
    }
    const name = /^\/([\w.-]+)\.git\//.exec(url.pathname)?.[1];
    const c = name ? controls.get(name) : undefined;
    const serve = () => {
      // A held request whose client went away (a test aborted its Durable Objects) is not
      // served: the middleware pipes the request into a spawned `git upload-pack`, which would
      // wait for the rest of a body that never comes and keep the test process from exiting.
      if (req.destroyed || res.destroyed) return;
      middleware(req, res, () => {
        res.statusCode = 404;
        res.end("not found\n");
      });
    };
    if (!c) return serve();
    if (!authorized(c.auth, req.headers.authorization)) {
      res.statusCode = 401;
      res.setHeader("www-authenticate", 'Basic realm="fixture"');
      res.end("credentials required\n");
      return;
    }
    const kind = url.pathname.endsWith("/info/refs") ? "info/refs" : url.pathname.endsWith("/git-upload-pack") ? "upload-pack" : "other";
    c.log.push({ path: url.pathname, kind });
    if (c.held && (c.held.only === null || c.held.only === kind)) c.held.queue.push(serve);
    else serve();
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  provide("gitServerUrl", `http://127.0.0.1:${port}`);
  return async () => {
    await closeServer(server);
    if (root) rmSync(root, { recursive: true, force: true });
  };
}
