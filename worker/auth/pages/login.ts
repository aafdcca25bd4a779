/**
 * @module worker/auth/pages/login
 *
 * The web sign-in page (/login) for the local provider: asks for the local admin token. With
 * GitHub, /login redirects straight to GitHub instead. `nonce` is the login-CSRF double-submit
 * value, also set as a cookie; `next` the page to return to (worker/auth/return-to.ts).
 */
import { html } from "hono/html";
import { layout } from "./layout";

/** Renders the local sign-in form; `next` (a checked path on this origin) comes back with the post. */
export function localLoginPage(nonce: string, error?: string, next = "/") {
  return layout(
    "Sign in",
    html`<h1>Sign in to Codebase Copilot</h1>
      ${error ? html`<p class="error">${error}</p>` : ""}
      <form method="post" action="/login">
        <input type="hidden" name="nonce" value="${nonce}" />
        <input type="hidden" name="next" value="${next}" />
        <p><label>Local admin token (printed by <code>npm start</code>, also in <code>.codebase-copilot/admin-token</code>)<br />
          <input type="password" name="admin_token" autocomplete="off" required /></label></p>
        <p><button>Sign in</button></p>
      </form>`,
  );
}
