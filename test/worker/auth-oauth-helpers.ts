/**
 * OAuth steps the least-privilege tests take by hand (no SDK in between, so each request is the
 * one under test): register a client, open the consent page, approve with the local admin
 * token, exchange the code with PKCE, refresh.
 */
import { env, SELF } from "cloudflare:test";
import { browse, CookieJar, hiddenInput, ORIGIN, postForm } from "./auth-helpers";

/** Default loopback callback of the test clients. */
export const CALLBACK = "http://127.0.0.1:33418/callback";

/** base64url(SHA-256(verifier)): the S256 PKCE challenge. */
export async function s256(verifier: string): Promise<string> {
  const d = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  return btoa(String.fromCharCode(...d))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** POST /oauth/register with a JSON body; `ip` is sent as CF-Connecting-IP. */
export function registerRaw(body: unknown, ip?: string): Promise<Response> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (ip) headers["cf-connecting-ip"] = ip;
  return SELF.fetch(`${ORIGIN}/oauth/register`, { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) });
}

/** Registers a public client (or a confidential one) and returns its id and secret. */
export async function registerClient(
  o: { redirect?: string; authMethod?: "none" | "client_secret_basic" } = {},
): Promise<{ clientId: string; clientSecret?: string }> {
  const res = await registerRaw({
    client_name: "least privilege test",
    redirect_uris: [o.redirect ?? CALLBACK],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: o.authMethod ?? "none",
  });
  if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${await res.text()}`);
  const info = await res.json<{ client_id: string; client_secret?: string }>();
  return { clientId: info.client_id, clientSecret: info.client_secret };
}

/** An /authorize URL; `pkce: false` leaves out the code challenge. */
export async function authorizeUrl(
  clientId: string,
  o: { scope?: string; redirect?: string; verifier?: string; pkce?: boolean; responseType?: string } = {},
): Promise<string> {
  const u = new URL(`${ORIGIN}/authorize`);
  u.searchParams.set("response_type", o.responseType ?? "code");
  u.searchParams.set("client_id", clientId);
  u.searchParams.set("redirect_uri", o.redirect ?? CALLBACK);
  u.searchParams.set("state", "st-123");
  u.searchParams.set("resource", `${ORIGIN}/mcp`);
  if (o.scope !== undefined) u.searchParams.set("scope", o.scope);
  if (o.pkce !== false) {
    u.searchParams.set("code_challenge", await s256(o.verifier ?? "v".repeat(50)));
    u.searchParams.set("code_challenge_method", "S256");
  }
  return u.toString();
}

/** Opens the consent page and approves it; returns the page and the redirect back to the client. */
export async function approve(url: string): Promise<{ page: Response; html: string; back: URL }> {
  const jar = new CookieJar();
  const page = await browse(jar, url);
  const html = await page.text();
  if (page.status !== 200) throw new Error(`consent page ${page.status}: ${html.slice(0, 300)}`);
  const res = await postForm(jar, "/authorize", { handle: hiddenInput(html, "handle"), decision: "approve", admin_token: env.ADMIN_TOKEN! });
  if (res.status !== 302) throw new Error(`approve answered ${res.status}: ${await res.text()}`);
  return { page, html, back: new URL(res.headers.get("location")!) };
}

/** Token endpoint response. */
export interface TokenResponse {
  access_token: string;
  refresh_token: string;
  scope: string;
}

/** POST /oauth/token with form fields (and HTTP Basic client auth when `basic` is given). */
export function tokenRequest(fields: Record<string, string>, basic?: { id: string; secret: string }): Promise<Response> {
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
  if (basic) headers.authorization = `Basic ${btoa(`${basic.id}:${basic.secret}`)}`;
  return SELF.fetch(`${ORIGIN}/oauth/token`, { method: "POST", headers, body: new URLSearchParams(fields).toString() });
}

/** Registers a public client, signs in with `scope` and exchanges the code: the tokens. */
export async function signIn(scope?: string): Promise<{ clientId: string; tokens: TokenResponse; consentHtml: string; consent: Response }> {
  const { clientId } = await registerClient();
  const verifier = "w".repeat(64);
  const { back, html, page } = await approve(await authorizeUrl(clientId, { scope, verifier }));
  const res = await tokenRequest({
    grant_type: "authorization_code",
    code: back.searchParams.get("code")!,
    redirect_uri: CALLBACK,
    client_id: clientId,
    code_verifier: verifier,
    resource: `${ORIGIN}/mcp`,
  });
  if (res.status !== 200) throw new Error(`code exchange ${res.status}: ${await res.text()}`);
  return { clientId, tokens: await res.json<TokenResponse>(), consentHtml: html, consent: page };
}

/** Uses a refresh token. */
export function refresh(clientId: string, refreshToken: string): Promise<Response> {
  return tokenRequest({ grant_type: "refresh_token", refresh_token: refreshToken, client_id: clientId });
}

/** GET with a bearer token. */
export function getWith(token: string, path: string): Promise<Response> {
  return SELF.fetch(`${ORIGIN}${path}`, { headers: { authorization: `Bearer ${token}` } });
}
