/** The sync diff and the filter, as tables of inputs and expected plans. */
import { describe, expect, it } from "vitest";
import { compileFilter } from "./filter";
import { planSync, type KnownRepo } from "./plan";
import type { UpstreamRepo } from "./types";

const up = (id: string, fullName: string, extra: Partial<UpstreamRepo> = {}): UpstreamRepo => ({
  id,
  fullName,
  name: fullName.split("/").pop()!,
  cloneUrl: `https://h/${fullName}.git`,
  fork: false,
  visibility: "public",
  archived: false,
  ...extra,
});
const known = (id: string, fullName: string, extra: Partial<KnownRepo> = {}): KnownRepo => ({
  upstreamId: id,
  fullName,
  cloneUrl: `https://h/${fullName}.git`,
  repo: fullName.replace("/", "-"),
  registeredAt: 1,
  skipReason: null,
  missingSince: null,
  ...extra,
});
const all = compileFilter({ include: [], exclude: [], forks: false, archived: false });
const H = 3600_000;

describe("compileFilter", () => {
  it.each([
    [{ include: ["api-*"] }, up("1", "o/api-x"), null],
    [{ include: ["api-*"] }, up("1", "o/web"), "excluded"],
    [{ include: ["o/*"], exclude: ["*-internal"] }, up("1", "o/vault-internal"), "excluded"],
    [{ include: ["platform/sub/*"] }, up("1", "platform/sub/svc"), null],
    [{ include: ["API-*"] }, up("1", "o/api-x"), null],
    [{}, up("1", "o/f", { fork: true }), "fork"],
    [{ forks: true }, up("1", "o/f", { fork: true }), null],
    [{}, up("1", "o/a", { archived: true }), "archived"],
    [{ archived: true }, up("1", "o/a", { archived: true }), null],
  ])("%j on %j -> %s", (f, repo, want) => {
    expect(compileFilter({ include: [], exclude: [], forks: false, archived: false, ...f })(repo)).toBe(want);
  });
});

describe("planSync", () => {
  it("adds new repos and registers at most the cap, older waiting ones included", () => {
    const plan = planSync([known("9", "o/wait", { registeredAt: null })], [up("1", "o/a"), up("2", "o/b"), up("9", "o/wait")], all, 0, 72 * H, 2);
    expect(plan.added.map((a) => a.repo)).toEqual(["o-a", "o-b"]);
    expect(plan.register.map((r) => r.repo)).toEqual(["o-a", "o-b"]);
  });

  it("marks a deleted or newly excluded repo, keeps it through the grace period, removes it after", () => {
    const k = [known("1", "o/gone"), known("2", "o/now-fork")];
    const listed = [up("2", "o/now-fork", { fork: true })];
    expect(planSync(k, listed, all, 10, 72 * H, 25).marked).toEqual([
      { upstreamId: "2", reason: "fork" },
      { upstreamId: "1", reason: "deleted" },
    ]);
    const marked = k.map((x) => ({ ...x, missingSince: 10 }));
    expect(planSync(marked, listed, all, 10 + 72 * H - 1, 72 * H, 25).removed).toEqual([]);
    expect(planSync(marked, listed, all, 10 + 72 * H, 72 * H, 25).removed).toEqual([
      { upstreamId: "2", repo: "o-now-fork" },
      { upstreamId: "1", repo: "o-gone" },
    ]);
  });

  it("unmarks a repo that is back, and records renames without a new repo", () => {
    const plan = planSync([known("1", "o/old", { missingSince: 5 })], [up("1", "o/renamed")], all, 6, 72 * H, 25);
    expect(plan.unmarked).toEqual(["1"]);
    expect(plan.added).toEqual([]);
    expect(plan.renamed).toEqual([{ upstreamId: "1", fullName: "o/renamed", cloneUrl: "https://h/o/renamed.git", repo: "o-old" }]);
  });

  it("never re-registers a repo an admin deleted", () => {
    const plan = planSync([known("1", "o/a", { registeredAt: null, skipReason: "deleted_by_admin" })], [up("1", "o/a")], all, 0, H, 25);
    expect(plan.register).toEqual([]);
  });
});
