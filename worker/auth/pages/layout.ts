/**
 * @module worker/auth/pages/layout
 *
 * Shared frame of the server-rendered auth pages. `hono/html` escapes every interpolated value,
 * which matters: client names, scopes and redirect hosts come from untrusted registrations.
 */
import { html } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import { authPagePolicy } from "./csp";

type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

/** Wraps a page body in the document frame (no scripts, no external resources). */
export function layout(title: string, body: Html): Html {
  return html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="referrer" content="no-referrer" />
    <title>${title} · Codebase Copilot</title>
    <style>
      body { font: 16px/1.5 system-ui, sans-serif; max-width: 34rem; margin: 3rem auto; padding: 0 1rem; color: #1d1d1f; }
      h1 { font-size: 1.4rem; } .warn { background: #fff4e5; padding: .6rem .8rem; border-radius: 6px; }
      .error { background: #fde8e8; padding: .6rem .8rem; border-radius: 6px; }
      input[type=password] { width: 100%; padding: .4rem; font: inherit; } button { font: inherit; padding: .4rem 1rem; margin-right: .5rem; }
      code { background: #f2f2f2; padding: 0 .2rem; border-radius: 3px; }
    </style>
  </head>
  <body>
    ${body}
  </body>
</html>`;
}

/** A page that only says something (errors, refusals). */
export function messagePage(title: string, message: string): Html {
  return layout(title, html`<h1>${title}</h1><p>${message}</p>`);
}

/**
 * Headers every auth page is sent with: no framing, no caching, no content sniffing, and a CSP
 * whose `form-action` allows this origin plus `formAction` (worker/auth/pages/csp.ts).
 */
export function pageHeaders(extra?: Headers, formAction: readonly string[] = []): Headers {
  const h = new Headers(extra);
  h.set("content-type", "text/html; charset=utf-8");
  h.set("cache-control", "no-store");
  h.set("x-frame-options", "DENY");
  h.set("content-security-policy", authPagePolicy(formAction));
  h.set("x-content-type-options", "nosniff");
  return h;
}
