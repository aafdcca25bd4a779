/**
 * @module worker/auth/api-tokens
 *
 * API tokens for scripts and headless agents, stored in D1 `api_tokens` (migrations/0002_auth.sql)
 * as SHA-256 digests: the token itself is returned once, by `createApiToken`, and never again.
 * Token strings look like `ccp_<43 base64url chars>` (256 random bits).
 *
 * A verified token is remembered per isolate for API_TOKEN_CACHE_MS (by its digest, never the
 * token itself), which saves a D1 round trip on most requests of a busy client. So a revocation,
 * or an expiry or scope change written to D1 directly, reaches other isolates within that time;
 * the isolate that revokes forgets the token at once. Refusals are not remembered.
 *
 * Least privilege (worker/auth/token-policy.ts): a token is minted within its creator's reach;
 * revoking a token revokes every token it minted, transitively (`created_by` is `token:<id>`).
 */
import { LRUCache } from "lru-cache";
import { CodeSearchError } from "../../kernel/errors";
import { z } from "zod";
import { scopeSchema, type Caller, type Scope } from "../services/context";
import { randomToken, sha256Hex } from "./crypto";
import { boundToCreator, managesAllTokens, type NewApiToken } from "./token-policy";

/** Prefix of every API token; lets secret scanners and `resolveBearer` recognise them. */
export const API_TOKEN_PREFIX = "ccp_";
/** `last_used_at` is written at most this often per token, to keep reads cheap (ms). */
export const LAST_USED_RESOLUTION_MS = 60_000;
/** How long an isolate trusts a verified token without reading D1 again (ms); docs/auth.md, "API tokens for scripts". */
export const API_TOKEN_CACHE_MS = 5_000;
/** Most tokens remembered per isolate (the least recently used goes first). */
const API_TOKEN_CACHE_MAX = 1_000;

/** Verified tokens by SHA-256 digest: the row as read, and when it was read (ms; checked against the caller's clock). */
const verified = new LRUCache<string, { row: ApiTokenRow; readAt: number }>({ max: API_TOKEN_CACHE_MAX });

// The request shape lives with the policy that bounds it (worker/auth/token-policy.ts).
export type { NewApiToken } from "./token-policy";

/** A token as listed to admins: never the secret, never the hash. Times are ms since epoch. */
export const apiTokenInfoSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    scopes: z.array(scopeSchema),
    repos: z.array(z.string()).nullable().describe("Repo ids the token may see; null for every repo"),
    createdBy: z.string(),
    createdAt: z.number().int(),
    expiresAt: z.number().int().nullable(),
    lastUsedAt: z.number().int().nullable(),
    revokedAt: z.number().int().nullable(),
  })
  .meta({ id: "ApiToken" });
export type ApiTokenInfo = z.infer<typeof apiTokenInfoSchema>;

interface ApiTokenRow {
  id: string;
  name: string;
  scopes: string;
  repos: string | null;
  created_by: string;
  created_at: number;
  expires_at: number | null;
  last_used_at: number | null;
  revoked_at: number | null;
}

function toInfo(r: ApiTokenRow): ApiTokenInfo {
  return {
    id: r.id,
    name: r.name,
    scopes: JSON.parse(r.scopes) as Scope[],
    repos: r.repos === null ? null : (JSON.parse(r.repos) as string[]),
    createdBy: r.created_by,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    lastUsedAt: r.last_used_at,
    revokedAt: r.revoked_at,
  };
}

const COLUMNS = "id, name, scopes, repos, created_by, created_at, expires_at, last_used_at, revoked_at";

/**
 * Creates a token within `createdBy`'s reach (`boundToCreator`: omitted repos and expiry are
 * inherited from a limited creator). Returns its info and the secret `token`, which is not
 * stored and cannot be shown again.
 * @throws CodeSearchError `forbidden` beyond the creator's reach, `invalid_input` for a past expiry
 */
export async function createApiToken(db: D1Database, requested: NewApiToken, createdBy: Caller, now: number): Promise<{ token: string; info: ApiTokenInfo }> {
  const input = boundToCreator(requested, createdBy, now);
  const token = API_TOKEN_PREFIX + randomToken(32);
  const id = `tok_${randomToken(9)}`;
  const scopes = [...new Set(input.scopes)];
  const row: ApiTokenRow = {
    id,
    name: input.name,
    scopes: JSON.stringify(scopes),
    repos: input.repos ? JSON.stringify([...new Set(input.repos)]) : null,
    created_by: createdBy.id,
    created_at: now,
    expires_at: input.expiresAt ?? null,
    last_used_at: null,
    revoked_at: null,
  };
  await db
    .prepare("INSERT INTO api_tokens (id, name, token_hash, scopes, repos, created_by, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
    .bind(row.id, row.name, await sha256Hex(token), row.scopes, row.repos, row.created_by, row.created_at, row.expires_at)
    .run();
  return { token, info: toInfo(row) };
}

/** Ids of the tokens `caller` minted, directly or through tokens it minted (a recursive CTE). */
const MINTED_BY = `WITH RECURSIVE minted(id) AS (
  SELECT id FROM api_tokens WHERE created_by = ?1
  UNION SELECT t.id FROM api_tokens t JOIN minted m ON t.created_by = 'token:' || m.id)`;

/**
 * Lists the tokens `caller` may manage (`managesAllTokens`: every token, else those it minted),
 * newest first, without secrets.
 */
export async function listApiTokens(db: D1Database, caller: Caller): Promise<ApiTokenInfo[]> {
  const stmt = managesAllTokens(caller)
    ? db.prepare(`SELECT ${COLUMNS} FROM api_tokens ORDER BY created_at DESC, id`)
    : db.prepare(`${MINTED_BY} SELECT ${COLUMNS} FROM api_tokens WHERE id IN (SELECT id FROM minted) ORDER BY created_at DESC, id`).bind(caller.id);
  const { results } = await stmt.all<ApiTokenRow>();
  return results.map(toInfo);
}

/**
 * Revokes a token and every token minted from it, transitively; they stop working at once in
 * this isolate (within API_TOKEN_CACHE_MS elsewhere). Returns the token's info and the ids of
 * the minted tokens revoked with it.
 * @throws CodeSearchError `not_found` (404) when no such token exists or `caller` may not manage it
 */
export async function revokeApiToken(db: D1Database, id: string, now: number, caller: Caller): Promise<ApiTokenInfo & { alsoRevoked: string[] }> {
  const notFound = () => new CodeSearchError("not_found", `No API token "${id}" that you manage; GET /api/tokens lists them.`);
  if (!managesAllTokens(caller)) {
    const mine = await db.prepare(`${MINTED_BY} SELECT 1 AS ok FROM minted WHERE id = ?2`).bind(caller.id, id).first();
    if (!mine) throw notFound();
  }
  const { results } = await db
    .prepare(
      `WITH RECURSIVE tree(id) AS (SELECT ?1 UNION SELECT t.id FROM api_tokens t JOIN tree ON t.created_by = 'token:' || tree.id)
       UPDATE api_tokens SET revoked_at = coalesce(revoked_at, ?2) WHERE id IN (SELECT id FROM tree) RETURNING ${COLUMNS}`,
    )
    .bind(id, now)
    .all<ApiTokenRow>();
  const ids = new Set(results.map((r) => r.id));
  for (const [hash, v] of verified.entries()) if (ids.has(v.row.id)) verified.delete(hash);
  const row = results.find((r) => r.id === id);
  if (!row) throw notFound();
  return { ...toInfo(row), alsoRevoked: results.filter((r) => r.id !== id).map((r) => r.id) };
}

/** Why a presented API token was refused. */
export type ApiTokenRejection = "unknown" | "expired" | "revoked";

/**
 * Looks a presented token up by its digest. Returns the caller it stands for, or why it was
 * refused. Records the last use (at most once a minute) through `defer`, so the answer is not delayed.
 */
export async function verifyApiToken(
  db: D1Database,
  token: string,
  now: number,
  defer: (p: Promise<unknown>) => void,
): Promise<{ caller: Caller } | { rejected: ApiTokenRejection }> {
  if (!token.startsWith(API_TOKEN_PREFIX)) return { rejected: "unknown" };
  const hash = await sha256Hex(token);
  const cached = verified.get(hash);
  let row: ApiTokenRow | null;
  if (cached && now - cached.readAt < API_TOKEN_CACHE_MS && now >= cached.readAt) row = cached.row;
  else {
    verified.delete(hash);
    row = await db.prepare(`SELECT ${COLUMNS} FROM api_tokens WHERE token_hash = ?`).bind(hash).first<ApiTokenRow>();
    if (row && row.revoked_at === null) verified.set(hash, { row, readAt: now });
  }
  if (!row) return { rejected: "unknown" };
  if (row.revoked_at !== null) return { rejected: "revoked" };
  if (row.expires_at !== null && row.expires_at <= now) return { rejected: "expired" };
  if (row.last_used_at === null || now - row.last_used_at >= LAST_USED_RESOLUTION_MS) {
    // Recorded on the remembered row too, so a cached token is not written on every request.
    row.last_used_at = now;
    defer(db.prepare("UPDATE api_tokens SET last_used_at = ? WHERE id = ?").bind(now, row.id).run());
  }
  return { caller: tokenCaller(row) };
}

function tokenCaller(row: ApiTokenRow): Caller {
  const info = toInfo(row);
  const caller: Caller = { id: `token:${info.id}`, kind: "api-token", scopes: info.scopes, repos: info.repos ?? "*", credential: `token:${info.id}` };
  if (info.expiresAt !== null) caller.expiresAt = info.expiresAt;
  return caller;
}

/**
 * The caller API token `id` stands for right now (read from D1, never cached), or why it no
 * longer works. Source links minted under the token check it when opened.
 */
export async function apiTokenCallerById(db: D1Database, id: string, now: number): Promise<{ caller: Caller } | { rejected: ApiTokenRejection }> {
  const row = await db.prepare(`SELECT ${COLUMNS} FROM api_tokens WHERE id = ?`).bind(id).first<ApiTokenRow>();
  if (!row) return { rejected: "unknown" };
  if (row.revoked_at !== null) return { rejected: "revoked" };
  if (row.expires_at !== null && row.expires_at <= now) return { rejected: "expired" };
  return { caller: tokenCaller(row) };
}
