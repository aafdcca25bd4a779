/** `node --test` (Node 22): where the CLI takes its URL and token from, and the config file's mode. */
import assert from "node:assert/strict";
import { mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { configPath, readStoredConfig, resolveTarget, writeStoredConfig } from "./cli-config.ts";
import { clearServerUrl, localServer, recordServerUrl, recordedServerUrl } from "./local-server.ts";

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
  const local = { url: "http://127.0.0.1:8787", token: "local" };
  assert.deepEqual(resolveTarget({}, {}, {}, local), { url: "http://127.0.0.1:8787", token: "local", urlFrom: "local", tokenFrom: "local" });
  assert.equal(resolveTarget({}, { PORT: "9000" }, {}, { token: "local" }).url, "http://127.0.0.1:9000");
});

test("the CLI finds an npm start on another port, and the admin token goes only to the server that recorded it", () => {
  const local = { url: "http://127.0.0.1:8881", token: "admin" };
  // npm start -- <dir> --port 8881: the CLI goes there with the admin token, not to 8787.
  assert.deepEqual(resolveTarget({}, {}, {}, local), { url: "http://127.0.0.1:8881", token: "admin", urlFrom: "local", tokenFrom: "local" });
  // CODEBASE_COPILOT_URL naming that same server still gets the token.
  assert.equal(resolveTarget({}, { CODEBASE_COPILOT_URL: "http://127.0.0.1:8881/" }, {}, local).token, "admin");
  // Another instance on the default port, or anywhere else, never gets it.
  assert.equal(resolveTarget({}, { CODEBASE_COPILOT_URL: "http://127.0.0.1:8787" }, {}, local).token, undefined);
  assert.equal(resolveTarget({ url: "http://127.0.0.1:8787" }, {}, {}, local).token, undefined);
  // No recorded server (npm start not running): the default URL, and no admin token for it.
  assert.deepEqual(resolveTarget({}, {}, {}, { token: "admin" }), { url: "http://127.0.0.1:8787", urlFrom: "local" });
});

test("npm start's URL record: mode 600 beside the admin token, read back, removed only by its own server", () => {
  const dir = mkdtempSync(join(tmpdir(), "ccp-local-"));
  const files = { url: join(dir, "state", "server-url"), token: join(dir, "state", "admin-token") };
  assert.deepEqual(localServer(files), { url: undefined, token: undefined });
  recordServerUrl("http://127.0.0.1:8881/", files.url);
  writeFileSync(files.token, "admin\n");
  assert.equal(statSync(files.url).mode & 0o777, 0o600);
  assert.deepEqual(localServer(files), { url: "http://127.0.0.1:8881", token: "admin" });
  clearServerUrl("http://127.0.0.1:9999", files.url);
  assert.equal(recordedServerUrl(files.url), "http://127.0.0.1:8881", "another server's stop leaves the record");
  clearServerUrl("http://127.0.0.1:8881", files.url);
  assert.equal(recordedServerUrl(files.url), undefined);
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
