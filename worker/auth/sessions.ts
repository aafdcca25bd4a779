/**
 * @module worker/auth/sessions
 *
 * Web sessions after an upstream login. The browser holds a random session id in a
 * `__Host-` cookie (HttpOnly, Secure, SameSite=Lax, Path=/); D1 `sessions` holds its SHA-256,
 * the caller and a CSRF synchronizer token. State-changing requests authenticated by the cookie
 * must echo that token (form field `csrf` or header `x-csrf-token`).
 */
import type { Caller } from "../services/context";
import { randomToken, sha256Hex, timingSafeEqualText } from "./crypto";

/** Cookie holding the session id. `__Host-` forces Secure, Path=/ and no Domain (RFC 6265bis). */
export const SESSION_COOKIE = "__Host-ccp_session";
/** Header a script on the web page sends the CSRF token in. */
export const CSRF_HEADER = "x-csrf-token";

/** A live session. Times are ms since epoch. */
export interface Session {
  caller: Caller;
  login: string;
  csrfToken: string;
  expiresAt: number;
  /** SHA-256 hex of the cookie's id: the row's key and the sealing context of `upstream`. */
  idHash?: string;
  /** The person's sealed GitHub token (migration 0030); undefined for local sign-ins. */
  upstream?: string;
  /** When membership was last proven (ms): the sign-in, then each passing re-check. */
  checkedAt?: number;
}

/**
 * Creates a session; returns it and the Set-Cookie header value. `sealUpstream`, for a code-host
 * sign-in, seals the person's token for the new row's id hash (worker/permissions/session-recheck.ts).
 */
export async function createSession(
  db: D1Database,
  caller: Caller,
  login: string,
  ttlSeconds: number,
  now: number,
  sealUpstream?: (idHash: string) => Promise<string>,
): Promise<{ session: Session; setCookie: string }> {
  const id = randomToken(32);
  const idHash = await sha256Hex(id);
  const upstream = sealUpstream ? await sealUpstream(idHash) : undefined;
  const session: Session = {
    caller: { ...caller, kind: "session" },
    login,
    csrfToken: randomToken(24),
    expiresAt: now + ttlSeconds * 1000,
    idHash,
    upstream,
    checkedAt: now,
  };
  // Opportunistic cleanup keeps the table small without a cron trigger.
  await db.batch([
    db.prepare("DELETE FROM sessions WHERE expires_at <= ?").bind(now),
    db
      .prepare("INSERT INTO sessions (id_hash, caller, login, csrf_token, created_at, expires_at, upstream, checked_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
      .bind(idHash, JSON.stringify(session.caller), login, session.csrfToken, now, session.expiresAt, upstream ?? null, now),
  ]);
  return { session, setCookie: `${SESSION_COOKIE}=${id}; Path=/; Max-Age=${ttlSeconds}; HttpOnly; Secure; SameSite=Lax` };
}

/** Set-Cookie value that removes the session cookie. */
export const CLEAR_SESSION_COOKIE = `${SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; Secure; SameSite=Lax`;

/** Reads the session id from a Cookie header, if any. */
export function sessionIdFrom(request: Request): string | undefined {
  const header = request.headers.get("cookie") ?? "";
  for (const part of header.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === SESSION_COOKIE) return rest.join("=") || undefined;
  }
  return undefined;
}

/** Loads the live session a request's cookie names, or undefined. */
export async function readSession(db: D1Database, request: Request, now: number): Promise<Session | undefined> {
  const id = sessionIdFrom(request);
  if (!id || !/^[A-Za-z0-9_-]{20,100}$/.test(id)) return undefined;
  const hash = await sha256Hex(id);
  const row = await sessionRow(db, hash, now);
  if (!row) return undefined;
  return {
    caller: { ...(JSON.parse(row.caller) as Caller), credential: `session:${hash}` },
    login: row.login,
    csrfToken: row.csrf_token,
    expiresAt: row.expires_at,
    idHash: hash,
    upstream: row.upstream ?? undefined,
    checkedAt: row.checked_at ?? undefined,
  };
}

/** A `sessions` row as read (migrations 0002, 0030); times in ms since epoch. */
export interface SessionRow {
  caller: string;
  login: string;
  csrf_token: string;
  created_at: number;
  expires_at: number;
  upstream: string | null;
  checked_at: number | null;
}

/** The live session row with digest `hash` (sha-256 hex of the cookie's id), or null. */
export async function sessionRow(db: D1Database, hash: string, now: number): Promise<SessionRow | null> {
  return db
    .prepare("SELECT caller, login, csrf_token, created_at, expires_at, upstream, checked_at FROM sessions WHERE id_hash = ? AND expires_at > ?")
    .bind(hash, now)
    .first<SessionRow>();
}

/** Ends the session a request's cookie names (no-op without one). */
export async function deleteSession(db: D1Database, request: Request): Promise<void> {
  const id = sessionIdFrom(request);
  if (id)
    await db
      .prepare("DELETE FROM sessions WHERE id_hash = ?")
      .bind(await sha256Hex(id))
      .run();
}

/** Methods that change state and so need a CSRF token when authenticated by cookie. */
export function isStateChanging(method: string): boolean {
  return !["GET", "HEAD", "OPTIONS"].includes(method.toUpperCase());
}

/** Whether `presented` is the session's CSRF token (constant-time). */
export async function csrfMatches(session: Session, presented: string | null | undefined): Promise<boolean> {
  return !!presented && (await timingSafeEqualText(presented, session.csrfToken));
}
