/**
 * `node --test`: the CLI's option mapping and exit codes: search's REST options and
 * `--min-confidence`, grep's pattern as grep takes it, token expiry, and exit codes that tell
 * "nothing found" from an error.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { UsageError } from "./cli-common.ts";
import { DEFAULT_TOKEN_DAYS, parseExpires } from "./cmd-tokens.ts";
import { EXIT, exitCodeForStatus } from "./exit-codes.ts";
import { formatSearch, readAt } from "./cli-format.ts";
import { grepPattern } from "./grep-options.ts";
import { sourceProblem } from "./index-source.ts";
import { PROJECT_ROOT } from "./paths.ts";
import { meetsConfidence, searchRequest } from "./search-options.ts";

test("search sends REST's names: mode, language, path_prefix (a glob), include_tests, explain, repo or repos", () => {
  assert.deepEqual(
    searchRequest("where are cookies signed", {
      repo: ["hono"],
      k: 5,
      mode: "bm25",
      language: "typescript",
      pathPrefix: "src/**/*.ts",
      includeTests: false,
      explain: true,
    }),
    {
      q: "where are cookies signed",
      repo: "hono",
      k: 5,
      mode: "bm25",
      language: "typescript",
      path_prefix: "src/**/*.ts",
      include_tests: false,
      explain: true,
    },
  );
  assert.deepEqual(searchRequest("x", { repo: ["a", "b"], includeTests: true }), { q: "x", repos: ["a", "b"], include_tests: true });
  assert.deepEqual(searchRequest("x", {}), { q: "x" }, "nothing given: the server's defaults apply");
  assert.deepEqual(searchRequest("x", { repo: ["a"], ref: "feature" }), { q: "x", repo: "a", ref: "feature" }, "--ref is sent as ref");
});

test("readAt names each repo's snapshot once, by short ref and commit; nothing when the server did not say", () => {
  const c = "0123456789abcdef0123456789abcdef01234567";
  assert.equal(
    readAt([
      { repo: "a", ref: "refs/heads/feature", commit: c },
      { repo: "a", ref: "refs/heads/feature", commit: c },
      { repo: "u", ref: null, commit: c },
    ]),
    "read at: a feature@0123456789ab, u commit 0123456789ab",
  );
  assert.equal(readAt([{ repo: "a" }]), "");
});

test("search output names the repos left out (a repo without the asked ref), with and without results", () => {
  const failedRepos = [{ repo: "small", error: 'ref_not_found: Repo "small" was uploaded as an archive, which has no refs.' }];
  const hit = {
    repo: "click",
    path: "a.py",
    startLine: 1,
    endLine: 2,
    kind: "function",
    snippet: "def a(): ...",
    ref: "refs/tags/8.4.2",
    commit: "b".repeat(40),
  };
  const out = formatSearch({ results: [hit] as never, stats: { failedRepos } });
  assert.match(
    out,
    /read at: click 8\.4\.2@bbbbbbbbbbbb\nnot searched: small \(ref_not_found: Repo "small" was uploaded as an archive, which has no refs\.\)$/,
  );
  assert.match(formatSearch({ results: [], stats: { failedRepos } }), /^No results\.\nnot searched: small \(ref_not_found: /);
  assert.doesNotMatch(formatSearch({ results: [hit] as never, stats: { failedRepos: [] } }), /not searched/);
});

test("--min-confidence: high passes only high; low passes any result; no result never passes", () => {
  const high = { results: [{}], confidence: { level: "high" } };
  const low = { results: [{}], confidence: { level: "low" } };
  assert.equal(meetsConfidence(high, "high"), true);
  assert.equal(meetsConfidence(low, "high"), false);
  assert.equal(meetsConfidence(low, "low"), true);
  assert.equal(meetsConfidence(low, undefined), true);
  assert.equal(meetsConfidence({ results: [], confidence: { level: "high" } }, undefined), false);
});

test("grep takes its pattern as grep does: the argument or -e, once", () => {
  assert.equal(grepPattern("TODO", undefined), "TODO");
  assert.equal(grepPattern(undefined, "-x"), "-x", "-e lets a pattern start with -");
  assert.throws(() => grepPattern("a", "b"), UsageError);
  assert.throws(() => grepPattern(undefined, undefined), /needs a pattern/);
});

test("tokens create: 90 days unless --expires says a number of days or never", () => {
  assert.equal(DEFAULT_TOKEN_DAYS, 90);
  assert.equal(parseExpires("30"), 30);
  assert.equal(parseExpires("never"), "never");
  assert.throws(() => parseExpires("0"), UsageError);
  assert.throws(() => parseExpires("soon"), /number of days or "never"/);
});

test("exit codes: nothing found (1) differs from usage (2), not found (3), auth (4) and other errors (5)", () => {
  const codes = new Set(Object.values(EXIT));
  assert.equal(codes.size, Object.keys(EXIT).length, "one meaning per code");
  assert.equal(EXIT.noMatch, 1);
  assert.equal(exitCodeForStatus(401), EXIT.auth);
  assert.equal(exitCodeForStatus(403), EXIT.auth);
  assert.equal(exitCodeForStatus(404), EXIT.notFound);
  assert.equal(exitCodeForStatus(400), EXIT.usage);
  for (const status of [0, 409, 429, 500, 503]) assert.equal(exitCodeForStatus(status), EXIT.error, `status ${status}`);
});

test("index: a source that is neither a git URL nor a folder is a usage error (exit 2) that says what to give", () => {
  assert.equal(sourceProblem("."), null);
  assert.equal(sourceProblem("https://github.com/pallets/click.git"), null);
  assert.match(sourceProblem("github.com/pallets/click") ?? "", /needs its scheme: https:\/\/github\.com\/pallets\/click\.git/);
  // The real CLI, with a server that is never called: the check comes before any request.
  const cli = new URL("../codebase-copilot.ts", import.meta.url).pathname;
  const run = spawnSync(process.execPath, [cli, "index", "/no/such/folder", "--url", "http://127.0.0.1:9", "--token", "ccp_unused"], { encoding: "utf8" });
  assert.equal(run.status, EXIT.usage, run.stderr);
  assert.match(run.stderr, /"\/no\/such\/folder" is neither a git URL nor an existing folder\. Give a folder path, or a git URL/);
});

test("npm run cli: a folder is relative to where the user ran npm (INIT_CWD), not the project root npm runs it from", () => {
  const caller = mkdtempSync(join(tmpdir(), "cc-caller-"));
  try {
    mkdirSync(join(caller, "proj"));
    writeFileSync(join(caller, "proj", "a.py"), "x = 1\n");
    const cli = join(PROJECT_ROOT, "bin", "codebase-copilot.ts");
    // As `npm run cli -- index proj` from `caller` runs it; the server (port 9) never answers.
    const env = { ...process.env, npm_package_name: "codebase-copilot", npm_lifecycle_event: "cli", INIT_CWD: caller };
    const run = spawnSync(process.execPath, [cli, "index", "proj", "--url", "http://127.0.0.1:9", "--token", "ccp_unused"], {
      cwd: PROJECT_ROOT,
      env,
      encoding: "utf8",
    });
    assert.match(run.stderr, /Uploading 1 files of proj \(listed by walking the folder/, run.stderr);
    assert.equal(run.status, EXIT.error, "the folder was found and packed; only the unreachable server failed");
    // Only npm run cli (and npm start): a process that merely inherits npm's variables (npm test, npx) stays where it is.
    const inherited = spawnSync(process.execPath, [cli, "index", "proj", "--url", "http://127.0.0.1:9", "--token", "ccp_unused"], {
      cwd: PROJECT_ROOT,
      env: { ...env, npm_lifecycle_event: "test" },
      encoding: "utf8",
    });
    assert.equal(inherited.status, EXIT.usage, inherited.stderr);
  } finally {
    rmSync(caller, { recursive: true, force: true });
  }
});
