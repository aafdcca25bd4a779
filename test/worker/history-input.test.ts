/**
 * The input checks of history and commit search, which answer before any repo is read: each bad
 * input gets a 400 naming its field and what to pass instead (a new user's tryout found silent
 * empty answers and zod's default wording). No fixture: the checks come first.
 */
import { describe, expect, it } from "vitest";
import { api } from "../helpers";
import { call, connect, text } from "./mcp-client";

type Json = { error?: { code: string; message: string } };

async function get(path: string): Promise<{ status: number; message: string }> {
  const res = await api(path);
  const body = await res.json<Json>();
  return { status: res.status, message: body.error?.message ?? JSON.stringify(body) };
}

describe("GET /api/search/commits dates", () => {
  it("refuses since after until, naming both", async () => {
    const r = await get("/api/search/commits?q=fix&since=2026-05-01&until=2026-04-01");
    expect(r.status).toBe(400);
    expect(r.message).toContain("since (2026-05-01) is after until (2026-04-01)");
  });

  it("takes since and until on the same day (until is through its end)", async () => {
    expect((await get("/api/search/commits?q=fix&since=2026-05-01&until=2026-05-01")).status).toBe(200);
  });

  it("names the field and the expected form for a date that does not exist", async () => {
    for (const [field, value] of [
      ["since", "2026-13-45"],
      ["until", "2026-02-30"],
    ]) {
      const r = await get(`/api/search/commits?q=fix&${field}=${value}`);
      expect(r.status).toBe(400);
      expect(r.message).toMatch(new RegExp(`^${field}: "${value}" is not a real date; use YYYY-MM-DD .* or an ISO 8601 UTC time`));
    }
  });

  it("answers the same over MCP", async () => {
    const client = await connect();
    const r = await call(client, "search_commits", { q: "fix", since: "2026-05-01", until: "2026-04-01" });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain("since (2026-05-01) is after until (2026-04-01)");
    const bad = await call(client, "search_commits", { q: "fix", since: "2026-13-45" });
    expect(text(bad)).toContain('since: "2026-13-45" is not a real date');
  });
});

describe("GET /api/repos/{id}/history input", () => {
  // The checks come before the repo is read, so an id that is not registered is enough.
  const base = "/api/repos/no-such-repo/history?path=src/a.ts";

  it("refuses end without start instead of answering the whole file", async () => {
    const r = await get(`${base}&end=5`);
    expect(r.status).toBe(400);
    expect(r.message).toBe("end needs start: give start too (start alone is one line), or neither for the whole file's history");
  });

  it("says to pass next_cursor unchanged for a cursor it did not give", async () => {
    const r = await get(`${base}&cursor=abc`);
    expect(r.status).toBe(400);
    expect(r.message).toContain("cursor: not a cursor this API gave: pass next_cursor from the previous page unchanged");
    expect(r.message).not.toContain("pattern");
  });

  it("says lines are 1-based for start or end 0", async () => {
    for (const q of ["start=0", "start=1&end=0"]) {
      const r = await get(`${base}&${q}`);
      expect(r.status, q).toBe(400);
      expect(r.message, q).toMatch(/^(start|end): lines are 1-based: the first line is 1, so give 1 or more$/);
    }
    const blame = await get("/api/repos/no-such-repo/blame?path=src/a.ts&start=0");
    expect(blame.message).toBe("start: lines are 1-based: the first line is 1, so give 1 or more");
  });

  it("answers the same over MCP", async () => {
    const client = await connect();
    const r = await call(client, "file_history", { repo: "no-such-repo", path: "src/a.ts", end: 5 });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain("end needs start: give start too");
  });
});
