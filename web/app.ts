/**
 * Routes of the web search page: `GET /` (the page), `/assets/search.js`, `/assets/search.css`.
 * The page holds no data; its script calls the REST API same-origin with the web session
 * (worker/auth), so the page itself needs no authentication.
 */
import { Hono } from "hono";
import type { Env } from "../kernel/env";
import { SEARCH_CSS } from "./assets/search-css";
import { SEARCH_JS } from "./assets/search-js";
import { renderSearchPage } from "./page";

/** Longest `q` / `repo` echoed back into the form; longer values are cut (the API has its own limits). */
const MAX_PREFILL_CHARS = 2000;

/**
 * Content-Security-Policy of the page: only this origin's script, style and API. No inline
 * script or style, so an injected tag could not run even if escaping failed.
 */
export const PAGE_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

function securityHeaders(contentType: string, cache: string): Record<string, string> {
  return {
    "content-type": contentType,
    "cache-control": cache,
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
  };
}

/** Builds the web app; worker/index.ts mounts it at `/`. */
export function createWebApp(): Hono<{ Bindings: Env }> {
  const app = new Hono<{ Bindings: Env }>();
  app.get("/", async (c) => {
    const q = c.req.query("q")?.slice(0, MAX_PREFILL_CHARS);
    const repo = c.req.query("repo")?.slice(0, MAX_PREFILL_CHARS);
    const body = await renderSearchPage({ q, repo });
    return c.body(body.toString(), 200, {
      ...securityHeaders("text/html; charset=utf-8", "no-store"),
      "content-security-policy": PAGE_CSP,
      "x-frame-options": "DENY",
    });
  });
  app.get("/assets/search.js", (c) => c.body(SEARCH_JS, 200, securityHeaders("text/javascript; charset=utf-8", "no-cache")));
  app.get("/assets/search.css", (c) => c.body(SEARCH_CSS, 200, securityHeaders("text/css; charset=utf-8", "no-cache")));
  return app;
}
