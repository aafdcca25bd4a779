/**
 * A snapshot that keeps serving after its repo stopped refreshing says so: the token is revoked
 * on the loopback git server, the scheduled check and a refresh fail, and REST search results,
 * the repo status and MCP search_code text carry the staleness until a refresh succeeds again.
 */
import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../worker/index";
import type { SearchResponse } from "../../worker/search/types";
import { api } from "../helpers";
import { refreshAndWait, registerAndWait, repoStatus } from "./ingest-helpers";
import { call, connect, text } from "./mcp-client";
import { createUpstream, pushCommit, setUpstreamAuth } from "./upstream";

async function search(): Promise<SearchResponse> {
  const res = await api("/api/search?q=getUserById&repo=stale");
  expect(res.status).toBe(200);
  return res.json();
}

describe("stale snapshots", () => {
  it("mark results while refreshing fails, in REST, the status and one MCP line", async () => {
    const auth = { username: "carol", password: "token-v1" };
    const { url } = await createUpstream("stale", auth);
    await registerAndWait({ url, name: "stale", username: "carol", token: "token-v1" });
    const fresh = await search();
    expect(fresh.results.length).toBeGreaterThan(0);
    expect(fresh.results.every((r) => r.stale === undefined)).toBe(true);

    // The token is revoked upstream; the scheduled check finds out without starting a job.
    await setUpstreamAuth("stale", { username: "carol", password: "token-v2" });
    const ctx = createExecutionContext();
    await worker.scheduled!(createScheduledController({ scheduledTime: Date.now(), cron: "*/5 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);

    const hits = await search();
    expect(hits.results.length).toBeGreaterThan(0);
    for (const r of hits.results)
      expect(r.stale).toEqual({ reason: expect.stringMatching(/rejected the token/), since: expect.any(Number), snapshotAge: expect.any(Number) });
    const since = hits.results[0].stale!.since;

    // A refresh fails the same way: still stale, since the first failure.
    const failed = await refreshAndWait("stale");
    expect(failed.status).toBe("failed");
    expect(failed.stale).toMatchObject({ reason: expect.stringMatching(/rejected the token/), since });
    expect(failed.snapshot).not.toBeNull(); // the old snapshot keeps serving

    const client = await connect();
    const mcp = await call(client, "search_code", { query: "getUserById", repo: "stale" });
    const lines = text(mcp)
      .split("\n")
      .filter((l) => l.startsWith("stale: "));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^stale: stale results come from a snapshot \d+ min old; refreshing has failed since \S+Z: .*rejected the token/);
    expect(mcp.structuredContent?.results[0].stale.since).toBe(since);

    // A good token again: the next snapshot clears it.
    await setUpstreamAuth("stale", auth);
    await pushCommit("stale", { "src/again.ts": "export const again = 1;\n" });
    const ok = await refreshAndWait("stale");
    expect(ok.status).toBe("ready");
    expect(ok.stale).toBeNull();
    expect((await search()).results.every((r) => r.stale === undefined)).toBe(true);
    expect((await repoStatus("stale")).stale).toBeNull();
  });
});
