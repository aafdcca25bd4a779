/**
 * grep's bounds (issue #43): a path glob runs on RE2 with at most GLOB_MAX_WILDCARDS wildcards,
 * a regex's counted repetition and program size are capped, every call has a wall-clock budget
 * that ends in a truncated page with a cursor (GREP_TIME_BUDGET_MS "0" stops after the first
 * file, so the test asserts the paging, not a timing), and grep spends the search rate limit.
 */
import { createExecutionContext, env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { Env } from "../../kernel/env";
import { chargeExtraWork, checkSearchRate, grepWorkUnits, LocalRateLimiter } from "../../worker/auth/rate-limit";
import worker from "../../worker/index";
import { GLOB_MAX_WILDCARDS } from "../../worker/search/path-glob";
import { GREP_MAX_REPEAT } from "../../worker/search/grep/pattern-cost";
import { adminHeaders, api } from "../helpers";
import type { Caller } from "../../worker/services/context";
import { call, connect } from "./mcp-client";
import { chunk, indexFixture } from "./search-fixture";

const REPO = "grep-bounds";
/** Long folder and file names: a backtracking glob matcher's work grows with the path length to the power of its `*?` pairs. */
const FILES = Array.from({ length: 40 }, (_, i) => ({
  path: `src/${"deeply-nested-module-folder-".repeat(3)}${String(i).padStart(2, "0")}/${"component-implementation-".repeat(3)}${i}.ts`,
  chunks: [chunk("module", 1, `export function handler${i}() {\n  return ${i}; // function body\n}`)],
}));

/** POST /api/grep through the Worker's fetch handler, with `vars` and bindings added to its env. */
async function grepWith(body: unknown, extra: Partial<Env>, headers: Record<string, string> = adminHeaders()): Promise<{ status: number; body: any }> {
  const req = new Request("http://localhost/api/grep", {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify(body),
  }) as Request<unknown, IncomingRequestCfProperties>;
  const res = await worker.fetch(req, { ...(env as unknown as Env), ...extra }, createExecutionContext());
  return { status: res.status, body: await res.json() };
}

const where = (body: any): string[] => body.matches.map((m: any) => `${m.path}:${m.line}`);

describe("grep bounds", () => {
  beforeAll(async () => {
    await indexFixture(REPO, "d".repeat(40), FILES);
  });

  it("answers a glob of seven *? pairs over long paths (RE2, no backtracking), with the right files", async () => {
    const glob = "**/*?*?*?*?*?*?*?3.ts"; // 15 wildcards: under the cap
    const res = await api(`/api/grep?pattern=function&repo=${REPO}&path=${encodeURIComponent(glob)}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect([...new Set(body.matches.map((m: any) => m.path.split("/").pop()))]).toEqual([
      `${"component-implementation-".repeat(3)}3.ts`,
      `${"component-implementation-".repeat(3)}13.ts`,
      `${"component-implementation-".repeat(3)}23.ts`,
      `${"component-implementation-".repeat(3)}33.ts`,
    ]);
  });

  it(`refuses a glob of more than ${GLOB_MAX_WILDCARDS} wildcards with 400 naming the limit, in grep, search and list_files`, async () => {
    const glob = "**/*?*?*?*?*?*?*?*?*?*?#"; // the probe's glob: 21 wildcards
    const g = await api(`/api/grep?pattern=function&path=${encodeURIComponent(glob)}`);
    expect(g.status).toBe(400);
    const gb = (await g.json()) as any;
    expect(gb.error.code).toBe("invalid_input");
    expect(gb.error.message).toContain(`path: a glob may hold at most ${GLOB_MAX_WILDCARDS} wildcards`);
    const s = await api("/api/search", { method: "POST", json: { q: "handler", repo: REPO, path_prefix: glob } });
    expect(s.status).toBe(400);
    expect(((await s.json()) as any).error.message).toContain(`path_prefix: a glob may hold at most ${GLOB_MAX_WILDCARDS} wildcards`);
    const client = await connect();
    const listed = await call(client, "list_files", { repo: REPO, glob });
    expect(listed.isError).toBe(true);
    expect(JSON.stringify(listed.content)).toContain(`at most ${GLOB_MAX_WILDCARDS} wildcards`);
    await client.close();
  });

  it(`refuses counted repetition over ${GREP_MAX_REPEAT} states ([\\s\\S]{1000}) with 400 naming the limit; a SHA-sized count runs`, async () => {
    for (const pattern of ["[\\s\\S]{1000}", "([a-z]{20}){20}", "[\\s\\S]{200}[\\s\\S]{200}"]) {
      const r = await api("/api/grep", { method: "POST", json: { pattern, regex: true, repo: REPO } });
      expect(r.status, pattern).toBe(400);
      expect(((await r.json()) as any).error.message).toContain(`more than ${GREP_MAX_REPEAT}`);
    }
    const ok = await api("/api/grep", { method: "POST", json: { pattern: "handler[0-9]{1,2}\\(\\)", regex: true, repo: REPO } });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as any).total_count).toBe(FILES.length);
  });

  it("ends a call at its wall-clock budget with a truncated page and a cursor that continues exactly", async () => {
    const all = await grepWith({ pattern: "function", repo: REPO, limit: 500 }, {});
    expect(all.body).toMatchObject({ total_count: FILES.length * 2, truncated: false, has_more: false });
    // Budget 0: every call verifies one file, then stops.
    const pages: any[] = [];
    let cursor: string | undefined;
    do {
      const page = await grepWith({ pattern: "function", repo: REPO, limit: 500, ...(cursor ? { cursor } : {}) }, { GREP_TIME_BUDGET_MS: "0" });
      expect(page.status).toBe(200);
      pages.push(page.body);
      cursor = page.body.next_cursor ?? undefined;
    } while (cursor && pages.length <= FILES.length + 1);
    expect(pages[0]).toMatchObject({ truncated: true, has_more: true, total_exact: false, filesScanned: 1 });
    expect(pages[0].matches).toHaveLength(2);
    expect(pages.length).toBe(FILES.length);
    expect(pages.at(-1)).toMatchObject({ has_more: false, next_cursor: null });
    expect(pages.flatMap(where)).toEqual(where(all.body));
  });

  it("counts grep against the search rate limit: 429 once the identity's budget is spent", async () => {
    const res = await api("/api/tokens", { method: "POST", json: { name: "grep limit", scopes: ["search"] } });
    const token = ((await res.json()) as { token: string }).token;
    const limited = { SEARCH_LIMIT_IDENTITY: new LocalRateLimiter(3, 60), SEARCH_LIMIT_IP: new LocalRateLimiter(1_000, 60) };
    const auth = { authorization: `Bearer ${token}` };
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await grepWith({ pattern: "function", repo: REPO }, limited, auth)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await grepWith({ pattern: "function", repo: REPO }, limited, auth);
    expect(refused.body.error.code).toBe("rate_limited");
  });

  it("weighs a grep by its work: more bytes or more time spend more of the identity's limit", async () => {
    const MiB = 1024 * 1024;
    expect([grepWorkUnits(0, 5), grepWorkUnits(5 * MiB, 0), grepWorkUnits(0, 2_500), grepWorkUnits(32 * MiB, 100), grepWorkUnits(0, 60_000)]).toEqual([
      1, 2, 3, 8, 8,
    ]);
    const caller: Caller = { id: "token:grep-weight", kind: "api-token", scopes: ["search"], repos: "*" };
    const limited = { ...(env as unknown as Env), SEARCH_LIMIT_IDENTITY: new LocalRateLimiter(4, 60), SEARCH_LIMIT_IP: new LocalRateLimiter(1_000, 60) };
    const req = new Request("http://localhost/api/grep");
    expect((await checkSearchRate(limited, caller, req)).ok).toBe(true); // the edge's unit
    await chargeExtraWork(limited, caller, 3); // two more
    expect((await checkSearchRate(limited, caller, req)).ok).toBe(true);
    expect((await checkSearchRate(limited, caller, req)).ok).toBe(false);
  });
});
