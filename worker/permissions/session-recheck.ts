/**
 * @module worker/permissions/session-recheck
 *
 * Web sessions of GitHub people re-check membership the way OAuth grants do at every refresh
 * (worker/permissions/refresh.ts): once per `SESSION_RECHECK_SECONDS` (default 600, the access
 * token lifetime), the next request of the session runs the shared re-check
 * (worker/permissions/recheck.ts) with the person's GitHub token, sealed in the session row
 * (migration 0030). A person removed from the allowed organisation, team or user list, or with a
 * changed role or a revoked GitHub token, has the session deleted there and then; without this a
 * removal lingered for the whole session lifetime (8 h).
 *
 * One request of a session claims each re-check (a conditional UPDATE of `checked_at`), so a page
 * firing several requests at once calls GitHub once. When GitHub does not answer, the last
 * passing check is trusted for up to PERMISSION_MAX_AGE_MS (3 h, the age past which synced grants
 * stop counting too); past that, requests are refused without ending the session.
 */
import type { Env } from "../../kernel/env";
import { openSecret, sealSecret, secretKeyMaterial } from "../../kernel/secret-box";
import { loadAuthConfig } from "../auth/config";
import { readSession, type Session } from "../auth/sessions";
import { recordAudit } from "../services/audit";
import { recheckGithubPerson } from "./recheck";
import { PERMISSION_MAX_AGE_MS } from "./readers";

/** Secret-box purpose of the GitHub token kept in a session row. */
const PURPOSE = "session-github-token";

/** A sealer for `createSession`: the person's GitHub `token`, bound to the new row's id hash. */
export function sealSessionToken(env: Env, token: string): (idHash: string) => Promise<string> {
  return (idHash) => sealSecret(secretKeyMaterial(env), PURPOSE, idHash, token);
}

async function end(env: Env, session: Session, why: string): Promise<undefined> {
  await env.DB.prepare("DELETE FROM sessions WHERE id_hash = ?").bind(session.idHash!).run();
  await recordAudit(env, { actor: session.caller.id, event: "sign_in_refused_on_recheck", detail: { why, via: "web" } });
  return undefined;
}

/**
 * The live session `request`'s cookie names, re-checked at GitHub when due (module note), or
 * undefined when there is none, it ended, or it cannot be trusted now. Local sign-ins pass
 * through unchanged. `fetchFn` reaches GitHub (tests pass a fake). D1 errors propagate.
 */
export async function readCheckedSession(env: Env, request: Request, now: number, fetchFn: typeof fetch = fetch): Promise<Session | undefined> {
  const session = await readSession(env.DB, request, now);
  if (!session || !session.caller.id.startsWith("github:")) return session;
  const config = loadAuthConfig(env);
  const last = session.checkedAt ?? 0;
  if (now - last < config.sessionRecheckSeconds * 1000) return session;
  const gh = config.github;
  if (!gh || !session.upstream || !session.caller.person || !session.idHash) return end(env, session, "this sign-in predates membership checks");
  const claim = await env.DB.prepare("UPDATE sessions SET checked_at = ? WHERE id_hash = ? AND checked_at IS ?")
    .bind(now, session.idHash, session.checkedAt ?? null)
    .run();
  // Another request of this session is re-checking right now: serve this one on the last check.
  if (!claim.meta.changes) return session;
  let token: string;
  try {
    token = await openSecret(secretKeyMaterial(env), PURPOSE, session.idHash, session.upstream);
  } catch {
    return end(env, session, "the sign-in's token can no longer be opened (the key secret changed)");
  }
  const result = await recheckGithubPerson(env, gh, session.caller, token, session.login, now, fetchFn);
  if (result.kind === "refused") return end(env, session, result.why);
  if (result.kind === "unreachable") {
    // Nothing proven: give the claim back so the next request tries again.
    await env.DB.prepare("UPDATE sessions SET checked_at = ? WHERE id_hash = ?").bind(last, session.idHash).run();
    return now - last <= PERMISSION_MAX_AGE_MS ? session : undefined;
  }
  const caller = { ...session.caller, person: { ...session.caller.person, teams: result.teams } };
  const stored = { ...caller };
  delete stored.credential; // readSession adds it from the cookie
  await env.DB.prepare("UPDATE sessions SET caller = ? WHERE id_hash = ?").bind(JSON.stringify(stored), session.idHash).run();
  return { ...session, caller, checkedAt: now };
}
