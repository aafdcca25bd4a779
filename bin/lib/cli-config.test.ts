/** `node --test` (Node 22): where the CLI takes its URL and token from, and the config file's mode. */
import assert from "node:assert/strict";
import { mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { configPath, readStoredConfig, resolveTarget, writeStoredConfig } from "./cli-config.ts";

const stored = { url: "https://copilot.example.com", token: "stored-token" };

test("flags beat the environment, which beats the config file, which beats a local npm start", () => {
  const env = { CODEBASE_COPILOT_URL: "https://env.example.com", CODEBASE_COPILOT_TOKEN: "env-token" };
  assert.deepEqual(resolveTarget({ url: "https://flag.example.com/", token: "flag-token" }, env, stored, { token: "local" }), {
    url: "https://flag.example.com",
    token: "flag-token",
    urlFrom: "flag",
    tokenFrom: "flag",
  });
  assert.deepEqual(resolveTarget({}, env, stored, { token: "local" }), {
    url: "https://env.example.com",
    token: "env-token",
    urlFrom: "env",
    tokenFrom: "env",
  });
  assert.deepEqual(resolveTarget({}, {}, stored, { token: "local" }), {
    url: "https://copilot.example.com",
    token: "stored-token",
    urlFrom: "config",
    tokenFrom: "config",
  });
  assert.deepEqual(resolveTarget({}, {}, {}, { token: "local" }), { url: "http://127.0.0.1:8787", token: "local", urlFrom: "local", tokenFrom: "local" });
  assert.equal(resolveTarget({}, { PORT: "9000" }, {}, { token: "local" }).url, "http://127.0.0.1:9000");
});

test("a token is never sent to a server it was not stored for", () => {
  // Stored token for copilot.example.com, URL from a flag: no token.
  assert.equal(resolveTarget({ url: "https://other.example.com" }, {}, stored, { token: "local" }).token, undefined);
  // The local admin token only goes to the local server.
  assert.equal(resolveTarget({ url: "https://other.example.com" }, {}, {}, { token: "local" }).token, undefined);
});

test("login's config file is written with mode 600 and read back; bad JSON names the file", () => {
  const dir = mkdtempSync(join(tmpdir(), "ccp-cfg-"));
  const path = configPath({ XDG_CONFIG_HOME: dir });
  assert.equal(path, join(dir, "codebase-copilot", "config.json"));
  writeStoredConfig(path, stored);
  assert.equal(statSync(path).mode & 0o777, 0o600);
  assert.deepEqual(readStoredConfig(path), stored);
  assert.deepEqual(readStoredConfig(join(dir, "absent.json")), {});
  writeFileSync(path, "{nope");
  assert.throws(() => readStoredConfig(path), new RegExp(`${path.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} is not valid JSON`));
  assert.equal(configPath({ CODEBASE_COPILOT_CONFIG: "/x/y.json" }), "/x/y.json");
});
