/**
 * @module worker/services/connections
 *
 * Connections (docs/connections.md): every repository of a GitHub organisation or user, or a
 * GitLab group or user, registered as git repos and kept in sync by the Cron Trigger
 * (worker/connections/sync.ts). Create, list, show, sync now, delete. Every function needs the
 * `admin` scope over every repo (`requireConnectionAdmin`): a connection holds a code-host
 * token, adds repos on its own and removes them (deleting a repo is `admin`,
 * worker/services/repos.ts), names repos of the whole owner, and its webhook secret triggers
 * re-indexing (as a repo's, worker/webhooks/secrets.ts). An admin token limited to some repos
 * could otherwise see, create and delete repos outside its list through a connection.
 *
 * Creation checks synchronously what a user can get wrong (the base URL against the outbound
 * host guard, the token, the owner), so those come back as 4xx at once; then it lists the
 * owner's repositories and runs the first sync.
 */
import type { z } from "zod";
import { classifyHost, describeHostClass, isFetchableUrl } from "../../indexer/source/host-guard";
import { CodeSearchError } from "../../kernel/errors";
import { fullRefPattern } from "../../indexer/source/ref-patterns";
import { parsePatterns } from "./repo-status";
import { randomToken } from "../auth/crypto";
import { slugRepoId } from "./repos";
import { codeHostClient, DEFAULT_GRACE_SECONDS, syncConnection } from "../connections/sync";
import {
  connectionRepoRows,
  getConnectionRow,
  listConnectionRows,
  sealConnectionSecret,
  TOKEN_PURPOSE,
  WEBHOOK_PURPOSE,
  type ConnectionRepoRow,
  type ConnectionRow,
} from "../connections/store";
import { DEFAULT_BASE_URL, type Provider } from "../connections/types";
import {
  connectionCreatedSchema,
  connectionDetailSchema,
  connectionRepoSchema,
  connectionSchema,
  createConnectionInput,
  deleteConnectionResultSchema,
  syncResultSchema,
  type ConnectionCreated,
  type ConnectionView,
  type CreateConnectionInput,
} from "./connections-schema";
import { removeRepo } from "./repos";
import { requireScope, type Caller, type ServiceContext } from "./context";

export { connectionCreatedSchema, connectionDetailSchema, connectionSchema, createConnectionInput, deleteConnectionResultSchema, syncResultSchema };
export type { ConnectionCreated, ConnectionView };

/** Longest rate-limit wait slept inside an API request (ms); the Cron Trigger allows more (worker/schedule/run.ts). */
export const API_MAX_RATE_LIMIT_WAIT_MS = 10_000;

function stateOf(r: ConnectionRepoRow): z.infer<typeof connectionRepoSchema>["state"] {
  if (r.missing_since !== null) return "missing";
  if (r.skip_reason !== null) return "skipped";
  return r.registered_at !== null ? "registered" : "waiting";
}

function viewOf(row: ConnectionRow, repos: ConnectionRepoRow[]): ConnectionView {
  const counts = { total: repos.length, registered: 0, waiting: 0, missing: 0, skipped: 0 };
  for (const r of repos) counts[stateOf(r)]++;
  return {
    id: row.id,
    provider: row.provider,
    owner: row.owner,
    ownerKind: row.owner_kind,
    baseUrl: row.base_url,
    include: JSON.parse(row.include_json),
    exclude: JSON.parse(row.exclude_json),
    forks: !!row.forks,
    archived: !!row.archived,
    refs: parsePatterns(row.ref_patterns),
    gracePeriodHours: row.grace_seconds / 3600,
    hasToken: row.token_sealed !== null,
    createdAt: row.created_at,
    lastSyncedAt: row.last_synced_at,
    lastError: row.last_error,
    repos: counts,
  };
}

/** Checks and normalises a base URL: http(s), a host the outbound guard allows, no credentials. Throws `invalid_input`. */
function checkBaseUrl(raw: string, allowLoopback: boolean): string {
  const u = new URL(raw);
  if (u.protocol !== "http:" && u.protocol !== "https:") throw new CodeSearchError("invalid_input", `baseUrl: must be http or https, got "${u.protocol}".`);
  if (u.username || u.password) throw new CodeSearchError("invalid_input", 'baseUrl: put the token in "token", not in the URL.');
  if (!isFetchableUrl(u, { allowLoopback }))
    throw new CodeSearchError(
      "invalid_input",
      `baseUrl: ${u.host} is ${describeHostClass(classifyHost(u.hostname))}; this server only calls public code hosts.`,
    );
  u.hash = "";
  u.search = "";
  return u.toString().replace(/\/+$/, "");
}

/** The connection id: `<provider>-<owner>`, plus the host when it is not the default one. */
export function connectionIdFor(provider: Provider, owner: string, baseUrl: string): string {
  const host = new URL(baseUrl).host;
  const def = new URL(DEFAULT_BASE_URL[provider]).host;
  return slugRepoId(`${provider}-${owner.replace(/\//g, "-")}${host === def ? "" : `-${host.replace(/:/g, "-")}`}`);
}

/**
 * Throws `forbidden` unless the caller holds `admin` over every repo (`repos` "*"): connections
 * register and delete repos beyond any repo list, so a repo-limited admin token may not use them.
 */
export function requireConnectionAdmin(caller: Caller): void {
  requireScope(caller, "admin");
  if (caller.repos !== "*")
    throw new CodeSearchError(
      "forbidden",
      "Connections need an admin token without a repo list: a connection registers and removes repos beyond this token's repos. Use an admin token for every repo.",
    );
}

async function mustGet(ctx: ServiceContext, id: string): Promise<ConnectionRow> {
  const row = await getConnectionRow(ctx.env, id);
  if (!row) throw new CodeSearchError("not_found", `No connection "${id}"; GET /api/connections lists them.`);
  return row;
}

function webhookSetup(ctx: ServiceContext, origin: string, row: ConnectionRow, secret: string): ConnectionCreated["webhook"] {
  const base = (ctx.env.PUBLIC_URL || origin).replace(/\/+$/, "");
  const q = `?connection=${encodeURIComponent(row.id)}`;
  return {
    secret,
    github:
      row.provider === "github" ? { payloadUrl: `${base}/api/webhooks/github${q}`, contentType: "application/json", events: ["push", "pull_request"] } : null,
    gitlab: row.provider === "gitlab" ? { url: `${base}/api/webhooks/gitlab${q}`, secretToken: secret, trigger: "Push events" } : null,
  };
}

/**
 * Creates a connection and runs its first sync. Throws `invalid_input` (input, base URL refused
 * by the host guard, unknown owner), `source_unreachable` (token rejected, host down),
 * `rate_limited`, `connection_exists`.
 */
export async function createConnection(ctx: ServiceContext, input: CreateConnectionInput, origin: string, now = Date.now()): Promise<ConnectionCreated> {
  requireConnectionAdmin(ctx.caller);
  const allowLoopback = ctx.config.allowLoopbackGitUrls;
  const baseUrl = checkBaseUrl(input.baseUrl ?? DEFAULT_BASE_URL[input.provider], allowLoopback);
  const id = connectionIdFor(input.provider, input.owner, baseUrl);
  const taken = await ctx.env.DB.prepare("SELECT id FROM connections WHERE id = ? OR (provider = ? AND base_url = ? AND owner = ?)")
    .bind(id, input.provider, baseUrl, input.owner)
    .first<{ id: string }>();
  if (taken)
    throw new CodeSearchError(
      "connection_exists",
      `Connection "${taken.id}" already lists ${input.owner}; DELETE /api/connections/${taken.id} first to change it.`,
    );
  // Checked before the code host is asked anything: a malformed pattern creates nothing.
  const refPatterns = [...new Set((input.refs ?? []).map(fullRefPattern))];
  const client = codeHostClient({ provider: input.provider, baseUrl, token: input.token, allowLoopback }, API_MAX_RATE_LIMIT_WAIT_MS);
  const ownerKind = await client.resolveOwner(input.owner);
  const listed = await client.listRepos(input.owner, ownerKind);
  const secret = randomToken(32);
  const row: ConnectionRow = {
    id,
    provider: input.provider,
    owner: input.owner,
    owner_kind: ownerKind,
    base_url: baseUrl,
    token_sealed: input.token ? await sealConnectionSecret(ctx.env, TOKEN_PURPOSE, id, input.token) : null,
    webhook_secret_sealed: await sealConnectionSecret(ctx.env, WEBHOOK_PURPOSE, id, secret),
    include_json: JSON.stringify(input.include ?? []),
    exclude_json: JSON.stringify(input.exclude ?? []),
    ref_patterns: JSON.stringify(refPatterns),
    forks: input.forks ? 1 : 0,
    archived: input.archived ? 1 : 0,
    grace_seconds: input.gracePeriodHours !== undefined ? input.gracePeriodHours * 3600 : DEFAULT_GRACE_SECONDS,
    created_at: now,
    last_synced_at: null,
    last_error: null,
  };
  const inserted = await ctx.env.DB.prepare(
    `INSERT INTO connections (id, provider, owner, owner_kind, base_url, token_sealed, webhook_secret_sealed, include_json, exclude_json, forks, archived, grace_seconds, created_at, ref_patterns)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
  )
    .bind(
      row.id,
      row.provider,
      row.owner,
      row.owner_kind,
      row.base_url,
      row.token_sealed,
      row.webhook_secret_sealed,
      row.include_json,
      row.exclude_json,
      row.forks,
      row.archived,
      row.grace_seconds,
      row.created_at,
      row.ref_patterns,
    )
    .run();
  if (!inserted.meta.changes) throw new CodeSearchError("connection_exists", `Connection "${id}" was just created by another request.`);
  const sync = await syncConnection(ctx.env, row, now, API_MAX_RATE_LIMIT_WAIT_MS, listed);
  const fresh = await mustGet(ctx, id);
  return { connection: viewOf(fresh, await connectionRepoRows(ctx.env, id)), webhook: webhookSetup(ctx, origin, fresh, secret), sync };
}

/** Every connection. */
export async function listConnections(ctx: ServiceContext): Promise<{ connections: ConnectionView[] }> {
  requireConnectionAdmin(ctx.caller);
  const rows = await listConnectionRows(ctx.env);
  return { connections: await Promise.all(rows.map(async (r) => viewOf(r, await connectionRepoRows(ctx.env, r.id)))) };
}

/** One connection with each of its repos. Throws `not_found`. */
export async function getConnection(ctx: ServiceContext, id: string): Promise<z.infer<typeof connectionDetailSchema>> {
  requireConnectionAdmin(ctx.caller);
  const row = await mustGet(ctx, id);
  const repos = await connectionRepoRows(ctx.env, id);
  return {
    ...viewOf(row, repos),
    repoList: repos.map((r) => ({
      fullName: r.full_name,
      repo: r.repo,
      state: stateOf(r),
      missingSince: r.missing_since,
      missingReason: r.missing_reason,
      serving: r.registered_at !== null && r.missing_since === null && !r.readers_error,
      readersError: r.readers_error ?? null,
      removeAt: r.missing_since !== null ? r.missing_since + row.grace_seconds * 1000 : null,
      skipReason: r.skip_reason,
    })),
  };
}

/** Syncs a connection now (as the Cron Trigger does). Throws `not_found` and the listing's errors. */
export async function syncConnectionNow(ctx: ServiceContext, id: string, now = Date.now()): Promise<z.infer<typeof syncResultSchema>> {
  requireConnectionAdmin(ctx.caller);
  const sync = await syncConnection(ctx.env, await mustGet(ctx, id), now, API_MAX_RATE_LIMIT_WAIT_MS);
  const row = await mustGet(ctx, id);
  return { connection: viewOf(row, await connectionRepoRows(ctx.env, id)), sync };
}

/**
 * Deletes a connection. By default its registered repos are deleted with their indexes (the
 * connection brought them); `keepRepos` leaves them as ordinary repos (their stored token
 * stays with them). Throws `not_found`.
 */
export async function deleteConnection(ctx: ServiceContext, id: string, keepRepos: boolean): Promise<z.infer<typeof deleteConnectionResultSchema>> {
  requireConnectionAdmin(ctx.caller);
  await mustGet(ctx, id);
  const owned = (await connectionRepoRows(ctx.env, id)).filter((r) => r.repo && r.registered_at !== null).map((r) => r.repo!);
  if (!keepRepos) for (const repo of owned) await removeRepo(ctx.env, ctx.config, repo);
  await ctx.env.DB.batch([
    ctx.env.DB.prepare("DELETE FROM connection_repos WHERE connection_id = ?").bind(id),
    ctx.env.DB.prepare("DELETE FROM connections WHERE id = ?").bind(id),
  ]);
  return { deleted: id, removedRepos: keepRepos ? [] : owned, keptRepos: keepRepos ? owned : [] };
}
