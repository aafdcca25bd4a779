/**
 * The answers to a bad access list (`PATCH /api/repos/{id}` with `access`): the limit named for
 * a list over ACCESS_LIST_MAX, and the bad value quoted next to its place, instead of the
 * generic 'must be "everyone" or {...}' (a new user's tryout).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { ACCESS_LIST_MAX } from "../../worker/services/repo-access";
import { api } from "../helpers";
import { chunk, indexFixture } from "./search-fixture";

async function patch(access: unknown): Promise<{ status: number; message: string }> {
  const res = await api("/api/repos/access-input", { method: "PATCH", json: { access } });
  const body = await res.json<{ error?: { message: string } }>();
  return { status: res.status, message: body.error?.message ?? JSON.stringify(body) };
}

describe("PATCH /api/repos/{id} access errors", () => {
  beforeAll(async () => {
    await indexFixture("access-input", "c".repeat(40), [{ path: "src/a.ts", chunks: [chunk("function", 1, "export function a() {}", "a")] }]);
  });

  it("names the limit for a list over it", async () => {
    const users = Array.from({ length: ACCESS_LIST_MAX + 1 }, (_, i) => `user${i}`);
    const r = await patch({ users });
    expect(r.status).toBe(400);
    expect(r.message).toBe(`access: users: at most ${ACCESS_LIST_MAX} users per access list`);
  });

  it("quotes the bad value", async () => {
    const r = await patch({ users: ["octocat", "not a login!"] });
    expect(r.status).toBe(400);
    expect(r.message).toBe('access.users.1: "not a login!" is not a GitHub login such as "octocat", or "gitlab:<username>"');
    const team = await patch({ teams: ["acme"] });
    expect(team.message).toBe('access.teams.0: "acme" is not a GitHub team written "org/team-slug"');
  });

  it("keeps the generic form for a value of neither shape", async () => {
    const r = await patch("nobody");
    expect(r.status).toBe(400);
    expect(r.message).toBe('access: must be "everyone" or {"users": [...], "teams": [...]}');
  });
});
