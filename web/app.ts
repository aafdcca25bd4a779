/**
 * Routes of the web pages: `GET /` (search), `GET /repos` (repositories) and the bundled
 * browser code under `/assets/` (web/client/, built by scripts/build-web.ts into
 * web/assets/bundle.gen.ts). The pages hold no data; their scripts call the REST API
 * same-origin with the web session (worker/auth), so the pages need no authentication.
 * The source view is served by worker/auth/routes/source.ts (signed links) with
 * renderSourcePage.
 */
import { Hono } from "hono";
import type { Env } from "../kernel/env";
import { WEB_ASSETS } from "./assets/bundle.gen";
import { stateFromParams, stateToApiParams } from "./client/query-state";
import { renderSearchPage } from "./page";
import { renderReposPage } from "./repos-page";

/** Longest `q` / `repo` / `path` echoed back into the form; longer values are cut (the API has its own limits). */
const MAX_PREFILL_CHARS = 2000;

/**
 * Content-Security-Policy of the pages: only this origin's script, style and API. No inline
 * script or style, so an injected tag could not run even if escaping failed.
 */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

function securityHeaders(contentType: string, cache: string): Record<string, string> {
  return {
    "content-type": contentType,
    "cache-control": cache,
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
  };
}

/** Headers of every web page (HTML): the CSP, no framing, no caching. */
export function webPageHeaders(): Headers {
  return new Headers({ ...securityHeaders("text/html; charset=utf-8", "no-store"), "content-security-policy": PAGE_CSP, "x-frame-options": "DENY" });
}

/**
 * The search request web/client/search.ts sends first for these page parameters (the same
 * functions build it, so the URLs match and the browser reuses the preloaded answer), or
 * undefined when there is no query to run.
 */
function searchApiUrl(params: URLSearchParams): string | undefined {
  const state = stateFromParams(params);
  return state.q.trim() ? `/api/search?${stateToApiParams(state, { explain: true }).toString()}` : undefined;
}

/** Builds the web app; worker/index.ts mounts it at `/`. */
export function createWebApp(): Hono<{ Bindings: Env }> {
  const app = new Hono<{ Bindings: Env }>();
  app.get("/", async (c) => {
    const p = (name: string) => c.req.query(name)?.slice(0, MAX_PREFILL_CHARS);
    const body = await renderSearchPage({
      q: p("q"),
      repo: p("repo"),
      language: p("language"),
      path: p("path"),
      includeTests: ["1", "true"].includes(p("tests") ?? ""),
      mode: p("mode"),
      tab: p("tab") === "ask" ? "ask" : "search",
      searchApiUrl: searchApiUrl(new URL(c.req.url).searchParams),
    });
    return new Response(body.toString(), { status: 200, headers: webPageHeaders() });
  });
  app.get("/repos", async () => new Response((await renderReposPage()).toString(), { status: 200, headers: webPageHeaders() }));
  app.get("/assets/:name", (c) => {
    const asset = Object.hasOwn(WEB_ASSETS, c.req.param("name")) ? WEB_ASSETS[c.req.param("name")] : undefined;
    if (!asset) return c.text("Not found", 404);
    // Every asset is named by its content hash (scripts/build-web.ts): a name never changes
    // content, and a deploy changes the names the pages refer to.
    const cache = "public, max-age=31536000, immutable";
    if (c.req.header("if-none-match") === asset.etag) return new Response(null, { status: 304, headers: { etag: asset.etag, "cache-control": cache } });
    return c.body(asset.body, 200, { ...securityHeaders(asset.type, cache), etag: asset.etag });
  });
  return app;
}
