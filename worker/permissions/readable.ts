/**
 * @module worker/permissions/readable
 *
 * Loads, once per request, the restricted repos a caller may read (`Caller.reads`), which
 * `canSee` (worker/services/context.ts) then applies everywhere. Who reads what:
 *
 * - the local admin token, API tokens (only admins mint them, and never beyond their own
 *   sight: docs/least-privilege.md) and the local OAuth sign-in: every repo ("*");
 * - a person signed in through the code host with the admin role: every repo ("*"), as site
 *   admins do in Sourcegraph, since they register repos and set access lists anyway;
 * - any other person: the repos `repo_readers` names for their principal or one of their teams,
 *   code-host rows only while younger than PERMISSION_MAX_AGE_MS (worker/permissions/readers.ts).
 *
 * A caller that looks like a code-host person but carries no `person` (a grant or session made
 * before migration 0027) is taken as a reader of its own id: fail closed, never "*".
 */
import type { Caller } from "../services/context";
import { PERMISSION_MAX_AGE_MS } from "./readers";

/** Caller ids of people signed in through a code host (worker/auth/github.ts `githubCaller`). */
const PERSON_ID = /^(github|gitlab):/;

/** The person behind a caller, or undefined for the local admin, API tokens and local sign-ins. */
export function personOf(caller: Caller): NonNullable<Caller["person"]> | undefined {
  if (caller.person) return caller.person;
  if (caller.kind !== "api-token" && caller.kind !== "admin-token" && PERSON_ID.test(caller.id)) return { principal: caller.id, role: "reader" };
  return undefined;
}

/** The principals a person is named by in `repo_readers`: their own and their teams'. */
export function principalsOf(person: NonNullable<Caller["person"]>): string[] {
  return [person.principal.toLowerCase(), ...(person.teams ?? []).map((t) => `team:${t.toLowerCase()}`)];
}

/** `caller` with `reads` filled in for this request (see the module note). One D1 read for readers. */
export async function withReadable(db: D1Database, caller: Caller, now: number): Promise<Caller> {
  const person = personOf(caller);
  if (!person || person.role === "admin") return { ...caller, reads: "*" };
  const principals = principalsOf(person).slice(0, 90);
  const { results } = await db
    .prepare(`SELECT DISTINCT repo FROM repo_readers WHERE principal IN (${principals.map(() => "?").join(", ")}) AND (source = 'admin' OR synced_at >= ?)`)
    .bind(...principals, now - PERMISSION_MAX_AGE_MS)
    .all<{ repo: string }>();
  return { ...caller, reads: results.map((r) => r.repo) };
}
