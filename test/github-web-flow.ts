/**
 * GitHub's OAuth web flow for the fake code host (test/code-host-server.ts), under
 * `/github-web` (the Worker's GITHUB_BASE_URL; the API stays at `/github`, GITHUB_API_URL):
 *
 * - `GET /github-web/login/oauth/authorize?client_id&redirect_uri&state&code_challenge...`: a
 *   sign-in page asking for a login, as github.com asks who you are;
 * - `GET /github-web/login/oauth/grant?login&...` (that page's form): redirects to
 *   `redirect_uri?code&state`;
 * - `POST /github-web/login/oauth/access_token` (form: client_id, code, code_verifier ...):
 *   `{access_token}` when the code is known and the verifier matches its S256 challenge
 *   (RFC 7636), else `{error: "bad_verification_code"}` as GitHub answers.
 *
 * A token it issues is registered with `onToken(token, login)`, so the fake API's `GET /user`
 * answers that login. Codes are single-use.
 */
import { createHash, randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

/** Codes handed out and not yet exchanged: who signed in and the PKCE challenge they came with. */
const codes = new Map<string, { login: string; challenge: string; clientId: string }>();

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    req.on("data", (d) => (text += d));
    req.on("end", () => resolve(text));
    req.on("error", reject);
  });
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The sign-in page: every query parameter of the authorize request travels on as a hidden field. */
function signInPage(url: URL): string {
  const hidden = [...url.searchParams].map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`).join("");
  return `<!doctype html><html lang="en"><title>Sign in to GitHub (fake)</title><main><h1>Sign in to GitHub</h1>
<form method="get" action="/github-web/login/oauth/grant">${hidden}<label>Username <input name="login" autocomplete="off"></label> <button type="submit">Sign in</button></form></main></html>`;
}

/** Answers a request under `/github-web/`; returns the HTTP status sent. */
export async function githubWebFlow(req: IncomingMessage, res: ServerResponse, url: URL, onToken: (token: string, login: string) => void): Promise<number> {
  const path = url.pathname.slice("/github-web".length);
  if (req.method === "GET" && path === "/login/oauth/authorize") {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(signInPage(url));
    return 200;
  }
  if (req.method === "GET" && path === "/login/oauth/grant") {
    const q = url.searchParams;
    const login = q.get("login") ?? "";
    const redirect = q.get("redirect_uri") ?? "";
    if (!login || !redirect || q.get("code_challenge_method") !== "S256") {
      res.writeHead(400, { "content-type": "text/plain" }).end("login, redirect_uri and an S256 code_challenge are required");
      return 400;
    }
    const code = randomBytes(10).toString("hex");
    codes.set(code, { login, challenge: q.get("code_challenge") ?? "", clientId: q.get("client_id") ?? "" });
    const back = new URL(redirect);
    back.searchParams.set("code", code);
    back.searchParams.set("state", q.get("state") ?? "");
    res.writeHead(302, { location: back.toString() }).end();
    return 302;
  }
  if (req.method === "POST" && path === "/login/oauth/access_token") {
    const form = new URLSearchParams(await readBody(req));
    const grant = codes.get(form.get("code") ?? "");
    codes.delete(form.get("code") ?? "");
    const verifier = form.get("code_verifier") ?? "";
    const ok = grant && grant.clientId === form.get("client_id") && createHash("sha256").update(verifier).digest("base64url") === grant.challenge;
    const body = ok ? { access_token: `gho_${randomBytes(16).toString("hex")}`, token_type: "bearer", scope: "read:org" } : { error: "bad_verification_code" };
    if (ok) onToken(body.access_token!, grant.login);
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    return 200;
  }
  res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ message: "Not Found" }));
  return 404;
}
