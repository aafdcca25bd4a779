/// <reference types="vite/client" />
/**
 * The navigation fixture (test/fixtures/navigation: Java, C#, TypeScript, Python and Go code
 * with same-named methods, library calls, comments, tests and docs) indexed as repo "nav" with
 * the real chunker (indexer/chunk) through `writeFiles` into the repo's shard, and an active snapshot row.
 */
import { env } from "cloudflare:test";
import { chunkFile } from "../../indexer/chunk";
import { fileId } from "../../indexer/store/contract";
import { snapshotStatisticsStatements } from "../../indexer/store/d1/snapshots";
import { ensureShardRow } from "../../indexer/store/d1/shard-rows";
import { writeFiles, type IndexedFile } from "../../indexer/store/d1/write-files";
import { placeRepo } from "../../indexer/store/shard-placement";
import { shardDb } from "../../indexer/store/shards";

/** Fixture files keyed by their path inside the repo (`java/src/...`); bundled at build time by Vite. */
const raw = import.meta.glob<string>("../fixtures/navigation/**", { query: "?raw", import: "default", eager: true });

/** The fixture's files: path inside the repo and text. */
export const NAV_FILES: { path: string; text: string }[] = Object.entries(raw)
  .map(([key, text]) => ({ path: key.replace("../fixtures/navigation/", ""), text }))
  .sort((a, b) => a.path.localeCompare(b.path));

/** The text of one fixture file; throws for an unknown path. */
export function navText(path: string): string {
  const f = NAV_FILES.find((x) => x.path === path);
  if (!f) throw new Error(`no fixture file ${path}`);
  return f.text;
}

/** 1-based line of the first line of `path` containing `needle` (after line `after`); throws when absent. */
export function navLine(path: string, needle: string, after = 0): number {
  const i = navText(path)
    .split("\n")
    .findIndex((l, k) => k >= after && l.includes(needle));
  if (i < 0) throw new Error(`"${needle}" not in ${path}`);
  return i + 1;
}

/**
 * Indexes the fixture (or `sources`) as repo `repo` (default "nav") at commit "n1". Once per
 * repo and test file (storage is per file).
 */
export async function seedNavigation(repo = "nav", sources: { path: string; text: string }[] = NAV_FILES): Promise<void> {
  const files: IndexedFile[] = [];
  for (const [i, f] of sources.entries()) {
    const blobSha = i.toString(16).padStart(40, "0");
    files.push({ repo, path: f.path, blobSha, fileId: await fileId(repo, f.path, blobSha), text: f.text, chunked: await chunkFile(f.path, f.text) });
  }
  const now = Date.now();
  await env.DB.prepare(
    "INSERT INTO repos (id, name, source_kind, url, ref, status, active_commit, active_indexed_at, created_at, updated_at) VALUES (?, ?, 'git', ?, 'main', 'ready', 'n1', ?, ?, ?)",
  )
    .bind(repo, repo, `https://example.com/${repo}.git`, now, now, now)
    .run();
  // The index goes into the shard placement picks, with the shard's mirror row (docs/storage.md, "Shards").
  const db = shardDb(env, await placeRepo(env, repo));
  await ensureShardRow(env.DB, db, repo);
  await writeFiles(db, files);
  await db.batch([
    db.prepare("UPDATE repos SET active_commit = 'n1', active_indexed_at = ? WHERE id = ?").bind(now, repo),
    ...files.map((f) => db.prepare("INSERT INTO snapshot_files (repo, commit_sha, path, file_id) VALUES (?, 'n1', ?, ?)").bind(repo, f.path, f.fileId)),
    ...snapshotStatisticsStatements(db, repo, "n1"),
  ]);
}
