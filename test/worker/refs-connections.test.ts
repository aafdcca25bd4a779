/**
 * A connection's default ref patterns (docs/refs.md): every repo it registers tracks them
 * besides its default branch, and each such ref gets its own snapshot.
 */
import { describe, expect, inject, it } from "vitest";
import { api } from "../helpers";
import { refOf, waitForRefs } from "./refs-helpers";
import { createUpstream } from "./upstream";

const host = () => inject("codeHostUrl");

async function ctl(path: string, body: unknown): Promise<void> {
  const res = await fetch(`${host()}/_control${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  expect(res.status, path).toBe(200);
}

describe("a connection's default ref patterns", () => {
  it("are normalised, shown, and tracked by the repos it registers", async () => {
    const up = await createUpstream("gh-refsorg-app");
    await ctl("/git-upstream", { url: inject("gitServerUrl") });
    await ctl("/github/owners/refsorg", { type: "Organization", repos: [{ id: 71, name: "app", clone_url: up.url }] });
    const res = await api("/api/connections", {
      method: "POST",
      json: { provider: "github", owner: "refsorg", baseUrl: `${host()}/github`, refs: ["change"] },
    });
    const json = (await res.json()) as any;
    expect(res.status, JSON.stringify(json)).toBe(201);
    expect(json.connection.refs).toEqual(["refs/heads/change"]);
    expect(json.sync.registered).toEqual(["refsorg-app"]);
    const s = await waitForRefs("refsorg-app", (x) => x.refs.length === 2 && x.refs.every((r) => r.commit !== null));
    expect(s.refPatterns).toEqual(["refs/heads/change"]);
    expect(refOf(s, "refs/heads/change")).toMatchObject({ default: false, status: "ready" });
    expect(refOf(s, "refs/heads/main").commit).toBe(up.head);
  });

  it("refuses a malformed pattern with 400 and creates nothing", async () => {
    const res = await api("/api/connections", {
      method: "POST",
      json: { provider: "github", owner: "refsorg-bad", baseUrl: `${host()}/github`, refs: ["bad..ref"] },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.message).toContain('"bad..ref"');
  });
});
