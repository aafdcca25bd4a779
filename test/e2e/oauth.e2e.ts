/**
 * End-to-end test of MCP sign-in the way clients do it (`npm run test:e2e:oauth`): starts the
 * service as `npm start` does, then the official MCP SDK client (`StreamableHTTPClientTransport`
 * with an `OAuthClientProvider`) discovers OAuth from the 401, registers dynamically and asks
 * for authorization; the authorize URL opens in headless Chromium, the test types the local
 * admin token and clicks Allow, and the browser must land on the client's loopback callback
 * server (a CSP form-action that does not name the callback stops it there, as issue 18 found);
 * the client exchanges the code with PKCE and lists and calls tools. Then: Deny lands on the
 * callback with access_denied; the admin token is not in the process list; and a client-sent
 * CF-Connecting-IP does not reset the per-IP search limit.
 *
 * Needs Chromium (CHROMIUM_PATH, default /usr/bin/chromium). Ports: E2E_OAUTH_PORT (server,
 * default 8797) and E2E_OAUTH_CALLBACK_PORT (the client's callback, default 8798).
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { chromium, type Browser, type Page } from "playwright-core";
import { MemoryOAuthClient } from "../memory-oauth-client.ts";
import { CHROMIUM_FLAGS, CHROMIUM_PATH, requireChromium } from "./chromium.ts";
import { withIndexedServer } from "./server.ts";

const PORT = Number(process.env.E2E_OAUTH_PORT ?? 8799);
const CALLBACK_PORT = Number(process.env.E2E_OAUTH_CALLBACK_PORT ?? 8798);
const REPO = "e2e-oauth";
/** The per-IP search limit of wrangler.toml (SEARCH_LIMIT_IP). */
const SEARCH_LIMIT_IP = 300;

function writeFixture(dir: string): void {
  mkdirSync(join(dir, "src"), { recursive: true });
  writeFileSync(
    join(dir, "src", "invoice.ts"),
    "/** Totals an invoice's lines in cents. */\nexport function invoiceTotal(lines: { cents: number }[]): number {\n  return lines.reduce((sum, l) => sum + l.cents, 0);\n}\n",
  );
}

/** The client's loopback callback (RFC 8252 §7.3), as Claude Code and mcp-remote run one. */
class CallbackServer {
  readonly hits: URL[] = [];
  #waiters: ((u: URL) => void)[] = [];
  #server: Server;
  readonly port: number;
  constructor(port: number) {
    this.port = port;
    this.#server = createServer((req, res) => {
      const url = new URL(req.url ?? "/", `http://localhost:${port}`);
      this.hits.push(url);
      res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>Signed in</title><p>Signed in; you can close this window.</p>");
      for (const w of this.#waiters.splice(0)) w(url);
    });
  }
  listen(): Promise<void> {
    return new Promise((resolve, reject) => this.#server.once("error", reject).listen(this.port, "127.0.0.1", () => resolve()));
  }
  next(): Promise<URL> {
    return new Promise((resolve) => this.#waiters.push(resolve));
  }
  close(): Promise<void> {
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}

/** Starts an SDK connect that needs authorization; returns the transport and the authorize URL. */
async function startSignIn(base: string, provider: MemoryOAuthClient): Promise<{ transport: StreamableHTTPClientTransport; url: URL }> {
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider });
  await assert.rejects(new Client({ name: "oauth-e2e", version: "1.0.0" }).connect(transport), UnauthorizedError);
  assert.ok(provider.authorizationUrl, "the SDK asked to open an authorization URL");
  return { transport, url: provider.authorizationUrl };
}

/** Console messages that report a Content-Security-Policy violation. */
function watchCsp(page: Page): string[] {
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  return violations;
}

async function search(base: string, token: string, headers: Record<string, string> = {}): Promise<number> {
  const res = await fetch(`${base}/api/search?q=invoice+total&repo=${REPO}&k=1`, { headers: { authorization: `Bearer ${token}`, ...headers } });
  await res.body?.cancel();
  return res.status;
}

/**
 * Spends the per-IP search budget (the admin token is exempt from the identity limit only), then
 * sends one search with a made-up CF-Connecting-IP: it must still get 429. The simulated limiter
 * uses wall-clock windows, so when the window rolls over between the two (a plain search is 200
 * again too) the check is repeated.
 */
async function checkForgedIpDoesNotReset(base: string, token: string): Promise<void> {
  for (let attempt = 1; attempt <= 3; attempt++) {
    let limited = false;
    for (let sent = 0; !limited && sent < 3 * SEARCH_LIMIT_IP; sent += 20) {
      const batch = await Promise.all(Array.from({ length: 20 }, () => search(base, token)));
      limited = batch.includes(429);
    }
    assert.ok(limited, "the per-IP search limit is reached");
    const forged = await search(base, token, { "cf-connecting-ip": "203.0.113.9" });
    const plain = await search(base, token);
    if (forged === 429) return;
    assert.notEqual(plain, 429, "a forged CF-Connecting-IP reset the per-IP limit");
  }
  throw new Error("the limiter's window rolled over on every attempt");
}

async function main(): Promise<void> {
  requireChromium();
  await withIndexedServer(PORT, REPO, writeFixture, async ({ base, token }) => {
    const callback = new CallbackServer(CALLBACK_PORT);
    await callback.listen();
    let browser: Browser | undefined;
    try {
      browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });

      // 1. Sign in and Allow: the browser ends on the client's callback with a code.
      const provider = new MemoryOAuthClient(`http://localhost:${CALLBACK_PORT}/callback`, "oauth e2e");
      const { transport, url } = await startSignIn(base, provider);
      assert.equal(url.searchParams.get("code_challenge_method"), "S256");
      const page = await browser.newPage();
      const csp = watchCsp(page);
      await page.goto(url.toString());
      await page.getByText("oauth e2e").first().waitFor();
      assert.match((await page.locator(".grants").textContent()) ?? "", /search/);
      await page.locator('input[name="admin_token"]').fill(token);
      const landed = callback.next();
      await page.getByRole("button", { name: "Allow" }).click();
      const back = await Promise.race([
        landed,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`no callback within 15 s; page at ${page.url()}; CSP: ${csp.join(" | ")}`)), 15_000),
        ),
      ]);
      await page.waitForURL(/\/callback\?/);
      assert.equal(new URL(page.url()).port, String(CALLBACK_PORT), "the browser is on the client's callback page");
      assert.equal(back.searchParams.get("state"), url.searchParams.get("state"));
      const code = back.searchParams.get("code");
      assert.ok(code, `callback carries a code: ${back}`);
      assert.deepEqual(csp, [], "no CSP violation on the way");

      // 2. The SDK exchanges the code (PKCE verifier) and uses the token.
      await transport.finishAuth(code);
      assert.equal(provider.saved?.scope, "search", "an MCP client gets the search scope only");
      const client = new Client({ name: "oauth-e2e", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider }));
      const { tools } = await client.listTools();
      assert.ok(
        tools.some((t) => t.name === "search_code"),
        `tools: ${tools.map((t) => t.name)}`,
      );
      const result = (await client.callTool({ name: "search_code", arguments: { query: "invoice total", repo: REPO, k: 3 } })) as {
        isError?: boolean;
        content: { text?: string }[];
      };
      assert.notEqual(result.isError, true, JSON.stringify(result).slice(0, 300));
      assert.match(JSON.stringify(result.content), /invoice\.ts/);
      await client.close();

      // 3. Deny also reaches the callback, with access_denied and no code.
      const denier = new MemoryOAuthClient(`http://127.0.0.1:${CALLBACK_PORT}/callback`, "oauth e2e");
      const denied = await startSignIn(base, denier);
      const page2 = await browser.newPage();
      const csp2 = watchCsp(page2);
      await page2.goto(denied.url.toString());
      const deniedBack = callback.next();
      await page2.getByRole("button", { name: "Deny" }).click();
      const d = await deniedBack;
      assert.equal(d.searchParams.get("error"), "access_denied");
      assert.equal(d.searchParams.get("code"), null);
      assert.deepEqual(csp2, [], "no CSP violation on deny");

      // 4. The admin token is not in any process's command line (issue 18 item 7).
      const ps = execFileSync("ps", ["-eo", "args"], { encoding: "utf8" });
      assert.ok(ps.includes("wrangler"), "ps lists wrangler");
      assert.ok(!ps.includes(token), "the admin token is not in the process list");

      // 5. Locally a client-sent CF-Connecting-IP does not reset the per-IP limit (item 8).
      await checkForgedIpDoesNotReset(base, token);
      console.log("oauth e2e: ok (SDK client: register, browser consent, loopback callback, PKCE exchange, tools; deny; ps; forged IP)");
    } finally {
      await browser?.close();
      await callback.close();
    }
  });
}

main().catch((err: unknown) => {
  console.error("oauth e2e: FAILED\n", err);
  process.exitCode = 1;
});
