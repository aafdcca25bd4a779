/**
 * `node --test`: `codebase-copilot suggest-tests <repo> <path> <symbol>` against a loopback
 * stand-in of POST /api/suggest-tests: the request carries the positional arguments and
 * --framework, the output shows facts with path:line and the skeleton, --write writes the
 * skeleton to the test path and refuses to overwrite it; --fill sends fill and prints its outcome.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";

const CLI = join(import.meta.dirname, "..", "codebase-copilot.ts");
const ANSWER = {
  repo: "nav",
  path: "src/d.ts",
  symbol: "applyDiscount",
  framework: "vitest",
  test_path: "test/d.test.ts",
  test_path_exists: false,
  skeleton: 'expect.fail("TODO");\n',
  tests: [{ name: "returns", behaviour: "returns" }],
  facts: [{ kind: "throws", text: "RangeError", path: "src/d.ts", line: 4 }],
  notes: [],
};

const FILL = { filled: false, reason: "names the index lacks", test: null, unresolved: [{ name: "withCoupon", line: 9 }], model: "m", prompt: "p@1" };

const bodies: unknown[] = [];
const server = createServer((req, res) => {
  let raw = "";
  req.on("data", (c: Buffer) => (raw += String(c)));
  req.on("end", () => {
    const body = JSON.parse(raw || "null") as { fill?: boolean } | null;
    bodies.push({ method: req.method, url: req.url, body });
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body?.fill ? { ...ANSWER, fill: FILL } : ANSWER));
  });
});
// An ephemeral loopback port: no clash with other worktrees' fixed ranges.
await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
const port = (server.address() as AddressInfo).port;
const cwd = mkdtempSync(join(tmpdir(), "suggest-tests-cli-"));
after(() => {
  server.close();
  rmSync(cwd, { recursive: true, force: true });
});

function run(...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((ok) => {
    const p = spawn(process.execPath, [CLI, "--url", `http://127.0.0.1:${port}`, "--token", "t", "suggest-tests", ...args], { cwd });
    let out = "";
    let err = "";
    p.stdout.on("data", (c: Buffer) => (out += String(c)));
    p.stderr.on("data", (c: Buffer) => (err += String(c)));
    p.on("close", (code) => ok({ code, out, err }));
  });
}

test("suggest-tests posts repo, path, symbol and framework and prints facts and skeleton", async () => {
  const r = await run("nav", "src/d.ts", "applyDiscount", "--framework", "jest");
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(bodies.at(-1), {
    method: "POST",
    url: "/api/suggest-tests",
    body: { repo: "nav", path: "src/d.ts", symbol: "applyDiscount", framework: "jest" },
  });
  assert.match(r.out, /src\/d\.ts:4 throws: RangeError/);
  assert.match(r.out, /expect\.fail\("TODO"\);/);
});

test("--write writes the skeleton to the test path, and refuses to overwrite it", async () => {
  const first = await run("nav", "src/d.ts", "applyDiscount", "--write");
  assert.equal(first.code, 0, first.err);
  assert.equal(readFileSync(join(cwd, "test/d.test.ts"), "utf8"), ANSWER.skeleton);
  const second = await run("nav", "src/d.ts", "applyDiscount", "--write");
  assert.notEqual(second.code, 0);
  assert.match(second.err, /exists/);
  assert.ok(existsSync(join(cwd, "test/d.test.ts")));
});

test("--fill sends fill: true and prints why the fill was not used, with the unresolved names", async () => {
  const r = await run("nav", "src/d.ts", "applyDiscount", "--fill");
  assert.equal(r.code, 0, r.err);
  assert.deepEqual((bodies.at(-1) as { body: unknown }).body, { repo: "nav", path: "src/d.ts", symbol: "applyDiscount", fill: true });
  assert.match(r.out, /fill: not filled: names the index lacks/);
  assert.match(r.out, /unresolved withCoupon at line 9/);
  assert.match(r.out, /expect\.fail\("TODO"\);/);
});
