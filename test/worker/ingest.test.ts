import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { tokenizeQuery } from "../../indexer/store/contract";
import { api } from "../helpers";
import { fixtureUrl, indexRows, refreshAndWait, registerAndWait } from "./ingest-helpers";

/** BM25 over chunks_fts restricted to the repo's active snapshot: best chunk's path and lines. */
async function bm25Top(repo: string, query: string) {
  const match = tokenizeQuery(query).map((t) => `"${t}"`).join(" AND ");
  return env.DB.prepare(
    `SELECT c.path, c.start_line, c.end_line, c.symbol FROM chunks_fts
     JOIN chunks c ON c.rowid = chunks_fts.rowid
     JOIN repos r ON r.id = c.repo
     JOIN snapshot_files s ON s.repo = c.repo AND s.commit_sha = r.active_commit AND s.file_id = c.file_id
     WHERE chunks_fts MATCH ? AND c.repo = ? ORDER BY bm25(chunks_fts, 4, 2, 1) LIMIT 1`,
  )
    .bind(match, repo)
    .first<{ path: string; start_line: number; end_line: number; symbol: string | null }>();
}

describe("git ingestion", () => {
  it("registers, indexes and finds code with BM25; skips what filters exclude", async () => {
    const s = await registerAndWait({ url: fixtureUrl(), name: "fx-basic" });
    expect(s.status, s.lastError ?? "").toBe("ready");
    console.log(JSON.stringify(s, null, 1));
    expect(s.snapshot?.commit).toMatch(/^[0-9a-f]{40}$/);
    const hit = await bm25Top("fx-basic", "compute invoice total");
    expect(hit?.path).toBe("lib/invoice.py");
    expect(hit?.start_line).toBe(1);
  });
});
