/**
 * `node --test`: `codebase-copilot review --repo <id> --diff <file> [--ref <ref>]` against a
 * loopback stand-in of POST /api/review: --ref is sent as `ref` (and only when given), the
 * output names the snapshot the server says it read, and --dry-run prints the same body.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";

const CLI = join(import.meta.dirname, "..", "codebase-copilot.ts");
const DIFF = "--- a/src/d.ts\n+++ b/src/d.ts\n@@ -1 +1 @@\n-export const d = 1;\n+export const d = 2;\n";
const COMMIT = "0123456789abcdef0123456789abcdef01234567";

/** A review answer as the server gives it; `scope.ref` echoes the asked ref (full name). */
function answer(ref: string | undefined) {
  return {
    status: "reviewed",
    reason: null,
    summary: "One constant changed.",
    findings: [{ severity: "low", category: "style", file: "src/d.ts", line: 1, issue: "magic number", suggestion: "name it" }],
    rejectedFindings: [],
    scope: { kind: "diff", files: ["src/d.ts"], ref: ref ? `refs/heads/${ref}` : "refs/heads/main", commit: COMMIT },
    toolCalls: [],
    modelCalls: 1,
    usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: null },
    model: "m",
    prompts: { system: { id: "review-system", version: 1 }, task: { id: "review-task", version: 1 } },
  };
}

const bodies: { url?: string; body: { repo: string; diff: string; ref?: string } }[] = [];
const server = createServer((req, res) => {
  let raw = "";
  req.on("data", (c: Buffer) => (raw += String(c)));
  req.on("end", () => {
    const body = JSON.parse(raw) as { repo: string; diff: string; ref?: string };
    bodies.push({ url: req.url, body });
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer(body.ref)));
  });
});
// An ephemeral loopback port: no clash with other worktrees' fixed ranges.
await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
const port = (server.address() as AddressInfo).port;
const cwd = mkdtempSync(join(tmpdir(), "review-cli-ref-"));
writeFileSync(join(cwd, "change.diff"), DIFF);
after(() => {
  server.close();
  rmSync(cwd, { recursive: true, force: true });
});

function run(...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((ok) => {
    const p = spawn(process.execPath, [CLI, "--url", `http://127.0.0.1:${port}`, "--token", "t", "review", "--repo", "nav", "--diff", "change.diff", ...args], {
      cwd,
    });
    let out = "";
    let err = "";
    p.stdout.on("data", (c: Buffer) => (out += String(c)));
    p.stderr.on("data", (c: Buffer) => (err += String(c)));
    p.on("close", (code) => ok({ code, out, err }));
  });
}

test("review --ref sends ref and prints the snapshot the review read", async () => {
  const r = await run("--ref", "feature");
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(bodies.at(-1), { url: "/api/review", body: { repo: "nav", diff: DIFF, ref: "feature" } });
  assert.match(r.out, /src\/d\.ts:1 {2}\[low\] style/);
  assert.match(r.out, /read at: nav feature@0123456789ab/);
});

test("review without --ref sends no ref (the server reads the default branch)", async () => {
  const r = await run();
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(bodies.at(-1)!.body, { repo: "nav", diff: DIFF });
  assert.match(r.out, /read at: nav main@0123456789ab/);
});

test("review --ref --dry-run prints the body with ref and sends nothing", async () => {
  const sent = bodies.length;
  const r = await run("--ref", "release/2.x", "--dry-run");
  assert.equal(r.code, 0, r.err);
  assert.equal(bodies.length, sent, "nothing sent");
  const body = r.out.split("\n\n").slice(1).join("\n\n").trim();
  assert.deepEqual(JSON.parse(body), { repo: "nav", diff: DIFF, ref: "release/2.x" });
});
