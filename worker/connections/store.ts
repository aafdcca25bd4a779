/**
 * @module worker/connections/store
 *
 * D1 access for connections (migrations/0012_connections.sql): rows in and out, tokens and
 * webhook secrets sealed with kernel/secret-box.ts (purposes below, context the connection id).
 */
import { openSecret, sealSecret, secretKeyMaterial } from "../../kernel/secret-box";
import type { Env } from "../../kernel/env";
import type { KnownRepo } from "./plan";
import type { OwnerKind, Provider } from "./types";

export const TOKEN_PURPOSE = "connection-token";
export const WEBHOOK_PURPOSE = "connection-webhook-secret";

/** A connection as stored (secrets still sealed). Times in ms since epoch. */
export interface ConnectionRow {
  id: string;
  provider: Provider;
  owner: string;
  owner_kind: OwnerKind;
  base_url: string;
  token_sealed: string | null;
  webhook_secret_sealed: string;
  include_json: string;
  exclude_json: string;
  /** JSON list of full ref names or globs every repo it registers tracks (migration 0029; docs/refs.md). */
  ref_patterns?: string;
  forks: number;
  archived: number;
  grace_seconds: number;
  created_at: number;
  last_synced_at: number | null;
  last_error: string | null;
}

/** A connection_repos row. */
export interface ConnectionRepoRow {
  connection_id: string;
  upstream_id: string;
  full_name: string;
  clone_url: string;
  repo: string | null;
  registered_at: number | null;
  skip_reason: string | null;
  missing_since: number | null;
  missing_reason: string | null;
  /** Why the last sync could not list its readers (migration 0027); the repo is withdrawn meanwhile. */
  readers_error?: string | null;
}

export async function getConnectionRow(env: Env, id: string): Promise<ConnectionRow | null> {
  return env.DB.prepare("SELECT * FROM connections WHERE id = ?").bind(id).first<ConnectionRow>();
}

export async function listConnectionRows(env: Env): Promise<ConnectionRow[]> {
  return (await env.DB.prepare("SELECT * FROM connections ORDER BY id").all<ConnectionRow>()).results;
}

export async function connectionRepoRows(env: Env, id: string): Promise<ConnectionRepoRow[]> {
  return (await env.DB.prepare("SELECT * FROM connection_repos WHERE connection_id = ? ORDER BY full_name").bind(id).all<ConnectionRepoRow>()).results;
}

export function toKnown(r: ConnectionRepoRow): KnownRepo {
  return {
    upstreamId: r.upstream_id,
    fullName: r.full_name,
    cloneUrl: r.clone_url,
    repo: r.repo,
    registeredAt: r.registered_at,
    skipReason: r.skip_reason,
    missingSince: r.missing_since,
  };
}

/** The connection's token, opened; undefined when it has none. Throws SecretBoxError when the key changed. */
export async function connectionToken(env: Env, row: ConnectionRow): Promise<string | undefined> {
  return row.token_sealed ? openSecret(secretKeyMaterial(env), TOKEN_PURPOSE, row.id, row.token_sealed) : undefined;
}

export async function sealConnectionSecret(env: Env, purpose: string, id: string, value: string): Promise<string> {
  return sealSecret(secretKeyMaterial(env), purpose, id, value);
}
