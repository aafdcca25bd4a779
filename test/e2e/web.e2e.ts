/**
 * End-to-end test of the web search page in headless Chromium (`npm run test:e2e`).
 *
 * Starts `wrangler dev` on loopback with a throw-away state folder and admin token, indexes a
 * small fixture folder through the real archive upload, then drives the page: sign in with the
 * local login, search, check results (path:start-end, symbol, escaped snippet), follow a signed
 * source link, and take a screenshot (.codebase-copilot/e2e/search.png).
 *
 * Needs Chromium: `apt-get install -y chromium` (path from CHROMIUM_PATH, default
 * /usr/bin/chromium). Port from E2E_PORT (default 8795).
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { STATE_DIR } from "../../bin/lib/paths.ts";
import { withIndexedServer } from "./server.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const PORT = Number(process.env.E2E_PORT ?? 8795);
const BASE = `http://127.0.0.1:${PORT}`;
const REPO = "e2e-widgets";
const SCREENSHOT = join(STATE_DIR, "e2e", "search.png");
const CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync"];

/** A tiny repo: the function the test searches for sits at known lines, next to text that must stay text. */
function writeFixture(dir: string): void {
  mkdirSync(join(dir, "src"), { recursive: true });
  writeFileSync(join(dir, "README.md"), "# Widgets\n\nParses widget configuration files.\n");
  writeFileSync(
    join(dir, "src", "widget.ts"),
    [
      "export interface WidgetConfig {",
      "  name: string;",
      "  size: number;",
      "}",
      "",
      "/** Parses a widget config; rejects markup such as <script>alert('xss')</script> in names. */",
      "export function parseWidgetConfig(text: string): WidgetConfig {",
      "  const raw = JSON.parse(text) as WidgetConfig;",
      "  if (/<[a-z]/i.test(raw.name)) throw new Error(\"markup in widget name\");",
      "  return { name: raw.name, size: Number(raw.size) };",
      "}",
      "",
    ].join("\n"),
  );
  writeFileSync(join(dir, "src", "render.ts"), "export function renderWidget(name: string): string {\n  return `[${name}]`;\n}\n");
}

async function main(): Promise<void> {
  if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}; apt-get install -y chromium, or set CHROMIUM_PATH.`);
  await withIndexedServer(PORT, REPO, writeFixture, async ({ token }) => {
    let browser: Browser | undefined;
    try {
      browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
      const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
      const dialogs: string[] = [];
      page.on("dialog", (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      // Script errors, and failed requests other than the signed-out session probe.
      const consoleErrors: string[] = [];
      page.on("console", (m) => {
        if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) consoleErrors.push(m.text());
      });
      const failedRequests: string[] = [];
      page.on("response", (r) => {
        if (r.status() >= 400 && !(r.status() === 401 && new URL(r.url()).pathname === "/auth/session")) failedRequests.push(`${r.status()} ${r.url()}`);
      });

      // Signed out: the page says so and links to the sign-in page.
      await page.goto(`${BASE}/`);
      await page.getByText("Not signed in.").waitFor();
      await page.getByRole("link", { name: "Sign in" }).click();

      // H6's local login asks for the admin token, then sends the browser back to /.
      await page.locator('input[name="admin_token"]').fill(token);
      await Promise.all([page.waitForURL(`${BASE}/`), page.locator('input[name="admin_token"]').press("Enter")]);
      await page.getByText("Signed in as local admin").waitFor();
      await page.locator(`#repo option[value="${REPO}"]`).waitFor({ state: "attached" });

      // Keyboard: "/" focuses the search box.
      await page.locator("h1").click();
      await page.keyboard.press("/");
      assert.equal(await page.evaluate(() => document.activeElement?.id), "q");

      // Search by label, as a screen-reader user would find the fields.
      await page.getByLabel("Search code").fill("parse widget config");
      await page.getByLabel("Repository").selectOption(REPO);
      await page.getByRole("button", { name: "Search" }).click();
      await page.locator("#status").filter({ hasText: /\d+ results? in \d+ ms/ }).waitFor();
      const first = page.locator("#results .result").first();
      const title = (await first.locator("h2").textContent()) ?? "";
      assert.match(title, /^e2e-widgets\/src\/widget\.ts:\d+-\d+$/, `first result title: ${title}`);
      const [, start, end] = /:(\d+)-(\d+)$/.exec(title)!.map(Number);
      assert.ok(start <= 7 && end >= 11, `range ${start}-${end} should cover parseWidgetConfig (lines 7-11)`);
      assert.match((await first.locator(".meta").textContent()) ?? "", /parseWidgetConfig/);
      const code = (await first.locator("pre").textContent()) ?? "";
      assert.ok(code.includes("<script>alert('xss')</script>"), "the snippet shows markup as text");
      assert.equal(await first.locator("pre script").count(), 0, "no element was created from the snippet");
      assert.deepEqual(dialogs, [], "no script from the results ran");
      assert.match(page.url(), /\?q=parse\+widget\+config&repo=e2e-widgets$/);

      // The source link is signed (H6) and opens the file at the cited lines.
      const link = first.locator("a.source-link");
      await page.waitForFunction(() => !!document.querySelector("#results .result a.source-link[href]"));
      const href = (await link.getAttribute("href")) ?? "";
      assert.match(href, /\/source\/e2e-widgets\/src\/widget\.ts\?exp=\d+&sig=[\w-]+#L\d+-L\d+$/);

      mkdirSync(join(STATE_DIR, "e2e"), { recursive: true });
      await page.screenshot({ path: SCREENSHOT, fullPage: true });

      await link.click();
      await page.waitForURL(/\/source\/e2e-widgets\/src\/widget\.ts/);
      assert.match((await page.locator(`#L${start}`).textContent()) ?? "", /\S/);
      assert.match((await page.locator("#L7").textContent()) ?? "", /export function parseWidgetConfig/);

      // Reloading a shared URL runs the search again.
      await page.goto(`${BASE}/?q=renderWidget&repo=${REPO}`);
      await page.locator("#results .result h2").first().filter({ hasText: "src/render.ts:" }).waitFor();

      // The API reference renders every operation from /api/openapi.json under its own CSP,
      // with Swagger UI served by the Worker (a CSP violation or a CDN request would show here).
      await page.goto(`${BASE}/api/docs`);
      await page.locator(".opblock-summary-path", { hasText: "/repos/{id}/files/{path}" }).waitFor();
      assert.ok((await page.locator(".opblock").count()) >= 15, "every operation is listed");
      await page.screenshot({ path: join(STATE_DIR, "e2e", "api-docs.png"), fullPage: false });

      assert.deepEqual(consoleErrors, [], "no script errors");
      assert.deepEqual(failedRequests, [], "no failed requests");
      console.log(`web e2e: ok (screenshots ${SCREENSHOT}, api-docs.png)`);
    } finally {
      await browser?.close();
    }
  });
}

main().catch((err: unknown) => {
  console.error("web e2e: FAILED\n", err);
  process.exitCode = 1;
});
