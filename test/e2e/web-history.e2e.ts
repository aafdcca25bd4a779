/**
 * End-to-end test of the source view's "last commit of the selected range" in headless Chromium
 * (`npm run test:e2e:web-history`; issue #49, docs/history.md).
 *
 * Starts `wrangler dev` on loopback (test/e2e/server.ts), serves the loopback git server
 * (test/git-server.ts) with a copy of the history fixture (test/history-fixture.ts) whose branch
 * `feature` rewrites line 3 of lib/b.ts in a commit of its own, and registers it with
 * `refs: ["feature"]`. Signed in, it opens signed source links of lib/b.ts lines 3-3 at the
 * default branch and at `feature`: the page's script (web/client/source.ts) must show the
 * range's last commit (feature's own commit at feature only; the first commit at main) and a
 * link to the range's history at the same ref, and that link must answer with that commit
 * first. Nothing here is drawn by the server: without the script the test fails.
 *
 * Needs Chromium (CHROMIUM_PATH, default /usr/bin/chromium). Port from E2E_PORT (default 8795);
 * serialise with the other e2e runs (`flock /tmp/e2e.lock`).
 */
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import startGitServer, { gitControl as control } from "../git-server.ts";
import { FEATURE_FILE, FEATURE_SUBJECT, HISTORY_SUBJECTS } from "../history-fixture.ts";
import { CHROMIUM_FLAGS, CHROMIUM_PATH, requireChromium } from "./chromium.ts";
import { withIndexedServer } from "./server.ts";

const PORT = Number(process.env.E2E_PORT ?? 8795);
const BASE = `http://127.0.0.1:${PORT}`;
const REPO = "e2e-history";
const FILE = "lib/b.ts";
const F1 = FEATURE_SUBJECT;

/** A REST call with the admin token. */
async function api(token: string, path: string, json?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${BASE}${path}`, {
    method: json === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${token}`, ...(json === undefined ? {} : { "content-type": "application/json" }) },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  return { status: res.status, body: await res.json() };
}

/** Registers the upstream with `feature` tracked and waits until both refs have a snapshot; returns feature's commit. */
async function registerWithFeature(token: string, gitUrl: string): Promise<string> {
  await control(gitUrl, "/repos", { name: REPO, from: "history" });
  await control(gitUrl, `/repos/${REPO}/refs`, { set: { "refs/heads/feature": "main" } });
  const { commit } = await control(gitUrl, `/repos/${REPO}/commit`, { branch: "feature", files: { [FILE]: FEATURE_FILE }, message: F1 });
  const created = await api(token, "/api/repos", { url: `${gitUrl}/${REPO}.git`, name: REPO, refs: ["feature"] });
  assert.equal(created.status, 202, JSON.stringify(created.body));
  for (let i = 0; i < 400; i++) {
    const s = (await api(token, `/api/repos/${REPO}`)).body as { status: string; refs?: { name: string; commit: string | null }[] };
    if (s.status === "failed") throw new Error(`indexing failed: ${JSON.stringify(s)}`);
    if (s.status === "ready" && s.refs?.length === 2 && s.refs.every((r) => r.commit)) {
      assert.equal(s.refs.find((r) => r.name === "refs/heads/feature")?.commit, commit);
      await historyRecorded(token, ["main", "feature"]);
      return commit!;
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error("the two refs were not indexed in time");
}

/** Waits until each ref's history step (run after its snapshot is planned) answers: history can follow `ready`. */
async function historyRecorded(token: string, refs: string[]): Promise<void> {
  for (const ref of refs) {
    for (let i = 0; ; i++) {
      const { status } = await api(token, `/api/repos/${REPO}/history?path=${encodeURIComponent(FILE)}&limit=1&ref=${ref}`);
      if (status === 200) break;
      if (i >= 200) throw new Error(`the history of ${ref} was not recorded in time (last status ${status})`);
      await new Promise((r) => setTimeout(r, 300));
    }
  }
}

async function signIn(page: Page, token: string): Promise<void> {
  await page.goto(`${BASE}/`);
  await page.getByRole("link", { name: "Sign in" }).click();
  await page.locator('input[name="admin_token"]').fill(token);
  await Promise.all([page.waitForURL(`${BASE}/`), page.locator('input[name="admin_token"]').press("Enter")]);
  await page.getByText("Signed in as local admin").waitFor();
}

/**
 * Opens the signed link of FILE line 3 (at `ref`, or the default branch) and checks what the
 * script draws: the last commit (`sha` when known, `subject`, never `notSha`) and a history link
 * at the same ref whose answer starts with that commit.
 */
async function checkLastCommit(page: Page, token: string, ref: string | undefined, expect: { subject: string; sha?: string; notSha: string }): Promise<void> {
  const link = await api(token, "/api/source-links", { repo: REPO, path: FILE, startLine: 3, endLine: 3, ...(ref ? { ref } : {}) });
  assert.equal(link.status, 200, JSON.stringify(link.body));
  await page.goto(new URL(link.body.url as string, BASE).href);
  await page.locator("#L3.hl").waitFor();
  const box = page.locator("#range-commit");
  const historyLink = box.getByRole("link", { name: "history of these lines" });
  await historyLink.waitFor({ timeout: 15_000 });
  const text = (await box.textContent()) ?? "";
  assert.ok(text.startsWith("Last changed in "), text);
  assert.ok(text.includes(expect.subject), `${ref ?? "default"}: "${text}" names ${expect.subject}`);
  if (expect.sha) assert.ok(text.includes(expect.sha.slice(0, 12)), `${ref ?? "default"}: "${text}" names ${expect.sha}`);
  assert.ok(!text.includes(expect.notSha.slice(0, 12)), `${ref ?? "default"}: "${text}" must not name ${expect.notSha}`);
  const href = (await historyLink.getAttribute("href")) ?? "";
  assert.match(href, new RegExp(`^/api/repos/${REPO}/history\\?path=lib%2Fb\\.ts&start=3&end=3`));
  assert.equal(new URL(href, BASE).searchParams.get("ref"), ref ? `refs/heads/${ref}` : null, `history link of ${ref ?? "default"}`);
  // The link answers (with the page's session cookie) with the commit the page shows first.
  const reply = await page.request.get(new URL(href, BASE).href);
  assert.equal(reply.status(), 200);
  const page1 = (await reply.json()) as { ref: string; commits: { sha: string; subject: string }[] };
  assert.equal(page1.commits[0]?.subject, expect.subject);
  assert.equal(page1.ref, `refs/heads/${ref ?? "main"}`);
}

async function main(): Promise<void> {
  requireChromium();
  let gitUrl = "";
  const stopGit = await startGitServer({ provide: (_key, value) => (gitUrl = value) });
  try {
    const writeReadme = (dir: string) => {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "README.md"), "# placeholder archive (the test reads a git repo)\n");
    };
    await withIndexedServer(PORT, "e2e-history-archive", writeReadme, async ({ token }) => {
      const feature = await registerWithFeature(token, gitUrl);
      let browser: Browser | undefined;
      try {
        browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
        const page = await browser.newPage({ viewport: { width: 1200, height: 860 } });
        const scriptErrors: string[] = [];
        page.on("pageerror", (e) => scriptErrors.push(e.message));
        page.on("console", (m) => {
          if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) scriptErrors.push(m.text());
        });
        await signIn(page, token);
        await checkLastCommit(page, token, "feature", { subject: F1, sha: feature, notSha: "0".repeat(12) });
        await checkLastCommit(page, token, undefined, { subject: HISTORY_SUBJECTS.C1, notSha: feature });
        assert.deepEqual(scriptErrors, [], "no script errors");
        console.log("web history e2e: ok");
      } finally {
        await browser?.close();
      }
    });
  } finally {
    await stopGit();
  }
}

main().catch((err: unknown) => {
  console.error("web history e2e: FAILED\n", err);
  process.exitCode = 1;
});
