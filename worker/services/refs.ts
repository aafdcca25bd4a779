/**
 * @module worker/services/refs
 *
 * The one ref resolver of the read side (issue #49, migrations/0029_repo_refs.sql): which
 * snapshot a read of `repo` at `ref` uses. Without a ref it is the default snapshot
 * (`repos.active_commit`), exactly as before refs existed. With one, the ref is matched against
 * the repo's `repo_refs` rows (catalog DB) and the default ref:
 *
 * - full (`refs/heads/feature`, `refs/tags/v2.1`) matches that name;
 * - short (`feature`, `v2.1`) tries `refs/heads/<ref>` before `refs/tags/<ref>` (as `git switch`
 *   reads a name; `git rev-parse` would prefer the tag);
 * - `HEAD` is the default ref; a commit (7-40 hex) is the tracked ref whose snapshot it names,
 *   the default first.
 *
 * A ref's snapshot is (repo, commit) in the repo's serving shard; shard SQL binds that commit
 * (shard mirrors of `repos` only know the default). Archive uploads have one snapshot and no
 * refs: their `ref` is null and naming one is an error.
 */
import { z } from "zod";
import { placementOf } from "../../indexer/store/shards";
import { CodeSearchError } from "../../kernel/errors";
import type { ServiceContext } from "./context";
import { parsePatterns } from "./repo-status";

/** Most tracked ref names listed in a `ref_not_found` message. */
const REFS_SHOWN = 20;

/**
 * The `repos` columns the resolver reads besides `id`, `status`, `active_commit`, `shard` and
 * `moving_to`, as SQL for a select list over `repos` (or `alias`): `ref`, `source_kind`,
 * `ref_patterns` and `default_ref` (the default row's full name, else the full ref history was
 * fetched as).
 */
export function refColumns(alias = "repos"): string {
  return (
    `${alias}.ref AS ref, ${alias}.source_kind AS source_kind, ${alias}.ref_patterns AS ref_patterns, ` +
    `COALESCE((SELECT rr.name FROM repo_refs rr WHERE rr.repo = ${alias}.id AND rr.is_default = 1), ` +
    `(SELECT h.ref FROM repo_history h WHERE h.repo = ${alias}.id)) AS default_ref`
  );
}

/** A visible repo's row as the resolver needs it (`refColumns` plus the snapshot and placement). */
export interface RefRepoRow {
  id: string;
  status: string;
  active_commit: string | null;
  active_indexed_at?: number | null;
  shard: number | null;
  moving_to?: number | null;
  /** `repos.ref`: the ref asked for at registration (short, full, a commit) or null (the remote's HEAD). */
  ref: string | null;
  /** `git` or `archive`. */
  source_kind: string;
  /** `repos.ref_patterns`: the tracked patterns (JSON array) a PATCH replaces; for the `ref_not_found` hint. */
  ref_patterns?: string | null;
  /** From `refColumns`: the default ref's full name when known. */
  default_ref: string | null;
}

/** The snapshot one read uses: repo, ref (full name; null for an archive), commit and serving shard. */
export interface RefSnapshot {
  id: string;
  ref: string | null;
  commit: string;
  shard: number;
  /** When that snapshot was activated (ms since epoch), when known. */
  indexedAt: number | null;
}

/** A `repo_refs` row as the resolver reads it. */
export interface TrackedRef {
  repo: string;
  name: string;
  is_default: number;
  commit_sha: string | null;
  status: string;
  indexed_at: number | null;
}

/** Why a repo has no snapshot for the asked ref (a multi-repo read reports it and goes on). */
export interface RefMissing {
  repo: string;
  /** The `ref_not_found` message a single-repo read throws. */
  reason: string;
}

/** `refs/heads/main` -> `main`, `refs/tags/v2` -> `v2`; anything else unchanged. */
export function shortRefName(name: string): string {
  return name.replace(/^refs\/(heads|tags)\//, "");
}

/** The default ref's name: the default row's, else the fetched ref, else `repos.ref` as registered, else `HEAD`; null for an archive. */
export function defaultRefName(row: Pick<RefRepoRow, "source_kind" | "ref" | "default_ref">): string | null {
  if (row.source_kind !== "git") return null;
  return row.default_ref ?? row.ref ?? "HEAD";
}

/** The snapshot of `row`'s default ref; null before its first snapshot. */
function defaultSnapshot(row: RefRepoRow): RefSnapshot | null {
  if (!row.active_commit) return null;
  return {
    id: row.id,
    ref: defaultRefName(row),
    commit: row.active_commit,
    shard: placementOf({ shard: row.shard, moving_to: row.moving_to ?? null }).shard,
    indexedAt: row.active_indexed_at ?? null,
  };
}

/**
 * Matches `asked` among the default ref (`defaultName`, snapshot `defaultCommit`) and the
 * non-default `tracked` rows: "default", a row, or null (unknown). Pure; see the module note
 * for the order.
 */
export function matchRef(asked: string, defaultName: string, defaultCommit: string | null, tracked: readonly TrackedRef[]): "default" | TrackedRef | null {
  const want = asked.trim();
  if (want === "HEAD") return "default";
  const isDefault = (name: string) => name === defaultName || (!defaultName.startsWith("refs/") && shortRefName(name) === defaultName);
  const names = want.startsWith("refs/") ? [want] : [`refs/heads/${want}`, `refs/tags/${want}`, want];
  for (const name of names) {
    if (isDefault(name)) return "default";
    const row = tracked.find((t) => !t.is_default && t.name === name);
    if (row) return row;
  }
  if (/^[0-9a-f]{7,40}$/i.test(want)) {
    const sha = want.toLowerCase();
    if (defaultCommit?.startsWith(sha)) return "default";
    return tracked.find((t) => !t.is_default && t.commit_sha?.startsWith(sha)) ?? null;
  }
  return null;
}

/** The `ref_not_found` message for `asked` in `row`: the tracked refs, and how to add one. */
function unknownRefMessage(row: RefRepoRow, asked: string, tracked: readonly TrackedRef[]): string {
  const names = [
    `${shortRefName(defaultRefName(row) ?? "HEAD")} (default)`,
    ...tracked.filter((t) => !t.is_default).map((t) => shortRefName(t.name) + (t.commit_sha ? "" : ` (${t.status}, not indexed yet)`)),
  ];
  const shown = names.slice(0, REFS_SHOWN).join(", ") + (names.length > REFS_SHOWN ? ", ..." : "");
  // A commit cannot be tracked (refs are branches and tags): no PATCH hint for one.
  if (/^[0-9a-f]{7,40}$/i.test(asked.trim())) {
    return `Repo "${row.id}" has no snapshot at commit "${asked}": reads serve the snapshots of tracked refs only. Tracked refs: ${shown}. Pass one of them, or omit ref for the default.`;
  }
  // Still named by a tracked pattern (not a glob) yet without a row: the branch or tag was deleted on the remote.
  const patterns = parsePatterns(row.ref_patterns);
  const kept = patterns.find((p) => !p.includes("*") && (p === asked || p === `refs/heads/${asked}` || p === `refs/tags/${asked}`));
  if (kept) {
    return `Ref "${asked}" of repo "${row.id}" is still tracked (pattern "${kept}"), but the ${kept.startsWith("refs/tags/") ? "tag" : "branch"} no longer exists on the remote, so it has no snapshot. Tracked refs: ${shown}. Push it again (it is indexed when it reappears), or read another ref.`;
  }
  // A PATCH replaces the tracked list: the body keeps the patterns tracked now and adds the asked ref.
  const refs = [...patterns, asked].map((p) => JSON.stringify(p)).join(", ");
  return `Repo "${row.id}" does not track ref "${asked}". Tracked refs: ${shown}. To add one, PATCH the whole list (it replaces the tracked refs): PATCH /api/repos/${row.id} {"refs": [${refs}]}, then read it once GET /api/repos/${row.id} lists it ready.`;
}

/**
 * The snapshot of `row` at `ref`, or why there is none: `{snapshot}`, `{missing}` (unknown ref,
 * or a tracked ref without a snapshot yet) or `{notReady}` (the default ref before its first
 * snapshot). Throws `invalid_input` for a ref on an archive.
 */
function pick(row: RefRepoRow, ref: string | undefined, tracked: readonly TrackedRef[]): { snapshot: RefSnapshot } | { missing: string } | { notReady: true } {
  if (ref === undefined) {
    const snap = defaultSnapshot(row);
    return snap ? { snapshot: snap } : { notReady: true };
  }
  if (row.source_kind !== "git") {
    throw new CodeSearchError(
      "invalid_input",
      `ref: repo "${row.id}" was uploaded as an archive, which has one snapshot and no refs; omit ref (or register its git URL to track branches).`,
    );
  }
  const found = matchRef(ref, defaultRefName(row) ?? "HEAD", row.active_commit, tracked);
  if (found === "default") {
    const snap = defaultSnapshot(row);
    return snap ? { snapshot: snap } : { notReady: true };
  }
  if (!found) return { missing: unknownRefMessage(row, ref, tracked) };
  if (!found.commit_sha) {
    return {
      missing: `Ref "${shortRefName(found.name)}" of repo "${row.id}" is tracked but has no indexed snapshot yet (status: ${found.status}). Retry when GET /api/repos/${row.id} lists it ready.`,
    };
  }
  const base = defaultSnapshot(row) ?? { shard: placementOf({ shard: row.shard, moving_to: row.moving_to ?? null }).shard };
  return { snapshot: { id: row.id, ref: found.name, commit: found.commit_sha, shard: base.shard, indexedAt: found.indexed_at } };
}

/** The `repo_refs` rows of `ids` (catalog DB), by repo; one statement per 90 ids. */
export async function trackedRefs(db: D1Database, ids: readonly string[]): Promise<Map<string, TrackedRef[]>> {
  const out = new Map<string, TrackedRef[]>();
  for (let i = 0; i < ids.length; i += 90) {
    const part = ids.slice(i, i + 90);
    const { results } = await db
      .prepare(
        `SELECT repo, name, is_default, commit_sha, status, indexed_at FROM repo_refs WHERE repo IN (${part.map(() => "?").join(", ")}) ORDER BY repo, name`,
      )
      .bind(...part)
      .all<TrackedRef>();
    for (const r of results) out.set(r.repo, [...(out.get(r.repo) ?? []), r]);
  }
  return out;
}

/** Throws `index_not_ready` for `row` (no completed snapshot of its default ref yet). */
function notReadyError(row: RefRepoRow): CodeSearchError {
  return new CodeSearchError(
    "index_not_ready",
    `Repo "${row.id}" has no completed index yet (status: ${row.status}). Retry when its status is ready (GET /api/repos/${row.id}, or the get_index_status tool over MCP).`,
  );
}

/**
 * Resolves a visible repo's row (read with `refColumns`) and an optional `ref` to a snapshot.
 * No ref: the default snapshot. Throws `ref_not_found` (404; an unknown ref, naming the tracked
 * ones and how to add one, or a tracked ref not indexed yet), `index_not_ready` (the default ref
 * before its first snapshot), `invalid_input` (a ref on an archive repo).
 * @example await resolveRef(ctx, row, "feature") // {id, ref: "refs/heads/feature", commit, shard, indexedAt}
 */
export async function resolveRef(ctx: ServiceContext, row: RefRepoRow, ref?: string): Promise<RefSnapshot> {
  const tracked = ref === undefined || row.source_kind !== "git" ? [] : ((await trackedRefs(ctx.env.DB, [row.id])).get(row.id) ?? []);
  const r = pick(row, ref, tracked);
  if ("snapshot" in r) return r.snapshot;
  if ("missing" in r) throw new CodeSearchError("ref_not_found", r.missing);
  throw notReadyError(row);
}

/**
 * The batch form for multi-repo reads: each visible row at `ref` (one `repo_refs` read for all).
 * Never throws for one repo: `snapshots` are the found ones (in `rows` order), `missing` the
 * repos without that ref (with the single-repo message), `notReady` the repos without a default
 * snapshot. Never throws for an archive either: with `ref` it is `missing` (archives have no
 * refs), so a scope of archives only is the callers' 404 `ref_not_found` (`noRepoHasRef`).
 */
export async function resolveRefs<R extends RefRepoRow>(
  ctx: ServiceContext,
  rows: readonly R[],
  ref?: string,
): Promise<{ snapshots: RefSnapshot[]; missing: RefMissing[]; notReady: R[] }> {
  const git = rows.filter((r) => r.source_kind === "git");
  const tracked =
    ref === undefined
      ? new Map<string, TrackedRef[]>()
      : await trackedRefs(
          ctx.env.DB,
          git.map((r) => r.id),
        );
  const out = { snapshots: [] as RefSnapshot[], missing: [] as RefMissing[], notReady: [] as R[] };
  for (const row of rows) {
    if (ref !== undefined && row.source_kind !== "git") {
      out.missing.push({ repo: row.id, reason: `Repo "${row.id}" was uploaded as an archive, which has no refs.` });
      continue;
    }
    const r = pick(row, ref, tracked.get(row.id) ?? []);
    if ("snapshot" in r) out.snapshots.push(r.snapshot);
    else if ("missing" in r) out.missing.push({ repo: row.id, reason: r.missing });
    else out.notReady.push(row);
  }
  return out;
}

/** Most characters of a `ref` argument (git allows longer names; none this long is tracked in practice). */
export const REF_MAX_CHARS = 255;

/** The `ref` argument of every read (REST query/body field, MCP argument, CLI --ref). */
export const refSchema = z.string().trim().min(1).max(REF_MAX_CHARS).describe('Branch or tag ("feature", "refs/tags/v2"); default: the default branch.');

/** The `ref` of a result: the ref it was read at (full name); null for an archive upload (docs/api.md, "Reading a ref"). */
export const snapshotRefField = z.string().nullable();

/** Repos a multi-repo read with `ref` left out because they do not track it (absent when none). */
export const withoutRefField = z.array(z.string()).optional().describe("With ref: repos in scope without it (not searched).");

/** The error of a multi-repo read with `ref` when no repo in scope has it: `ref_not_found` with the first repos' reasons. */
export function noRepoHasRef(ref: string, missing: readonly RefMissing[]): CodeSearchError {
  const shown = missing.slice(0, 3).map((m) => m.reason);
  return new CodeSearchError(
    "ref_not_found",
    `No repo in scope has a snapshot of ref "${ref}". ${shown.join(" ")}${missing.length > 3 ? ` (and ${missing.length - 3} more repos)` : ""}`,
  );
}
