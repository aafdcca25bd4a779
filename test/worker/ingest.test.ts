import { describe, expect, it } from "vitest";
import { tokenizeQuery } from "../../indexer/store/contract";
import { api } from "../helpers";
import { CHUNK_CONTENT, CHUNK_FILE_JOIN } from "../../worker/search/snapshot-sql";
import type { RepoStatus } from "../../worker/services/repos";
import { fixtureUrl, indexDb, indexShape, refreshAndWait, registerAndWait, repoStatus } from "./ingest-helpers";

/** BM25 over chunks_fts restricted to the repo's active snapshot: the best chunk. */
async function bm25Top(repo: string, query: string) {
  const match = tokenizeQuery(query)
    .map((t) => `"${t}"`)
    .join(" AND ");
  return (await indexDb(repo))
    .prepare(
      `SELECT c.path, c.start_line, c.end_line, ${CHUNK_CONTENT} AS content FROM chunks_fts
     JOIN chunks c ON c.rowid = chunks_fts.rowid
     JOIN repos r ON r.id = c.repo
     JOIN snapshot_files s ON s.repo = c.repo AND s.commit_sha = r.active_commit AND s.file_id = c.file_id
     ${CHUNK_FILE_JOIN}
     WHERE chunks_fts MATCH ? AND c.repo = ? ORDER BY bm25(chunks_fts, 4, 2, 1) LIMIT 1`,
    )
    .bind(match, repo)
    .first<{ path: string; start_line: number; end_line: number; content: string }>();
}

describe("git ingestion", () => {
  it("registers, indexes, finds code with BM25, and counts every skipped file by reason", async () => {
    const s = await registerAndWait({ url: fixtureUrl(), name: "fx-basic" });
    expect(s.status, s.lastError ?? "").toBe("ready");
    expect(s.snapshot?.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(s.job?.commit).toBe(s.snapshot?.commit);
    // 13 tree entries: README, .gitignore, users.ts, db.ts, invoice.py, Makefile are indexed, and
    // so are debug.log and ignored-dir/secret-notes.ts: the fixture force-adds them, and git
    // applies .gitignore to untracked files only (`git check-ignore` says they are not ignored).
    expect(s.progress).toMatchObject({ filesTotal: 13, filesQueued: 8, filesDone: 8 });
    expect(s.progress.chunks).toBeGreaterThan(0);
    expect(s.skipped).toEqual({ binary: 1, too_large: 1, secret: 1, vendored: 1, symlink: 1 });
    expect(s.embedding).toEqual({ model: "local-hash-v1", dimensions: 384 });

    const hit = await bm25Top("fx-basic", "compute invoice total");
    expect(hit).toMatchObject({ path: "lib/invoice.py", start_line: 1 });
    expect(hit!.end_line).toBeGreaterThanOrEqual(3);
    expect(hit!.content).toContain("def compute_invoice_total(lines):");
    expect((await bm25Top("fx-basic", "getUserById"))?.path).toBe("src/users.ts");
    expect((await bm25Top("fx-basic", "build"))?.path).toBe("Makefile");

    const shape = await indexShape("fx-basic");
    expect(shape.snapshot.map((r) => r.path)).toEqual([
      ".gitignore",
      "Makefile",
      "README.md",
      "debug.log",
      "ignored-dir/secret-notes.ts",
      "lib/invoice.py",
      "src/db.ts",
      "src/users.ts",
    ]);
    // Nothing excluded reached the index: not the key, not vendored files.
    const leaked = await (
      await indexDb("fx-basic")
    )
      .prepare("SELECT count(*) AS n FROM files WHERE repo = ? AND (text LIKE '%PRIVATE KEY%' OR path LIKE 'node_modules/%')")
      .bind("fx-basic")
      .first<{ n: number }>();
    expect(leaked?.n).toBe(0);
    expect(shape.vectors).toBe(shape.chunks.length);
    expect(shape.fts).toBe(shape.chunks.length);

    const list = await (await api("/api/repos")).json<{ repos: { id: string; status: string; snapshot: unknown }[] }>();
    expect(list.repos.find((r) => r.id === "fx-basic")).toMatchObject({ status: "ready", snapshot: { commit: s.snapshot!.commit } });
  });

  it("re-indexes an unchanged commit without processing a file", async () => {
    const first = await registerAndWait({ url: fixtureUrl(), name: "fx-same" });
    expect(first.status).toBe("ready");
    const before = await indexShape("fx-same");
    const again = await refreshAndWait("fx-same");
    expect(again.status).toBe("ready");
    expect(again.job?.id).not.toBe(first.job?.id);
    expect(again.progress).toMatchObject({ filesQueued: 0, filesDone: 0, chunks: 0 });
    expect(again.job?.unchanged).toBe(8);
    expect(again.skipped).toEqual(first.skipped);
    expect(again.snapshot?.commit).toBe(first.snapshot?.commit);
    expect(await indexShape("fx-same")).toEqual(before);
    // The index totals describe what search serves, not the last job's counters.
    expect(first.index).toEqual({ files: before.snapshot.length, chunks: before.chunks.length });
    expect(again.index).toEqual(first.index);
    expect(again.index!.chunks).toBeGreaterThan(0);
    // The list reports the same status as the single GET.
    const list = (await (await api("/api/repos")).json()) as { repos: RepoStatus[] };
    const listed = list.repos.find((r) => r.id === "fx-same");
    expect(listed).toEqual(await repoStatus("fx-same"));
    expect(listed?.skipped).toEqual(first.skipped);
    expect(listed?.job?.id).toBe(again.job?.id);
  });

  it("a one-file change processes one file; search reflects it and the old version is collected", async () => {
    const first = await registerAndWait({ url: fixtureUrl(), name: "fx-change" });
    const oldUsers = await (
      await indexDb("fx-change")
    )
      .prepare("SELECT file_id FROM files WHERE repo = 'fx-change' AND path = 'src/users.ts'")
      .first<{ file_id: string }>();
    expect(await bm25Top("fx-change", "renameUserAccount")).toBeNull();

    const changed = await refreshAndWait("fx-change", { ref: "change" });
    expect(changed.status, changed.lastError ?? "").toBe("ready");
    expect(changed.ref).toBe("change");
    expect(changed.snapshot?.commit).not.toBe(first.snapshot?.commit);
    expect(changed.progress).toMatchObject({ filesQueued: 1, filesDone: 1 });
    expect(changed.job?.unchanged).toBe(7);

    const hit = await bm25Top("fx-change", "renameUserAccount");
    expect(hit?.path).toBe("src/users.ts");
    expect(hit?.content).toContain("export function renameUserAccount(id: string, name: string)");
    expect(hit?.start_line).toBeGreaterThan(10);

    // The old version of src/users.ts is gone: file row, chunks, FTS rows, vectors, old snapshot.
    const shape = await indexShape("fx-change");
    expect(shape.files.filter((f) => f.path === "src/users.ts")).toHaveLength(1);
    expect(shape.orphanVectors).toBe(0);
    expect(shape.vectors).toBe(shape.chunks.length);
    expect(shape.fts).toBe(shape.chunks.length);
    const old = await (
      await indexDb("fx-change")
    )
      .prepare(
        "SELECT (SELECT count(*) FROM chunks WHERE file_id = ?1) + (SELECT count(*) FROM files WHERE file_id = ?1) + (SELECT count(*) FROM symbols WHERE file_id = ?1) " +
          "+ (SELECT count(*) FROM file_terms WHERE file_id = ?1) AS n",
      )
      .bind(oldUsers!.file_id)
      .first<{ n: number }>();
    expect(old?.n).toBe(0);
    const commits = await (
      await indexDb("fx-change")
    )
      .prepare("SELECT DISTINCT commit_sha FROM snapshot_files WHERE repo = 'fx-change'")
      .all<{ commit_sha: string }>();
    expect(commits.results.map((r) => r.commit_sha)).toEqual([changed.snapshot!.commit]);
    const dfSets = await (
      await indexDb("fx-change")
    )
      .prepare(
        "SELECT count(DISTINCT d.terms_key) AS n, min(d.terms_key = s.terms_key) AS active FROM snapshot_df d JOIN snapshot_stats s ON s.repo = d.repo WHERE d.repo = 'fx-change'",
      )
      .first<{ n: number; active: number }>();
    expect(dfSets).toEqual({ n: 1, active: 1 });

    // And the same tree indexed from scratch gives the same index.
    const clean = await registerAndWait({ url: fixtureUrl(), ref: "change", name: "fx-change-clean" });
    expect(clean.status).toBe("ready");
    expect(await indexShape("fx-change")).toEqual(await indexShape("fx-change-clean"));
  });

  it("deletes a repo with every row, vector and its coordinator state", async () => {
    await registerAndWait({ url: fixtureUrl(), name: "fx-delete" });
    const shardDb = await indexDb("fx-delete"); // read before the catalog row that places it goes
    const res = await api("/api/repos/fx-delete", { method: "DELETE" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ deleted: "fx-delete" });
    const shape = await indexShape("fx-delete");
    expect(shape).toMatchObject({ snapshot: [], files: [], chunks: [], fts: 0, symbols: [], vectors: 0 });
    const left = await shardDb
      .prepare(
        "SELECT (SELECT count(*) FROM file_terms WHERE repo = ?1) + (SELECT count(*) FROM snapshot_terms WHERE repo = ?1) + (SELECT count(*) FROM snapshot_stats WHERE repo = ?1) AS n",
      )
      .bind("fx-delete")
      .first<{ n: number }>();
    expect(left?.n).toBe(0);
    expect((await api("/api/repos/fx-delete")).status).toBe(404);
    // The id can be registered again from scratch.
    const again = await registerAndWait({ url: fixtureUrl(), name: "fx-delete" });
    expect(again.status).toBe("ready");
    expect(again.progress.filesQueued).toBe(8);
  });
});
