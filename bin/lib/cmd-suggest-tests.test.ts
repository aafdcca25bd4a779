/**
 * `node --test`: `codebase-copilot suggest-tests <repo> <path> <symbol>` against a loopback
 * stand-in of POST /api/suggest-tests: the request carries the positional arguments and
 * --framework, the output shows facts with path:line and the skeleton, --write writes the
 * skeleton to the test path and refuses to overwrite it.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
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

const bodies: unknown[] = [];
const server = createServer((req, res) => {
  let raw = "";
  req.on("data", (c: Buffer) => (raw += String(c)));
  req.on("end", () => {
    bodies.push({ method: req.method, url: req.url, body: JSON.parse(raw || "null") as unknown });
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(ANSWER));
  });
});
// A port in this worktree's range (8990-8999), loopback only.
await new Promise<void>((ok) => server.listen(8993, "127.0.0.1", ok));
const cwd = mkdtempSync(join(tmpdir(), "suggest-tests-cli-"));
after(() => {
  server.close();
  rmSync(cwd, { recursive: true, force: true });
});

function run(...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((ok) => {
    const p = spawn(process.execPath, [CLI, "--url", "http://127.0.0.1:8993", "--token", "t", "suggest-tests", ...args], { cwd });
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
