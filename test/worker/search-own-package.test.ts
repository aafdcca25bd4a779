/**
 * A library indexed as its own repo recognises its installed frames: archives go through the
 * real upload, queue, chunker and activation (which reads the package names from the
 * manifests into D1 `snapshot_packages`), then a report with an express-style trace through
 * `node_modules/<name>/` is searched over REST.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../helpers";
import { indexDb, uploadFilesAndWait } from "./ingest-helpers";

async function topFiles(repo: string, query: string): Promise<string[]> {
  const res = await api("/api/search", { method: "POST", json: { query, repo, k: 5 } });
  expect(res.status).toBe(200);
  return [...new Set(((await res.json()) as { results: { path: string }[] }).results.map((r) => r.path))];
}

const packagesOf = async (repo: string) =>
  (
    await (
      await indexDb(repo)
    )
      .prepare(
        "SELECT p.name, p.folder FROM snapshot_packages p JOIN repos r ON r.id = p.repo AND r.active_commit = p.commit_sha WHERE p.repo = ? ORDER BY p.name",
      )
      .bind(repo)
      .all<{ name: string; folder: string }>()
  ).results;

/** `lib/response.js`: `res.sendFile` on lines 3-10 (the trace's line 7 is its throw), its only chunk. */
const RESPONSE_JS = [
  "'use strict';",
  "",
  "res.sendFile = function sendFile(file, options, callback) {",
  "  var opts = options || {};",
  "  var done = callback;",
  "  if (!opts.root && !isAbsolute(file)) {",
  "    throw new TypeError(describeRule(file));",
  "  }",
  "  sendStream(this, file, opts, done);",
  "};",
  "",
].join("\n");

/** A helper whose words match the report's message better than `res.sendFile` does. */
const UTILS_JS = [
  "'use strict';",
  "",
  "/** The message when a path must be absolute or the caller must specify root: res.sendFile and res.download. */",
  "exports.describeRule = function describeRule(path) {",
  "  return 'path must be absolute or specify root to res.sendFile: ' + path + ' (an absolute path, or a root to resolve it against)';",
  "};",
  "",
  "/** Whether a path is absolute, so sendFile and download need no root to specify. */",
  "exports.isAbsolute = function isAbsolute(path) {",
  "  return path[0] === '/' || /^[a-zA-Z]:[\\\\/]/.test(path);",
  "};",
  "",
  "/** Resolves a relative path against the root, or rejects it with the message of describeRule. */",
  "exports.resolveRoot = function resolveRoot(path, root) {",
  "  if (!root && !exports.isAbsolute(path)) throw new TypeError(exports.describeRule(path));",
  "  return root ? root + '/' + path : path;",
  "};",
  "",
].join("\n");

const LIBRARY = {
  "lib/response.js": RESPONSE_JS,
  "lib/utils.js": UTILS_JS,
  "lib/application.js":
    "'use strict';\n\nvar app = exports = module.exports = {};\n\napp.render = function render(name, options, callback) {\n  return this.view(name).render(options, callback);\n};\n",
  "README.md": "# a web framework\n\nRouting, views and responses for HTTP servers.\n",
};

/** A report whose message matches `lib/utils.js` most and whose trace surfaces in `res.sendFile` (`lib/response.js:7`). */
const REPORT = [
  "`resolveRoot()` rejects a relative path: `isAbsolute()` says no and `describeRule()` builds a confusing message",
  "TypeError: path must be absolute or specify root to res.sendFile",
  "    at ServerResponse.sendFile (/srv/api/node_modules/express/lib/response.js:7:11)",
  "    at /srv/api/server.js:21:7",
  "    at Layer.handleRequest (/srv/api/node_modules/router/lib/layer.js:152:17)",
  "    at next (/srv/api/node_modules/router/lib/route.js:157:13)",
].join("\n");

beforeAll(async () => {
  await uploadFilesAndWait("own-express", { ...LIBRARY, "package.json": JSON.stringify({ name: "express", version: "5.0.0", main: "index.js" }) });
  await uploadFilesAndWait("own-other", { ...LIBRARY, "package.json": JSON.stringify({ name: "not-express", version: "1.0.0" }) });
  await uploadFilesAndWait("own-broken", { ...LIBRARY, "package.json": '{ "name": "express", "version": ' });
  await uploadFilesAndWait("own-mono", {
    "package.json": JSON.stringify({ name: "acme-monorepo", private: true, workspaces: ["packages/*"] }),
    "packages/server/package.json": JSON.stringify({ name: "@acme/server" }),
    "packages/client/package.json": JSON.stringify({ name: "@acme/client" }),
    "packages/server/lib/response.js": RESPONSE_JS,
    "packages/server/lib/utils.js": UTILS_JS,
    "packages/client/lib/response.js": RESPONSE_JS.replace("res.sendFile", "req.sendFile"),
  });
});

describe("a report whose trace runs through node_modules/<name>/", () => {
  it("ranks the library's own file first when its package.json names that package", async () => {
    expect(await packagesOf("own-express")).toEqual([{ name: "express", folder: "" }]);
    expect((await topFiles("own-express", REPORT))[0]).toBe("lib/response.js");
  });

  it("keeps the installed-package rule when the repo's package.json names another package", async () => {
    expect(await packagesOf("own-other")).toEqual([{ name: "not-express", folder: "" }]);
    expect((await topFiles("own-other", REPORT))[0]).toBe("lib/utils.js");
  });

  it("indexes a repo whose package.json is malformed, reading no package from it", async () => {
    expect(await packagesOf("own-broken")).toEqual([]);
    expect((await topFiles("own-broken", REPORT))[0]).toBe("lib/utils.js");
  });

  it("maps a workspace member's scoped name to its folder", async () => {
    expect(await packagesOf("own-mono")).toEqual([
      { name: "@acme/client", folder: "packages/client" },
      { name: "@acme/server", folder: "packages/server" },
      { name: "acme-monorepo", folder: "" },
    ]);
    const scoped = REPORT.replace("node_modules/express/lib/response.js", "node_modules/@acme/server/lib/response.js");
    expect((await topFiles("own-mono", scoped))[0]).toBe("packages/server/lib/response.js");
    expect((await topFiles("own-mono", REPORT))[0]).not.toBe("packages/server/lib/response.js");
  });

  it("replaces the packages with the next snapshot's, and searching several repos keeps each repo's own", async () => {
    await uploadFilesAndWait("own-renamed", { ...LIBRARY, "package.json": JSON.stringify({ name: "express" }) });
    expect(await packagesOf("own-renamed")).toEqual([{ name: "express", folder: "" }]);
    await uploadFilesAndWait("own-renamed", { ...LIBRARY, "package.json": JSON.stringify({ name: "@scope/express" }) });
    expect(await packagesOf("own-renamed")).toEqual([{ name: "@scope/express", folder: "" }]);
    const rows = await (await indexDb("own-renamed")).prepare("SELECT count(*) AS n FROM snapshot_packages WHERE repo = 'own-renamed'").first<{ n: number }>();
    expect(rows?.n).toBe(1);
    const res = await api("/api/search", { method: "POST", json: { query: REPORT, repos: ["own-other", "own-express"], k: 5 } });
    const results = ((await res.json()) as { results: { repo: string; path: string }[] }).results;
    expect(results[0]).toMatchObject({ repo: "own-express", path: "lib/response.js" });
    expect(results.find((r) => r.repo === "own-other")?.path).toBe("lib/utils.js");
  });

  it("deletes a repo's packages with the repo", async () => {
    await uploadFilesAndWait("own-deleted", { ...LIBRARY, "package.json": JSON.stringify({ name: "express" }) });
    expect((await api("/api/repos/own-deleted", { method: "DELETE" })).status).toBe(200);
    const rows = await (await indexDb("own-deleted")).prepare("SELECT count(*) AS n FROM snapshot_packages WHERE repo = 'own-deleted'").first<{ n: number }>();
    expect(rows?.n).toBe(0);
  });
});
