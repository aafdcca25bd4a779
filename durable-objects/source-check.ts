/**
 * @module durable-objects/source-check
 *
 * The coordinator's ls-remote of its stored git source, with overrides tried before they are
 * stored (a new token), and the `Failure` value RPC methods answer with: a Durable Object RPC
 * keeps only an error's message, so coded errors cross it as values.
 */
import { checkRemote, type ResolvedRef } from "../indexer/source/git";
import type { SourceOverrides } from "../kernel/coordinator";
import type { Env } from "../kernel/env";
import { CodeSearchError, type ErrorCode } from "../kernel/errors";
import type { RepoSettings } from "./ledger";
import { sourceOf } from "./source-settings";

/** A coded error as an RPC answer value. */
export type Failure = { error: { code: ErrorCode; message: string } };

/** `err` as a `Failure` when it is a `CodeSearchError`; anything else is rethrown. */
export function failure(err: unknown): Failure {
  if (err instanceof CodeSearchError) return { error: { code: err.code, message: err.message } };
  throw err;
}

/**
 * Runs an ls-remote with `settings`, `overrides` applied. Errors come back as values:
 * `source_unreachable` (with "rejected" vs "asked for credentials"), `not_a_repository`,
 * `ref_not_found`, and `repo_not_found` when there are no settings or no git URL.
 */
export async function checkStoredSource(env: Env, settings: RepoSettings | null, overrides: SourceOverrides): Promise<ResolvedRef | Failure> {
  if (!settings?.url) return { error: { code: "repo_not_found", message: "This repo has no git source." } };
  try {
    const source = await sourceOf(env, settings);
    return await checkRemote({
      ...source,
      ref: overrides.ref === undefined ? source.ref : (overrides.ref ?? undefined),
      ...(overrides.token !== undefined ? { token: overrides.token } : {}),
      ...(overrides.username !== undefined ? { username: overrides.username } : {}),
      ...(overrides.authScheme !== undefined ? { authScheme: overrides.authScheme } : {}),
    });
  } catch (err) {
    return failure(err);
  }
}
