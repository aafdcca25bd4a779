/**
 * Helpers for the tracked-refs tests (docs/refs.md): PATCH a repo's refs, wait until every
 * tracked ref settled, read a ref's snapshot from its shard.
 */
import { expect } from "vitest";
import type { RepoStatus } from "../../worker/services/repos";
import { api } from "../helpers";
import { indexDb, repoStatus } from "./ingest-helpers";

/** PATCH /api/repos/{id} {refs}; returns the status code and body. */
export async function patchRefs(id: string, refs: string[]): Promise<{ status: number; body: any }> {
  const res = await api(`/api/repos/${id}`, { method: "PATCH", json: { refs } });
  return { status: res.status, body: await res.json() };
}

/**
 * Polls the status until no job runs and every tracked ref is `ready` or `failed` and `probe`
 * (optional) holds; bounded (no timing assertion).
 */
export async function waitForRefs(id: string, probe: (s: RepoStatus) => boolean = () => true, tries = 800): Promise<RepoStatus> {
  let last: RepoStatus | null = null;
  for (let i = 0; i < tries; i++) {
    const s = await repoStatus(id);
    last = s;
    const settled = (s.status === "ready" || s.status === "failed") && (!s.job || s.job.status === "ready" || s.job.status === "failed");
    if (settled && s.refs.every((r) => r.status === "ready" || r.status === "failed") && probe(s)) return s;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`refs of ${id} did not settle: ${JSON.stringify(last?.refs)}`);
}

/** The tracked ref `name` in a status (fails the test when absent). */
export function refOf(s: RepoStatus, name: string) {
  const r = s.refs.find((x) => x.name === name);
  expect(r, `${name} in ${JSON.stringify(s.refs.map((x) => x.name))}`).toBeDefined();
  return r!;
}

/** (path -> file id) of the snapshot (repo, commit). */
export async function snapshotFiles(repo: string, commit: string): Promise<Map<string, string>> {
  const db = await indexDb(repo);
  const { results } = await db
    .prepare("SELECT path, file_id FROM snapshot_files WHERE repo = ? AND commit_sha = ?")
    .bind(repo, commit)
    .all<{ path: string; file_id: string }>();
  return new Map(results.map((r) => [r.path, r.file_id]));
}

/** Number of `files` rows (file versions) `repo` holds. */
export async function fileRows(repo: string): Promise<number> {
  const db = await indexDb(repo);
  return (await db.prepare("SELECT count(*) AS n FROM files WHERE repo = ?").bind(repo).first<{ n: number }>())!.n;
}

/** Commits `repo` holds a snapshot of, sorted. */
export async function snapshotCommits(repo: string): Promise<string[]> {
  const db = await indexDb(repo);
  const { results } = await db.prepare("SELECT DISTINCT commit_sha FROM snapshot_files WHERE repo = ? ORDER BY 1").bind(repo).all<{ commit_sha: string }>();
  return results.map((r) => r.commit_sha);
}
