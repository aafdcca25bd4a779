/**
 * @module test/e2e/web-access
 *
 * The repositories page's Access button (issue #48) in headless Chromium, part of the web e2e
 * (web.e2e.ts): a server with AUTH_PROVIDER=github signs people in through GitHub's OAuth web
 * flow on the fake code host (test/github-web-flow.ts). An admin opens Access on an uploaded
 * repo, names a reader and saves; the PATCH answers the saved list, the audit log records the
 * change, and over the REST API the reader on the list sees the repo while a reader not on it
 * no longer does (it did before the change), nor on the repositories page.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { withIndexedServer } from "./server.ts";

/** The uploaded repo whose access list the test sets. */
const REPO = "e2e-ledger";
const ADMIN = "e2e-admin";
const READER = "e2e-reader";
const OUTSIDER = "e2e-outsider";

/** A one-file fixture: the flow is about who sees the repo, not what it holds. */
function writeLedger(dir: string): void {
  mkdirSync(join(dir, "src"), { recursive: true });
  writeFileSync(
    join(dir, "src", "ledger.ts"),
    "/** Sums ledger entries in cents. */\nexport function ledgerBalance(cents: number[]): number {\n  return cents.reduce((a, b) => a + b, 0);\n}\n",
  );
}

/** The Worker's variables for GitHub sign-in against the fake code host at `codeHostUrl`. */
function githubVars(codeHostUrl: string): Record<string, string> {
  return {
    AUTH_PROVIDER: "github",
    SIGNING_SECRET: randomBytes(32).toString("base64url"),
    GITHUB_CLIENT_ID: "e2e-client",
    GITHUB_CLIENT_SECRET: "e2e-client-secret",
    GITHUB_BASE_URL: `${codeHostUrl}/github-web`,
    GITHUB_API_URL: `${codeHostUrl}/github`,
    GITHUB_ADMIN_USERS: ADMIN,
    GITHUB_ALLOWED_USERS: `${READER},${OUTSIDER}`,
  };
}

/** Signs `login` in through GitHub's web flow in a fresh browser context; returns its page. */
async function githubSignIn(browser: Browser, base: string, login: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 860 } });
  const page = await context.newPage();
  await page.goto(`${base}/`);
  await page.getByRole("link", { name: "Sign in" }).click();
  await page.getByLabel("Username").fill(login);
  await Promise.all([page.waitForURL(`${base}/`), page.getByRole("button", { name: "Sign in" }).click()]);
  await page.getByText(`Signed in as ${login}`).waitFor();
  return { context, page };
}

/** The repo ids `GET /api/repos` lists for the person signed in on `page` (their web session). */
async function visibleRepos(page: Page, base: string): Promise<string[]> {
  const r = await page.request.get(`${base}/api/repos`);
  assert.equal(r.status(), 200, `GET /api/repos: ${await r.text()}`);
  return ((await r.json()) as { repos: { id: string }[] }).repos.map((x) => x.id);
}

/** Waits until the repositories page has drawn its table (a repo row or the empty-table note). */
async function loadReposPage(page: Page, base: string): Promise<void> {
  await page.goto(`${base}/repos`);
  await page.locator("#repos tbody tr").first().waitFor();
}

/** The flow on a running server (see the module note). */
async function accessFlow(browser: Browser, base: string, adminToken: string): Promise<void> {
  const admin = await githubSignIn(browser, base, ADMIN);
  const reader = await githubSignIn(browser, base, READER);
  const outsider = await githubSignIn(browser, base, OUTSIDER);
  try {
    // Before: an uploaded repo is for everyone signed in.
    assert.ok((await visibleRepos(outsider.page, base)).includes(REPO), "before the change every reader sees the repo");

    // The admin opens Access, names the reader in its prompt and saves.
    await loadReposPage(admin.page, base);
    const row = admin.page.locator(`tr[data-repo="${REPO}"]`);
    await row.waitFor();
    const prompts: string[] = [];
    admin.page.once("dialog", (d) => {
      prompts.push(`${d.type()}: ${d.message()}`);
      void d.accept(READER);
    });
    const patched = admin.page.waitForResponse((r) => r.request().method() === "PATCH" && new URL(r.url()).pathname === `/api/repos/${REPO}`);
    await row.getByRole("button", { name: `Access: who may read ${REPO}` }).click();
    const saved = await patched;
    await admin.page
      .locator("#repos-status")
      .filter({ hasText: `Only ${READER} (and admins) may read ${REPO} now.` })
      .waitFor();
    assert.match(prompts[0] ?? "", /^prompt: Who may read "e2e-ledger"\?/);
    assert.equal(saved.status(), 200);
    assert.deepEqual(await saved.json(), { repo: REPO, visibility: "listed", access: { users: [`github:${READER}`], teams: [] } });

    // Read back over the REST API: the audit log names the admin's change ...
    const audit = await fetch(`${base}/api/audit?event=access_list_changed`, { headers: { authorization: `Bearer ${adminToken}` } });
    assert.equal(audit.status, 200);
    const entries = ((await audit.json()) as { entries: { actor: string; target: string | null }[] }).entries;
    assert.deepEqual(
      entries.map((e) => [e.actor, e.target]),
      [[`github:${ADMIN}`, REPO]],
    );
    // ... the reader on the list still sees the repo and can read it ...
    assert.ok((await visibleRepos(reader.page, base)).includes(REPO), "the reader on the list sees the repo");
    assert.equal((await reader.page.request.get(`${base}/api/repos/${REPO}`)).status(), 200);
    // ... and a reader not on the list does not: not listed, not found, not searchable.
    assert.ok(!(await visibleRepos(outsider.page, base)).includes(REPO), "a reader not on the list does not see the repo");
    assert.equal((await outsider.page.request.get(`${base}/api/repos/${REPO}`)).status(), 404);
    assert.equal((await outsider.page.request.get(`${base}/api/search?q=ledgerBalance&repo=${REPO}`)).status(), 404);
    // A search over every repo they may see answers as an empty server would, naming nothing.
    const search = await outsider.page.request.get(`${base}/api/search?q=ledgerBalance`);
    assert.equal(search.status(), 404);
    assert.deepEqual(((await search.json()) as { error: { code: string } }).error.code, "repo_not_found");
    assert.doesNotMatch(await search.text(), /ledger/i, "the answer does not name the hidden repo");

    // The repositories page agrees: the reader's lists the repo, the outsider's does not.
    await loadReposPage(reader.page, base);
    await reader.page.locator(`tr[data-repo="${REPO}"]`).waitFor();
    await loadReposPage(outsider.page, base);
    assert.equal(await outsider.page.locator(`tr[data-repo="${REPO}"]`).count(), 0, "the outsider's repositories page leaves it out");
    assert.equal(await outsider.page.getByRole("button", { name: `Access: who may read ${REPO}` }).count(), 0);
  } finally {
    await Promise.all([admin.context.close(), reader.context.close(), outsider.context.close()]);
  }
}

/**
 * Runs the Access flow on its own server on `port` (GitHub sign-in against the fake code host
 * at `codeHostUrl`), with `browser`. Throws on the first failed check.
 */
export async function runAccessFlow(browser: Browser, port: number, codeHostUrl: string): Promise<void> {
  await withIndexedServer(port, REPO, writeLedger, ({ base, token }) => accessFlow(browser, base, token), githubVars(codeHostUrl));
}
