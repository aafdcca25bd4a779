/**
 * A refresh that arrives while a job runs is never dropped: the running job keeps going, and
 * exactly one follow-up job indexes the newest commit when it ends. The upstream is a loopback
 * git server whose pack fetches can be held, so the refresh lands after the job resolved its
 * commit, the case that used to end `ready` at the old commit.
 */
import { describe, expect, it } from "vitest";
import type { RepoStatus } from "../../worker/services/repos";
import { api } from "../helpers";
import { indexDb, registerAndWait, repoStatus } from "./ingest-helpers";
import { call, connect, text } from "./mcp-client";
import { createUpstream, hold, pushCommit, release, requestLog } from "./upstream";

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, tries = 400): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const v = await probe();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function packFetches(name: string): Promise<number> {
  return (await requestLog(name)).filter((r) => r.kind === "upload-pack").length;
}

async function refresh(id: string): Promise<RepoStatus> {
  const res = await api(`/api/repos/${id}/refresh`, { method: "POST", json: {} });
  expect(res.status).toBe(202);
  return ((await res.json()) as { repo: RepoStatus }).repo;
}

describe("refresh during a running job", () => {
  it("queues one follow-up that indexes the newest commit", async () => {
    const up = await createUpstream("followup");
    const first = await registerAndWait({ url: up.url, name: "followup" });
    expect(first.snapshot?.commit).toBe(up.head);

    await pushCommit("followup", { "src/one.ts": "export const one = 1;\n" });
    await hold("followup", "upload-pack");
    const packsBefore = await packFetches("followup");
    const started = await refresh("followup");
    expect(started.pending).toBeNull();
    const jobA = started.job!.id;
    // The job has resolved the first push and asked for its pack: the remote moves on under it.
    await until("the pack fetch", async () => (await packFetches("followup")) > packsBefore);
    const c2 = await pushCommit("followup", { "src/two.ts": "export const two = 2;\n" });

    const during = await refresh("followup");
    expect(during.job?.id).toBe(jobA);
    expect(during.status).toBe("fetching");
    expect(during.pending).toEqual({ commit: null, requestedAt: expect.any(Number) });
    // A second request while one is pending still makes one follow-up, not two.
    const again = await refresh("followup");
    expect(again.pending?.requestedAt).toBeGreaterThanOrEqual(during.pending!.requestedAt);

    await release("followup");
    const b = await until("the follow-up job", async () => {
      const s = await repoStatus("followup");
      return s.job?.id !== jobA && (s.status === "ready" || s.status === "failed") && s;
    });
    expect(b.status).toBe("ready");
    expect(b.job?.commit).toBe(c2);
    expect(b.snapshot?.commit).toBe(c2);
    expect(b.pending).toBeNull();
    expect(b.job?.requestedAt).toBe(again.pending!.requestedAt);
    // Exactly one follow-up: the job after it is still the same one.
    await new Promise((r) => setTimeout(r, 200));
    expect((await repoStatus("followup")).job?.id).toBe(b.job?.id);
    const text = await (
      await indexDb("followup")
    )
      .prepare("SELECT count(*) AS n FROM chunks WHERE repo = ? AND path = 'src/two.ts'")
      .bind("followup")
      .first<{ n: number }>();
    expect(text?.n).toBeGreaterThan(0);
  });

  it("says so over MCP refresh_index instead of claiming a new job started", async () => {
    const up = await createUpstream("followup-mcp");
    await registerAndWait({ url: up.url, name: "followup-mcp" });
    await pushCommit("followup-mcp", { "src/mcp.ts": "export const m = 1;\n" });
    await hold("followup-mcp", "upload-pack");
    const packsBefore = await packFetches("followup-mcp");
    const started = await refresh("followup-mcp");
    await until("the pack fetch", async () => (await packFetches("followup-mcp")) > packsBefore);
    const client = await connect();
    const result = await call(client, "refresh_index", { repo: "followup-mcp" });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toMatch(/^A job is already running \(fetching\); a follow-up re-index is queued/);
    expect(text(result)).not.toMatch(/Re-index started/);
    expect(result.structuredContent?.pending).toEqual({ commit: null, requestedAt: expect.any(Number) });
    await release("followup-mcp");
    await until("the follow-up job", async () => {
      const s = await repoStatus("followup-mcp");
      return s.job?.id !== started.job!.id && s.status === "ready";
    });
  });
});
