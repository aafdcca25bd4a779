/**
 * @module web
 *
 * The small web search page served at `/`: a server-rendered form (hono/html) plus a script
 * that calls `GET /api/search` same-origin with the signed-in web session.
 */
export { createWebApp, PAGE_CSP } from "./app";
export { renderSearchPage, type SearchPageOptions } from "./page";
