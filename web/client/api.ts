/**
 * Same-origin calls to the REST API with the web session cookie (worker/auth), and the
 * account line in the page header. Error messages shown to people are written here from the
 * error code; the API's own message is used only where it is about the input or about the
 * model API (overloaded, refused, timed out: the reason the CLI shows too).
 */
import { byId, el } from "./dom";
import { errorWords } from "./repo-status";

/** What `GET /auth/session` answers for a signed-in browser. */
export interface Session {
  login: string;
  csrfToken: string;
  caller: { id: string; scopes: string[]; repos: string[] | "*" };
}

/** A JSON answer: `ok`, HTTP status and the parsed body (null when it was not JSON). */
export interface JsonReply<T = unknown> {
  ok: boolean;
  status: number;
  body: T | null;
}

/** An API error body. */
export interface ApiErrorBody {
  error?: { code?: string; message?: string };
}

let session: Session | null = null;

/** Fetches JSON same-origin; never throws for HTTP errors (a network failure becomes status 0). */
export async function getJson<T = unknown>(url: string, init: RequestInit = {}): Promise<JsonReply<T>> {
  let res: Response;
  try {
    res = await fetch(url, { credentials: "same-origin", ...init });
  } catch {
    return { ok: false, status: 0, body: null };
  }
  let body: T | null;
  try {
    body = (await res.json()) as T;
  } catch {
    body = null; // not JSON (e.g. an HTML error page from a proxy)
  }
  return { ok: res.ok, status: res.status, body };
}

/** Sends JSON (or a raw body) with the session's CSRF token, as the API requires for cookie callers. */
export function sendJson<T = unknown>(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<JsonReply<T>> {
  const h: Record<string, string> = { "x-csrf-token": session?.csrfToken ?? "", ...headers };
  let payload: BodyInit | undefined;
  if (body instanceof Blob || body instanceof ArrayBuffer || body instanceof Uint8Array) payload = body as BodyInit;
  else if (body !== undefined) {
    h["content-type"] = "application/json";
    payload = JSON.stringify(body);
  }
  return getJson<T>(url, { method, headers: h, body: payload });
}

/** Words for a failed reply, for people (no tool or route names). */
export function errorText(r: JsonReply<unknown>): string {
  const e = (r.body as ApiErrorBody | null)?.error;
  switch (e?.code) {
    case "unauthorized":
      return "You are signed out. Sign in (top right) and try again.";
    case "forbidden":
      return "Your account is not allowed to do this; ask an admin for the permission.";
    case "index_not_ready":
      return "This repository has no finished index yet. Its progress is on the Repositories page.";
    case "rate_limited":
      return "Too many searches in a short time; wait a minute and try again.";
    case "repo_not_found":
      return "That repository does not exist, or you cannot see it. The Repositories page lists yours.";
    case "file_not_found":
      return "That file is not in the repository's current index.";
    case "ref_not_found": {
      // The server's message names the tracked refs, then how to add one over the API or what to pass (not for this page).
      const tracked = /Tracked refs: (.*?)\. (?:To add one|Pass one)/.exec(e.message ?? "")?.[1];
      const not = "This repository does not track that branch or tag, or has not indexed it yet";
      return `${not}${tracked ? ` (tracked: ${tracked})` : ""}. Pick one from the Branch or tag list.`;
    }
    case "invalid_input":
    case "query_invalid":
      return e.message ? `Check the input: ${errorWords(e.message)}` : "Check the input and try again.";
    // The model API's failures: the server's message says which (overloaded, credentials
    // refused, timed out, unreachable) and what to do; it names no route or tool.
    case "generation_failed":
    case "generation_unavailable":
    case "budget_exhausted":
      if (e.message) return e.message;
  }
  if (r.status === 0) return "The server did not answer. Is it running?";
  if (r.status >= 500) return "Something went wrong on the server; try again in a moment.";
  return errorWords(e?.message ?? null) ?? `The request failed (HTTP ${r.status}).`;
}

/** The signed-in session, or null. */
export function currentSession(): Session | null {
  return session;
}

/** True when the signed-in caller holds `scope` (admin holds every scope). */
export function hasScope(scope: string): boolean {
  return !!session && (session.caller.scopes.includes(scope) || session.caller.scopes.includes("admin"));
}

/** The session request in flight (or done), so callers that need the session can wait for it. */
let sessionLoading: Promise<Session | null> | null = null;

/** Loads the session and shows it in `#account` (sign-in link or "Signed in as" with sign-out). */
export function loadSession(): Promise<Session | null> {
  sessionLoading = fetchSession();
  return sessionLoading;
}

async function fetchSession(): Promise<Session | null> {
  const account = byId("account");
  const r = await getJson<Session>("/auth/session");
  if (!r.ok || !r.body) {
    session = null;
    // Back to this page after signing in: the URL holds the search and its filters (read at
    // click time, since the query is written into the URL as it changes).
    const signIn = el("a", { href: "/login", text: "Sign in" });
    signIn.addEventListener("click", () => {
      signIn.href = `/login?next=${encodeURIComponent(location.pathname + location.search + location.hash)}`;
    });
    account.replaceChildren(el("span", { text: "Not signed in." }), signIn);
    return null;
  }
  session = r.body;
  const logout = el("form", { method: "post", action: "/logout" }, [
    el("input", { type: "hidden", name: "csrf", value: session.csrfToken }),
    el("button", { type: "submit", className: "linkish", text: "Sign out" }),
  ]);
  account.replaceChildren(el("span", { text: `Signed in as ${session.login}` }), logout);
  return session;
}

/** Asks the server for a signed link to lines of a file (`POST /api/source-links`), at `ref` when given; null on failure. */
export async function signedSourceUrl(repo: string, path: string, startLine?: number, endLine?: number, ref?: string | null): Promise<string | null> {
  // Results can be drawn before the session has loaded (they share no request): wait for it.
  if (!session && sessionLoading) await sessionLoading;
  if (!session) return null;
  const r = await sendJson<{ url: string }>("POST", "/api/source-links", { repo, path, startLine, endLine, ...(ref ? { ref } : {}) });
  return r.ok && r.body && typeof r.body.url === "string" ? r.body.url : null;
}
