/**
 * For every operation of the OpenAPI document, the scope it declares is the scope the server
 * enforces, and scopes are ordered as documented (search < index < admin): a token of every
 * scope below the declared one is refused 403 naming the declared scope, and a token of the
 * declared scope or one above is not refused for its scope. Operations are read from
 * GET /api/openapi.json, so a new route is covered as soon as it is documented; the calls aim at
 * an indexed repo the tokens may see, so a service that checks its scope after finding the repo
 * is caught too. Admin tokens are not sent (admin is the top scope, and the calls would delete).
 */
import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../helpers";
import { chunk, indexFixture } from "./search-fixture";

type Scope = "search" | "index" | "admin";
const ORDER: Scope[] = ["search", "index", "admin"];
type Operation = { security?: Record<string, string[]>[] };
type Doc = { paths: Record<string, Record<string, Operation>> };

const REPO = "scope-repo";
const FILE = "src/scoped.ts";

/** `{id}`/`{repo}` -> the fixture repo, `{path}` -> its file, anything else -> `x`. */
function fill(path: string): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => (name === "id" || name === "repo" ? REPO : name === "path" ? FILE : "x"));
}

async function call(method: string, path: string, token: string): Promise<Response> {
  const query = `?q=scoped&pattern=scoped&repo=${REPO}&path=${FILE}&symbol=scoped&name=scoped&line=1&start=1&end=2`;
  const hasBody = !["get", "head"].includes(method);
  const body = hasBody ? JSON.stringify({ q: "scoped", repo: REPO, repos: [REPO], name: "x", scopes: ["search"], intervalSeconds: 600 }) : undefined;
  return SELF.fetch(`http://localhost/api${fill(path)}${query}`, {
    method: method.toUpperCase(),
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body,
  });
}

describe("OpenAPI scopes against enforcement", () => {
  const tokens = {} as Record<"search" | "index", string>;
  let operations: { method: string; path: string; declared: Scope }[] = [];

  beforeAll(async () => {
    await indexFixture(REPO, "e".repeat(40), [{ path: FILE, chunks: [chunk("function", 1, "export function scoped() {\n  return 1;\n}", "scoped")] }]);
    for (const scope of ["search", "index"] as const) {
      const res = await api("/api/tokens", { method: "POST", json: { name: `${scope} only`, scopes: [scope] } });
      expect(res.status).toBe(201);
      tokens[scope] = ((await res.json()) as { token: string }).token;
    }
    const doc = (await (await SELF.fetch("http://localhost/api/openapi.json")).json()) as Doc;
    operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, op]) => op.security)
        .map(([method, op]) => ({ method, path, declared: op.security![0]!.bearerAuth![0] as Scope })),
    );
  });

  it("documents a scope for the protected operations (sanity: the table is not empty)", () => {
    expect(operations.length).toBeGreaterThan(20);
    expect(operations).toContainEqual({ method: "get", path: "/repos/{id}/skipped", declared: "index" });
  });

  it("refuses every scope below the declared one and accepts the declared one and those above", async () => {
    const mismatches: string[] = [];
    for (const op of operations) {
      for (const held of ["search", "index"] as const) {
        const res = await call(op.method, op.path, tokens[held]);
        const text = await res.text();
        const message = res.status === 403 ? String((JSON.parse(text) as { error: { message: string } }).error.message) : "";
        const refused = /needs the "\w+" scope/.test(message);
        const shouldRefuse = ORDER.indexOf(held) < ORDER.indexOf(op.declared);
        const where = `${op.method.toUpperCase()} ${op.path} declares ${op.declared}; a ${held} token got ${res.status} ${text.slice(0, 160)}`;
        if (refused !== shouldRefuse || (refused && !message.includes(`needs the "${op.declared}" scope`))) mismatches.push(where);
      }
    }
    expect(mismatches).toEqual([]);
  });
});
