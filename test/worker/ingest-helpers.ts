/**
 * Helpers for the ingestion tests: register fixture repos on the loopback git server and poll
 * their status until a job settles.
 */
import { env } from "cloudflare:test";
import { gzipSync, strToU8 } from "fflate";
import { packTar } from "modern-tar";
import { expect, inject } from "vitest";
import { repoDb } from "../../indexer/store/shards";
import type { RepoStatus } from "../../worker/services/repos";
import { api } from "../helpers";

/** URL of a fixture repo served by test/git-server.ts. */
export function fixtureUrl(name = "fixture"): string {
  return `${inject("gitServerUrl")}/${name}.git`;
}

/** GET /api/repos/{id}. */
export async function repoStatus(id: string): Promise<RepoStatus> {
  const res = await api(`/api/repos/${id}`);
  expect(res.status).toBe(200);
  return res.json();
}

/**
 * Polls the status until the current job is `ready` or `failed` (bounded: at most `tries`
 * polls, yielding between them; no timing assertions). Optionally waits for a specific job.
 */
export async function waitForJob(id: string, jobId?: string, tries = 600): Promise<RepoStatus> {
  for (let i = 0; i < tries; i++) {
    const s = await repoStatus(id);
    if ((s.status === "ready" || s.status === "failed") && (!jobId || s.job?.id === jobId)) return s;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`repo ${id} did not settle after ${tries} polls`);
}

/** POST /api/repos and wait for the first job to settle. */
export async function registerAndWait(body: {
  url: string;
  ref?: string;
  name?: string;
  token?: string;
  username?: string;
  authScheme?: "basic" | "bearer";
}): Promise<RepoStatus> {
  const res = await api("/api/repos", { method: "POST", json: body });
  const json = (await res.json()) as { repo: RepoStatus; job: RepoStatus["job"] };
  expect(res.status, JSON.stringify(json)).toBe(202);
  return waitForJob(json.repo.id, json.job!.id);
}

/** Uploads `files` (path -> text) to `id` as one tar.gz archive and waits until that job is ready. */
export async function uploadFilesAndWait(id: string, files: Record<string, string>): Promise<void> {
  const entries = Object.entries(files).map(([name, body]) => ({ header: { name, size: strToU8(body).length }, body }));
  const res = await api(`/api/repos/${id}/archive`, {
    method: "POST",
    body: gzipSync(await packTar(entries)),
    headers: { "content-type": "application/gzip" },
  });
  const body = (await res.json()) as { job?: { id: string } };
  expect(res.status, JSON.stringify(body)).toBe(202);
  const done = await waitForJob(id, body.job!.id);
  expect(done.status, done.lastError ?? "").toBe("ready");
}

/** POST /api/repos/{id}/refresh and wait for that job. */
export async function refreshAndWait(id: string, body: { ref?: string } = {}): Promise<RepoStatus> {
  const res = await api(`/api/repos/${id}/refresh`, { method: "POST", json: body });
  const json = (await res.json()) as { repo: RepoStatus; job: RepoStatus["job"] };
  expect(res.status, JSON.stringify(json)).toBe(202);
  return waitForJob(id, json.job!.id);
}

/** The shard database holding `repo`'s index rows (indexer/store/shards.ts). */
export function indexDb(repo: string): Promise<D1Database> {
  return repoDb(env, repo);
}

/**
 * Every D1 row a repo owns, without repo-dependent ids (file and chunk ids hash the repo id),
 * in a stable order: two repos indexed from the same tree give equal shapes.
 */
export async function indexShape(repo: string) {
  const db = await indexDb(repo);
  const all = async (sql: string) => (await db.prepare(sql).bind(repo).all()).results;
  const n = async (sql: string) => (await db.prepare(sql).bind(repo).first<{ n: number }>())?.n ?? 0;
  return {
    snapshot: await all(
      "SELECT s.path, f.blob_sha FROM snapshot_files s JOIN files f ON f.repo = s.repo AND f.file_id = s.file_id WHERE s.repo = ? ORDER BY s.path",
    ),
    files: await all("SELECT path, blob_sha, language, line_count, byte_size, imports FROM files WHERE repo = ? ORDER BY path, blob_sha"),
    chunks: await all(
      "SELECT path, kind, symbol, container, start_line, end_line, content FROM chunks WHERE repo = ? ORDER BY path, start_line, end_line, kind",
    ),
    fts: await n("SELECT count(*) AS n FROM chunks_fts WHERE rowid IN (SELECT rowid FROM chunks WHERE repo = ?)"),
    symbols: await all("SELECT path, name, kind, start_line, end_line FROM symbols WHERE repo = ? ORDER BY path, start_line, name"),
    vectors: await n("SELECT count(*) AS n FROM local_vectors WHERE repo = ?"),
    orphanVectors: await n("SELECT count(*) AS n FROM local_vectors v WHERE v.repo = ?1 AND NOT EXISTS (SELECT 1 FROM chunks c WHERE c.id = v.id)"),
  };
}
