import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { tokenize } from "../../indexer/store/contract";

describe("worker", () => {
  it("answers /api/health and has the schema applied", async () => {
    const res = await SELF.fetch("http://localhost/api/health");
    expect(res.status).toBe(200);
    const row = await env.DB.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'chunks_fts'").first<{ n: number }>();
    expect(row?.n).toBe(1);
    await env.DB.prepare("INSERT INTO chunks_fts(rowid, symbol, path, body) VALUES (1, ?, ?, ?)")
      .bind("getuserbyid get user by id", "src users ts", tokenize("return db.users.find(id)").join(" "))
      .run();
    const hit = await env.DB.prepare("SELECT rowid, bm25(chunks_fts, 3, 2, 1) AS s FROM chunks_fts WHERE chunks_fts MATCH ?")
      .bind('"user" OR "find"')
      .first<{ rowid: number }>();
    expect(hit?.rowid).toBe(1);
  });
});
