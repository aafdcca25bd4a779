/**
 * Helpers for the auth tests (test/worker/auth*.test.ts): a tiny cookie jar, form scraping, and
 * an in-memory MCP OAuth client provider that records where it was sent to authorize.
 */
import { SELF } from "cloudflare:test";
import { MemoryOAuthClient as SharedMemoryOAuthClient } from "../memory-oauth-client";

/** Origin the Worker answers on in tests. */
export const ORIGIN = "http://localhost";

/** Remembers cookies set by responses and sends them back (no domain/path logic: one origin). */
export class CookieJar {
  #cookies = new Map<string, string>();
  absorb(res: Response): void {
    for (const sc of res.headers.getSetCookie()) {
      const [pair, ...attrs] = sc.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const maxAge = attrs.map((a) => a.trim().toLowerCase()).find((a) => a.startsWith("max-age="));
      if (value === "" || maxAge === "max-age=0") this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
  }
  get(name: string): string | undefined {
    return this.#cookies.get(name);
  }
  header(): string {
    return [...this.#cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

/** Fetches from the Worker with the jar's cookies, without following redirects. */
export async function browse(jar: CookieJar, url: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const cookie = jar.header();
  if (cookie) headers.set("cookie", cookie);
  const res = await SELF.fetch(url.startsWith("http") ? url : `${ORIGIN}${url}`, { ...init, headers, redirect: "manual" });
  jar.absorb(res);
  return res;
}

/** Value of a hidden input in a server-rendered form. */
export function hiddenInput(html: string, name: string): string {
  const m = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
  if (!m) throw new Error(`no hidden input ${name} in page: ${html.slice(0, 300)}`);
  return m[1];
}

/** Posts an HTML form. */
export function postForm(jar: CookieJar, url: string, fields: Record<string, string>): Promise<Response> {
  return browse(jar, url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() });
}

/** The in-memory OAuth client, named so the consent page's escaping is exercised. */
export class MemoryOAuthClient extends SharedMemoryOAuthClient {
  constructor(redirect = "http://127.0.0.1:33418/callback") {
    super(redirect, "Auth test <script>alert(1)</script>");
  }
}

/**
 * `fetch` for SDK helpers: every request goes to the Worker under test, with the Host header a
 * real client sends (SELF.fetch adds none; the MCP handler refuses requests without one).
 */
export const selfFetch = ((input: RequestInfo | URL, init?: RequestInit) => {
  const req = new Request(input instanceof URL ? input.toString() : input, init);
  const headers = new Headers(req.headers);
  if (!headers.has("host")) headers.set("host", new URL(req.url).host);
  return SELF.fetch(new Request(req, { headers }));
}) as typeof fetch;
