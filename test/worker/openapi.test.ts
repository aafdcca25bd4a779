/**
 * The OpenAPI document at GET /api/openapi.json covers every route of the REST app (enumerated
 * from the Hono app, so a new route without a schema fails here), with the scope the auth
 * middleware enforces and the error shape; GET /api links to it and to the reference at
 * /api/docs, which is served from this Worker under its own CSP.
 */
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApiApp } from "../../worker/api/app";
import { PUBLIC_PATHS } from "../../worker/api/openapi/document";

type Operation = { security?: Record<string, string[]>[]; responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }> };
type Doc = { openapi: string; servers: { url: string }[]; paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } };

async function document(): Promise<Doc> {
  const res = await SELF.fetch("http://localhost/api/openapi.json");
  expect(res.status).toBe(200);
  return res.json();
}

/** `/repos/:id/files/*` -> `/repos/{id}/files/{path}`, the OpenAPI spelling. */
function openApiPath(honoPath: string): string {
  return honoPath.replace(/:(\w+)/g, "{$1}").replace(/\/\*$/, "/{path}");
}

describe("OpenAPI", () => {
  it("is OpenAPI 3.1 served under /api, without authentication", async () => {
    const doc = await document();
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.servers).toEqual([{ url: "/api" }]);
    expect(doc.components.schemas.Error).toBeDefined();
  });

  it("documents every route of the app, each protected one with its scope and error shape", async () => {
    const doc = await document();
    const routes = createApiApp()
      .routes.filter((r) => !(r.method === "ALL" && r.path.endsWith("*")))
      .map((r) => ({ method: r.method.toLowerCase(), path: openApiPath(r.path) }))
      .filter((r) => !PUBLIC_PATHS.includes(r.path));
    expect(routes.length).toBeGreaterThan(10);
    const missing = routes.filter((r) => !doc.paths[r.path]?.[r.method]).map((r) => `${r.method.toUpperCase()} ${r.path}`);
    expect(missing).toEqual([]);
    for (const r of routes) {
      const op = doc.paths[r.path][r.method];
      const scopes = op.security?.map((s) => Object.values(s)[0]);
      expect(scopes?.length, `${r.method} ${r.path} security`).toBe(2);
      expect(["search", "index", "admin"]).toContain(scopes![0][0]);
      for (const status of ["401", "403", "500"]) {
        expect(op.responses[status]?.content?.["application/json"].schema.$ref, `${r.method} ${r.path} ${status}`).toBe("#/components/schemas/Error");
      }
    }
    expect(doc.paths["/tokens"].post.security?.[0]).toEqual({ bearerAuth: ["admin"] });
    expect(doc.paths["/search"].get.security?.[0]).toEqual({ bearerAuth: ["search"] });
    expect(doc.paths["/search"].get.responses["429"]).toBeDefined();
  });

  it("GET /api links to the document and the reference", async () => {
    const res = await SELF.fetch("http://localhost/api");
    expect(res.status).toBe(200);
    const body = (await res.json()) as { openapi: string; docs: string };
    expect(body.openapi).toBe("http://localhost/api/openapi.json");
    expect(body.docs).toBe("http://localhost/api/docs");
  });

  it("serves the reference page and Swagger UI's files locally, under a CSP without inline script", async () => {
    const page = await SELF.fetch("http://localhost/api/docs");
    expect(page.status).toBe(200);
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/script-src 'self';/);
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    const html = await page.text();
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/<script>[^<]/);
    for (const src of html.match(/(?:src|href)="([^"]+)"/g)!.map((m) => m.slice(m.indexOf('"') + 1, -1))) {
      const asset = await SELF.fetch(`http://localhost${src}`);
      expect(asset.status, src).toBe(200);
      expect((await asset.text()).length, src).toBeGreaterThan(src.endsWith("init.js") ? 50 : 10_000);
    }
    const bundle = await (await SELF.fetch("http://localhost/api/docs/swagger-ui-bundle.js")).text();
    expect(bundle).toMatch(/SwaggerUIBundle/);
    expect((await SELF.fetch("http://localhost/api/docs/nope.js")).status).toBe(404);
  });
});
