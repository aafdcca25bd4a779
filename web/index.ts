/**
 * @module web
 *
 * The web pages: search (`/`), repositories (`/repos`) and the source view (served by
 * worker/auth/routes/source.ts), server-rendered shells (hono/html) plus bundled TypeScript
 * from web/client/ that calls the REST API same-origin with the signed-in web session.
 */
export { createWebApp, PAGE_CSP, webPageHeaders } from "./app";
export { renderSearchPage, type SearchPageOptions } from "./page";
export { renderSourcePage, type OutlineEntry, type SourcePageOptions } from "./source-page";
