/**
 * `node --test`: the installed `codebase-copilot` command (package.json "bin") runs on the Node
 * people have. The CLI is TypeScript, which only Node >= 22.18 runs directly; a system Node 20
 * (this machine's /usr/bin/node) must still run it, through the launcher.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { PROJECT_ROOT } from "./lib/paths.ts";

const SYSTEM_NODE = "/usr/bin/node";
const bin = (JSON.parse(readFileSync(join(PROJECT_ROOT, "package.json"), "utf8")) as { bin: Record<string, string> }).bin["codebase-copilot"];

function systemNodeMajor(): number {
  if (!existsSync(SYSTEM_NODE)) return 0;
  return Number(spawnSync(SYSTEM_NODE, ["-p", "process.versions.node.split('.')[0]"], { encoding: "utf8" }).stdout.trim());
}

const major = systemNodeMajor();

test(`the bin entry runs under ${SYSTEM_NODE} (Node ${major || "absent"})`, { skip: major === 0 && `${SYSTEM_NODE} is absent` }, () => {
  const run = (...args: string[]) =>
    spawnSync(SYSTEM_NODE, [join(PROJECT_ROOT, bin), ...args], { encoding: "utf8", env: { ...process.env, CODEBASE_COPILOT_URL: "http://127.0.0.1:9" } });
  const help = run("--help");
  assert.equal(help.status, 0, help.stderr);
  assert.match(help.stdout, /Usage: codebase-copilot/);
  assert.doesNotMatch(help.stderr, /ERR_UNKNOWN_FILE_EXTENSION/);
  // Exit codes pass through the launcher: a missing argument is a usage error (2).
  assert.equal(run("search").status, 2);
});

test("the bin entry is JavaScript, so no Node needs type stripping to start it", () => {
  assert.match(bin, /\.m?js$/);
});
