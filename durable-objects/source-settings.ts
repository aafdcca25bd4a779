/**
 * @module durable-objects/source-settings
 *
 * The repo settings a RepoCoordinator keeps in its own storage (kernel/coordinator.ts
 * `RepoSettings`): the git URL, the default ref and the sealed token. A plaintext token never
 * reaches storage: it is sealed with the server's key (kernel/secret-box.ts), bound to the repo.
 */
import type { GitSourceOptions } from "../indexer/source/git";
import { openSecret, sealSecret, secretKeyMaterial } from "../kernel/secret-box";
import { loadConfig, type Env } from "../kernel/env";
import * as ledger from "./ledger";
import type { RepoSettings } from "./ledger";

/** The `kv` key of the settings. */
export const REPO_KEY = "repo";
const TOKEN_PURPOSE = "repo-token";

/** The stored settings, or null before the first request. */
export function readSettings(sql: SqlStorage): RepoSettings | null {
  return ledger.getValue<RepoSettings>(sql, REPO_KEY);
}

/** Stores settings, sealing a new token and keeping the stored one (and its user name and scheme) otherwise. */
export async function saveSettings(env: Env, sql: SqlStorage, settings: RepoSettings): Promise<void> {
  const previous = readSettings(sql);
  const plain = settings.token ?? previous?.token;
  const { token: _drop, tokenSealed: _old, ...rest } = settings;
  const tokenSealed = plain ? await sealSecret(secretKeyMaterial(env), TOKEN_PURPOSE, settings.repo, plain) : previous?.tokenSealed;
  const username = settings.username ?? previous?.username;
  const authScheme = settings.authScheme ?? previous?.authScheme;
  ledger.putValue(sql, REPO_KEY, {
    ...rest,
    ...(tokenSealed ? { tokenSealed } : {}),
    ...(username ? { username } : {}),
    ...(authScheme ? { authScheme } : {}),
  } satisfies RepoSettings);
}

/** The git source of stored settings, with the token opened; `ref` replaces the default ref (an extra tracked ref's job). */
export async function sourceOf(env: Env, settings: RepoSettings, ref?: string | null): Promise<GitSourceOptions> {
  const token = settings.tokenSealed ? await openSecret(secretKeyMaterial(env), TOKEN_PURPOSE, settings.repo, settings.tokenSealed) : settings.token;
  const config = loadConfig(env);
  return {
    url: settings.url!,
    ref: (ref ?? settings.ref) || undefined,
    token,
    username: settings.username,
    authScheme: settings.authScheme,
    limits: { allowLoopback: config.allowLoopbackGitUrls },
    history: config.historyDepth,
  };
}
