/** `codebase-copilot review` request building: diff sources and the dry-run rendering (node --test). */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { formatDryRun, readDiff, reviewRequest } from "./review-request.ts";

test("readDiff takes a file or git diff base...HEAD, and exactly one of them", () => {
  const dir = mkdtempSync(join(tmpdir(), "review-cli-"));
  const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, encoding: "utf8" });
  git("init", "-q", "-b", "main");
  git("config", "user.email", "t@example.com");
  git("config", "user.name", "t");
  writeFileSync(join(dir, "a.ts"), "one\n");
  git("add", "a.ts");
  git("commit", "-qm", "one");
  git("checkout", "-qb", "feature");
  writeFileSync(join(dir, "a.ts"), "one\ntwo\n");
  git("commit", "-qam", "two");
  const diff = readDiff({ base: "main" }, dir);
  assert.match(diff, /^\+two$/m);
  assert.match(diff, /^@@ -1 \+1,2 @@/m);
  writeFileSync(join(dir, "x.diff"), diff);
  assert.equal(readDiff({ diff: join(dir, "x.diff") }), diff);
  assert.throws(() => readDiff({}), /exactly one of --diff/);
  assert.throws(() => readDiff({ diff: "x", base: "main" }), /exactly one of --diff/);
  assert.throws(() => readDiff({ base: "HEAD" }, dir), /is empty/);
});

test("the dry run prints the exact body that would be sent, with the token redacted", () => {
  const req = reviewRequest("http://127.0.0.1:8787/", "secret-token", "hono", "--- a/x\n+++ b/x\n");
  const out = formatDryRun(req);
  assert.equal(out.split("\n")[0], "POST http://127.0.0.1:8787/api/review");
  assert.ok(out.includes("authorization: Bearer <redacted>"));
  assert.ok(!out.includes("secret-token"));
  assert.equal(out.split("\n\n").slice(1).join("\n\n"), req.body);
  assert.deepEqual(JSON.parse(req.body), { repo: "hono", diff: "--- a/x\n+++ b/x\n" });
});
