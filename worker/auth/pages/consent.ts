/**
 * @module worker/auth/pages/consent
 *
 * The OAuth consent page at /authorize: which app asks, where tokens go, which scopes, and,
 * for the local provider, the admin token field. Shows what the MCP authorization spec asks
 * for (client name, redirect host, a warning for loopback redirects).
 */
import type { ConsentDescription } from "@cloudflare/workers-oauth-provider";
import { html } from "hono/html";
import type { Scope } from "../../services/context";
import type { AuthProviderKind } from "../config";
import { layout } from "./layout";

/** Inputs of the consent page. `handle` is the library's single-use consent handle. */
export interface ConsentPageOptions {
  details: ConsentDescription;
  /** What each kind of identity will be granted (worker/auth/caller.ts grantedScopes). */
  grants: { who: string; scopes: Scope[] }[];
  handle: string;
  provider: AuthProviderKind;
  /** Shown above the form, e.g. after a wrong admin token. */
  error?: string;
}

/** Renders the consent page. */
export function consentPage({ details, grants, handle, provider, error }: ConsentPageOptions) {
  const origin = details.clientDomain ? html`Published by <strong>${details.clientDomain}</strong>.` : html`This app registered itself; its name is not verified.`;
  return layout(
    `Authorize ${details.clientName}`,
    html`<h1>Allow <strong>${details.clientName}</strong> to search your code?</h1>
      <p>${origin} Access will be sent to <strong>${details.redirectHost}</strong>.</p>
      ${details.redirectIsLoopback
        ? html`<p class="warn"><strong>This sends access to an app on your computer.</strong> Continue only if you just started signing in from it.</p>`
        : ""}
      <p>Requested scopes: ${details.scope.length ? details.scope.join(", ") : "(none named: search is granted)"}.</p>
      <ul class="grants">
        ${grants.map((g) => html`<li>Granted to ${g.who}: <strong>${g.scopes.length ? g.scopes.join(", ") : "nothing (sign-in will fail)"}</strong></li>`)}
      </ul>
      <p>search reads indexed code; index adds and refreshes repos; admin also manages tokens and deletes repos.</p>
      ${error ? html`<p class="error">${error}</p>` : ""}
      <form method="post">
        <input type="hidden" name="handle" value="${handle}" />
        ${provider === "local"
          ? html`<p><label>Local admin token (printed by <code>npm start</code>, also in <code>.codebase-copilot/admin-token</code>)<br />
              <input type="password" name="admin_token" autocomplete="off" required /></label></p>`
          : html`<p>You will sign in with GitHub next.</p>`}
        <p><button name="decision" value="approve">Allow</button><button name="decision" value="deny" formnovalidate>Deny</button></p>
      </form>`,
  );
}
