/**
 * Web sessions (local login, cookie flags, CSRF), signed source links, and search rate limits
 * through the Workers rate-limiting binding that the vitest plugin simulates.
 */
import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { loadAuthConfig } from "../../worker/auth/config";
import { adminCredential } from "../../worker/auth/caller";
import { signSourceLink } from "../../worker/auth/source-links";
import { api } from "../helpers";
import { browse, CookieJar, hiddenInput, postForm } from "./auth-helpers";
import { chunk, indexFixture } from "./search-fixture";

const MARKER = "walrus_line_two_marker";

beforeAll(async () => {
  await indexFixture("web-repo", "e".repeat(40), [
    { path: "lib/walrus.ts", chunks: [chunk("function", 1, `export function walrus() {\n  return "${MARKER}";\n}`, "walrus")] },
  ]);
});

describe("web sessions", () => {
  it("signs in with the local admin token, sets a hardened cookie, and needs CSRF for writes", async () => {
    const jar = new CookieJar();
    const form = await browse(jar, "/login");
    expect(form.status).toBe(200);
    const nonce = hiddenInput(await form.text(), "nonce");

    const wrong = await postForm(jar, "/login", { nonce, admin_token: "wrong" });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.getSetCookie().join()).not.toContain("__Host-ccp_session");

    const ok = await postForm(jar, "/login", { nonce, admin_token: env.ADMIN_TOKEN! });
    expect(ok.status).toBe(303);
    const set = ok.headers.getSetCookie().find((c) => c.startsWith("__Host-ccp_session="))!;
    expect(set).toMatch(/; HttpOnly/);
    expect(set).toMatch(/; Secure/);
    expect(set).toMatch(/; SameSite=Lax/);
    expect(set).toMatch(/; Path=\//);
    // Only the digest of the session id is stored.
    const sid = jar.get("__Host-ccp_session")!;
    expect(JSON.stringify(await env.DB.prepare("SELECT * FROM sessions").all())).not.toContain(sid);

    const session = await (await browse(jar, "/auth/session")).json<{ login: string; csrfToken: string; caller: { scopes: string[] } }>();
    expect(session.caller.scopes).toContain("admin");

    expect((await browse(jar, "/api/tokens")).status).toBe(200);
    const body = JSON.stringify({ name: "from web", scopes: ["search"] });
    const noCsrf = await browse(jar, "/api/tokens", { method: "POST", headers: { "content-type": "application/json" }, body });
    expect(noCsrf.status).toBe(403);
    const badCsrf = await browse(jar, "/api/tokens", { method: "POST", headers: { "content-type": "application/json", "x-csrf-token": "nope" }, body });
    expect(badCsrf.status).toBe(403);
    const withCsrf = await browse(jar, "/api/tokens", {
      method: "POST",
      headers: { "content-type": "application/json", "x-csrf-token": session.csrfToken },
      body,
    });
    expect(withCsrf.status).toBe(201);

    // Logging out needs the CSRF token too, then the cookie stops working.
    expect((await postForm(jar, "/logout", {})).status).toBe(403);
    expect((await postForm(jar, "/logout", { csrf: session.csrfToken })).status).toBe(303);
    expect((await SELF.fetch("http://localhost/api/tokens", { headers: { cookie: `__Host-ccp_session=${sid}` } })).status).toBe(401);
  });

  it("refuses a login form posted without the browser's nonce cookie (login CSRF)", async () => {
    const form = await browse(new CookieJar(), "/login");
    const nonce = hiddenInput(await form.text(), "nonce");
    const res = await postForm(new CookieJar(), "/login", { nonce, admin_token: env.ADMIN_TOKEN! });
    expect(res.status).toBe(403);
    expect(res.headers.getSetCookie().join()).not.toContain("__Host-ccp_session=");
  });
});

describe("web sign-in returns to the page it started from", () => {
  async function signIn(next: string): Promise<Response> {
    const jar = new CookieJar();
    const page = await (await browse(jar, `/login?next=${encodeURIComponent(next)}`)).text();
    // As a browser posts the form: the field's value with its HTML entities read.
    const back = hiddenInput(page, "next").replace(
      /&#39;|&quot;|&lt;|&gt;|&amp;/g,
      (e) => ({ "&#39;": "'", "&quot;": '"', "&lt;": "<", "&gt;": ">", "&amp;": "&" })[e]!,
    );
    return postForm(jar, "/login", { nonce: hiddenInput(page, "nonce"), next: back, admin_token: env.ADMIN_TOKEN! });
  }

  it("goes back to the search with its query and filters", async () => {
    const res = await signIn("/?q=parse%20signed&repo=web-repo&lang=typescript");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/?q=parse%20signed&repo=web-repo&lang=typescript");
  });

  it.each(["https://evil.example/", "//evil.example/", "/\\evil.example"])("refuses an open redirect to %s: goes to /", async (next) => {
    const res = await signIn(next);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/");
  });

  it("refuses a return path added to the posted form the same way", async () => {
    const jar = new CookieJar();
    const nonce = hiddenInput(await (await browse(jar, "/login")).text(), "nonce");
    const res = await postForm(jar, "/login", { nonce, next: "//evil.example/", admin_token: env.ADMIN_TOKEN! });
    expect(res.headers.get("location")).toBe("/");
  });
});

describe("signed source links", () => {
  it("opens the file without a bearer header while signed and unexpired, and refuses tampering", async () => {
    const res = await api("/api/source-links", { method: "POST", json: { repo: "web-repo", path: "lib/walrus.ts", startLine: 2, endLine: 2 } });
    expect(res.status).toBe(200);
    const { url } = await res.json<{ url: string }>();
    expect(url).toMatch(/^http:\/\/localhost\/source\/web-repo\/lib\/walrus\.ts\?exp=\d+&cred=admin%3A[0-9a-f]{16}&sig=[\w-]+#L2$/);

    const page = await SELF.fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    const body = await page.text();
    expect(body).toContain(MARKER);
    // The source view: line anchors the fragment lands on, its script under the strict CSP.
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(page.headers.get("content-security-policy")).not.toContain("unsafe-inline");
    expect(body).toMatch(/<span class="line" id="L2"><a class="n" href="#L2" aria-label="Line 2">2<\/a>/);
    expect(body).toMatch(/<script type="module" src="\/assets\/source-[A-Z0-9]+\.js"><\/script>/);
    // Its language's highlighter is preloaded beside the script (web/layout.ts).
    expect(body).toMatch(/<link rel="modulepreload" href="\/assets\/chunk-[A-Z0-9]+\.js" \/>/);
    expect(body).toMatch(/<nav class="outline" aria-label="Outline">/);

    const u = new URL(url);
    const tampered = [
      url.replace("walrus.ts", "other.ts"),
      url.replace("/web-repo/", "/secret-repo/"),
      `${u.origin}${u.pathname}?exp=${Number(u.searchParams.get("exp")) + 3600}&sig=${u.searchParams.get("sig")}`,
      `${u.origin}${u.pathname}?exp=${u.searchParams.get("exp")}&sig=${"A".repeat(43)}`,
      `${u.origin}${u.pathname}`,
    ];
    for (const bad of tampered) {
      const r = await SELF.fetch(bad);
      expect(r.status, bad).toBe(403);
      expect(await r.text()).not.toContain(MARKER);
    }

    const expired = await signSourceLink(
      loadAuthConfig(env).signingSecret,
      "http://localhost",
      { repo: "web-repo", path: "lib/walrus.ts" },
      await adminCredential(env.ADMIN_TOKEN!),
      Date.now() - 3600_000,
      60,
    );
    const r = await SELF.fetch(expired.url);
    expect(r.status).toBe(403);
    expect(await r.text()).toContain("expired");
  });

  it("mints links only for repos the caller may see", async () => {
    const tok = await (
      await api("/api/tokens", { method: "POST", json: { name: "one repo", scopes: ["search"], repos: ["other"] } })
    ).json<{ token: string }>();
    const res = await SELF.fetch("http://localhost/api/source-links", {
      method: "POST",
      headers: { authorization: `Bearer ${tok.token}`, "content-type": "application/json" },
      body: JSON.stringify({ repo: "web-repo", path: "lib/walrus.ts" }),
    });
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain("sig=");
  });
});

describe("search rate limits", () => {
  it("uses the simulated Workers rate-limiting bindings", () => {
    expect(typeof env.SEARCH_LIMIT_IDENTITY?.limit).toBe("function");
    expect(typeof env.SEARCH_LIMIT_IP?.limit).toBe("function");
  });

  it("answers 429 with Retry-After once an identity exceeds its limit", async () => {
    const { token } = await (await api("/api/tokens", { method: "POST", json: { name: "busy agent", scopes: ["search"] } })).json<{ token: string }>();
    const headers = { authorization: `Bearer ${token}` };
    expect((await SELF.fetch("http://localhost/api/search?q=walrus&repo=web-repo", { headers })).status).toBe(200);
    // Windows are aligned to the clock (60 s): 250 requests put more than 120 in one window even
    // if a boundary falls in between. /api/search/* is counted before routing, so a probe path is cheap.
    let first429: Response | undefined;
    let ok = 1;
    for (let i = 0; i < 250 && !first429; i++) {
      const res = await SELF.fetch("http://localhost/api/search/limit-probe", { headers });
      if (res.status === 429) first429 = res;
      else {
        expect(res.status).toBe(404);
        ok++;
        await res.body?.cancel();
      }
    }
    expect(first429).toBeDefined();
    expect(ok).toBeGreaterThanOrEqual(120);
    expect(Number(first429!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await first429!.json<{ error: { code: string } }>()).error.code).toBe("rate_limited");
    // Another identity is not affected.
    expect((await api("/api/search?q=walrus&repo=web-repo")).status).toBe(200);
  });

  it("limits per client IP as well, also for the admin", async () => {
    const ip = `198.51.100.${Math.floor(Math.random() * 250) + 1}`;
    let limited: Response | undefined;
    for (let i = 0; i < 620 && !limited; i++) {
      const res = await api("/api/search/limit-probe", { headers: { "cf-connecting-ip": ip } });
      if (res.status === 429) limited = res;
      else await res.body?.cancel();
    }
    expect(limited?.headers.get("retry-after")).toBe("60");
    expect((await api("/api/search/limit-probe", { headers: { "cf-connecting-ip": "198.51.100.251" } })).status).not.toBe(429);
  });
});
