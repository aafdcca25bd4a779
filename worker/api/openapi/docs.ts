/**
 * @module worker/api/openapi/docs
 *
 * The interactive API reference at `/api/docs`: Swagger UI (npm `swagger-ui-dist`, served from
 * this Worker, never from a CDN) reading `/api/openapi.json`. The page's own start-up script is
 * a file too, so the page runs under a CSP without inline script; Swagger UI sets inline style
 * attributes, hence `style-src 'unsafe-inline'` on this page only.
 */
import { Hono } from "hono";
import SWAGGER_UI_CSS from "swagger-ui-dist/swagger-ui.css";
import SWAGGER_UI_JS from "swagger-ui-dist/swagger-ui-bundle.js";
import { CodeSearchError } from "../../../kernel/errors";
import type { ApiEnv } from "../env";

/** CSP of the reference page: this origin's script and API only, no framing. */
export const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'";

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Codebase Copilot REST API</title>
<link rel="stylesheet" href="/api/docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/init.js"></script>
</body>
</html>
`;

// Same-origin requests carry the web session cookie; a bearer token goes in via "Authorize".
const INIT_JS = `window.ui = SwaggerUIBundle({ url: "/api/openapi.json", dom_id: "#swagger-ui", deepLinking: true, withCredentials: true });\n`;

const ASSETS: Record<string, { body: string; type: string }> = {
  "swagger-ui.css": { body: SWAGGER_UI_CSS, type: "text/css; charset=utf-8" },
  "swagger-ui-bundle.js": { body: SWAGGER_UI_JS, type: "text/javascript; charset=utf-8" },
  "init.js": { body: INIT_JS, type: "text/javascript; charset=utf-8" },
};

const common = { "x-content-type-options": "nosniff", "referrer-policy": "same-origin" };

/** `/docs` and its files; mounted at /api before the auth middleware (public). */
export function docsRoutes(): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  app.get("/", (c) =>
    c.body(PAGE, 200, {
      ...common,
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-cache",
      "content-security-policy": DOCS_CSP,
      "x-frame-options": "DENY",
    }),
  );
  app.get("/:asset", (c) => {
    const asset = ASSETS[c.req.param("asset")];
    if (!asset) throw new CodeSearchError("not_found", `No file ${c.req.path}; the reference is at /api/docs.`);
    return c.body(asset.body, 200, { ...common, "content-type": asset.type, "cache-control": "public, max-age=3600" });
  });
  return app;
}
