/**
 * Reading refs end to end (issue #49): a repo registered from the loopback git server with
 * `refs: ["change"]` is indexed at main (default) and at change (which rewrites src/users.ts
 * and adds renameUserAccount) by the coordinator; reads name the ref or not, over REST and MCP.
 * test/worker/refs-read.test.ts covers every reader over a written fixture.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../helpers";
import { call, connect, text } from "./mcp-client";
import { refOf, waitForRefs } from "./refs-helpers";
import { createUpstream } from "./upstream";

const REPO = "refs-git";
let main: string;
let change: string;

async function post(path: string, json: unknown): Promise<{ status: number; body: any }> {
  const res = await api(path, { method: "POST", json });
  return { status: res.status, body: await res.json() };
}

describe("two branches of one git repo", () => {
  beforeAll(async () => {
    const { url } = await createUpstream(REPO);
    expect((await api("/api/repos", { method: "POST", json: { url, name: REPO, refs: ["change"] } })).status).toBe(202);
    const s = await waitForRefs(REPO, (x) => x.refs.length === 2 && x.refs.every((r) => r.commit !== null));
    main = refOf(s, "refs/heads/main").commit!;
    change = refOf(s, "refs/heads/change").commit!;
    expect(change).not.toBe(main);
  });

  it("grep and search find a function only on change with ref=change, never without", async () => {
    const none = await post("/api/grep", { pattern: "renameUserAccount", repo: REPO });
    expect(none.body.total_count).toBe(0);
    const onChange = await post("/api/grep", { pattern: "renameUserAccount", repo: REPO, ref: "change" });
    expect(onChange.body.total_count).toBeGreaterThan(0);
    for (const m of onChange.body.matches) expect(m).toMatchObject({ path: "src/users.ts", ref: "refs/heads/change", commit: change });

    const q = { q: "renameUserAccount rename a user account", repo: REPO, k: 5 };
    const s = await post("/api/search", { ...q, ref: "refs/heads/change" });
    expect(s.status).toBe(200);
    expect(s.body.results[0]).toMatchObject({ path: "src/users.ts", ref: "refs/heads/change", commit: change });
    expect(s.body.results[0].snippet).toContain("renameUserAccount");
    const byDefault = await post("/api/search", q);
    for (const r of byDefault.body.results) {
      expect(r).toMatchObject({ ref: "refs/heads/main", commit: main });
      expect(r.snippet).not.toContain("renameUserAccount");
    }
  });

  it("reads a file at either branch, and an unknown ref is 404 naming the tracked ones", async () => {
    const a = (await (await api(`/api/repos/${REPO}/files/src/users.ts`)).json()) as any;
    const b = (await (await api(`/api/repos/${REPO}/files/src/users.ts?ref=change`)).json()) as any;
    expect(a).toMatchObject({ ref: "refs/heads/main", commit: main });
    expect(b).toMatchObject({ ref: "refs/heads/change", commit: change });
    expect(JSON.stringify(b.lines)).toContain("renameUserAccount");
    expect(JSON.stringify(a.lines)).not.toContain("renameUserAccount");
    const res = await api(`/api/repos/${REPO}/tree?ref=feature`);
    expect(res.status).toBe(404);
    const body = (await res.json()) as any;
    expect(body.error.code).toBe("ref_not_found");
    expect(body.error.message).toContain("Tracked refs: main (default), change.");
  });

  it("over MCP, find_symbol takes ref and names the snapshot it read", async () => {
    const client = await connect();
    const r = await call(client, "find_symbol", { name: "renameUserAccount", repo: REPO, ref: "change" });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ symbols: [expect.objectContaining({ path: "src/users.ts", ref: "refs/heads/change", commit: change })] });
    expect(text(r)).toContain(`read at: ${REPO} change@${change.slice(0, 12)}`);
    const none = await call(client, "find_symbol", { name: "renameUserAccount", repo: REPO });
    expect((none.structuredContent as any).symbols).toEqual([]);
  });
});
