/**
 * @module worker/auth/routes/source
 *
 *   GET /source/{repo}/{path}?exp=&cred=&sig=&ref=   the file of the repo's active snapshot (or of
 *                                         `ref`'s, worker/services/refs.ts) as the
 *                                         web source view (web/source-page.ts: anchors L1, L2 ...,
 *                                         outline; the script lands on `#L10-L20`), if the
 *                                         signature is valid and not expired, and the minting
 *                                         credential still works and still sees the repo
 *                                         (worker/auth/link-credential.ts).
 *   POST /api/source-links {repo, path, ref?, startLine?, endLine?} -> {url, expiresAt} (scope
 *                                         search; 404 file_not_found for a path that is not indexed)
 * The signature covers (repo, path): `ref` only picks among the snapshots of a repo the
 * credential may see, so it rides along unsigned.
 * The file is looked up in the index by (repo, path) the index recorded; nothing is opened
 * from the request.
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { Hono } from "hono";
import { z } from "zod";
import { shardDb } from "../../../indexer/store/shards";
import type { ApiEnv } from "../../api/env";
import { errorDoc } from "../../api/openapi/document";
import { jsonResponse } from "../../api/openapi/route-kit";
import { jsonBody } from "../../api/validation";
import type { Env } from "../../../kernel/env";
import { requireScope, serviceContext } from "../../services/context";
import { activeRepo, loadFile, type ActiveRepo } from "../../services/files";
import { refSchema } from "../../services/refs";
import { CodeSearchError } from "../../../kernel/errors";
import { loadAuthConfig } from "../config";
import { messagePage, pageHeaders } from "../pages/layout";
import { renderSourcePage, webPageHeaders, type OutlineEntry } from "../../../web";
import { publicOrigin } from "../provider";
import { callerForLink, CREDENTIAL_GONE, linkCredential } from "../link-credential";
import { signSourceLink, verifySourceLink } from "../source-links";

type RootEnv = { Bindings: Env };

async function page(body: ReturnType<typeof messagePage>, status: number): Promise<Response> {
  const headers = pageHeaders();
  headers.set("referrer-policy", "no-referrer"); // the signature must not leak to other sites
  return new Response(await body, { status, headers });
}

/** Most outline entries the source view lists (the outline route pages the rest). */
const SOURCE_OUTLINE_MAX = 500;

/** The file of snapshot (repo, commit) with its outline; undefined when not indexed. */
async function activeFile(
  db: D1Database,
  repo: string,
  commit: string,
  path: string,
): Promise<{ text: string; language: string; commit: string; outline: OutlineEntry[] } | undefined> {
  const row = await db
    .prepare(
      `SELECT f.text AS text, f.language AS language, f.file_id AS fileId, s.commit_sha AS commitSha FROM snapshot_files s
         JOIN files f ON f.repo = s.repo AND f.file_id = s.file_id
       WHERE s.repo = ? AND s.commit_sha = ? AND s.path = ?`,
    )
    .bind(repo, commit, path)
    .first<{ text: string; language: string; fileId: string; commitSha: string }>();
  if (!row) return undefined;
  const symbols = await db
    .prepare(
      "SELECT name, kind, container, start_line AS startLine, end_line AS endLine FROM symbols WHERE repo = ?1 AND file_id = ?2 ORDER BY start_line, end_line DESC, name LIMIT ?3",
    )
    .bind(repo, row.fileId, SOURCE_OUTLINE_MAX)
    .all<OutlineEntry>();
  return { text: row.text, language: row.language, commit: row.commitSha, outline: symbols.results };
}

/** The public, signature-checked source page; mounted at the root by worker/index.ts. */
export function sourcePageRoutes(): Hono<RootEnv> {
  const app = new Hono<RootEnv>();
  app.get("/source/:repo/*", async (c) => {
    const url = new URL(c.req.url);
    const [, , repoEnc, ...pathEnc] = url.pathname.split("/");
    let repo: string;
    let path: string;
    try {
      repo = decodeURIComponent(repoEnc);
      path = pathEnc.map(decodeURIComponent).join("/");
    } catch {
      return page(messagePage("Bad link", "This link is malformed."), 400);
    }
    const config = loadAuthConfig(c.env);
    const check = await verifySourceLink(
      config.signingSecret,
      repo,
      path,
      url.searchParams.get("exp") ?? undefined,
      url.searchParams.get("cred") ?? undefined,
      url.searchParams.get("sig") ?? undefined,
      Date.now(),
    );
    if (!check.ok) {
      const msg =
        check.reason === "expired"
          ? "This link has expired; ask for a fresh one from search."
          : "This link is not valid; source links must come from search results.";
      return page(messagePage("Link not valid", msg), 403);
    }
    // The credential that minted the link must still work and still see the repo (canSee).
    const caller = await callerForLink(c.env, c.req.raw, check.credential, Date.now());
    if (!caller) return page(messagePage("Link no longer valid", CREDENTIAL_GONE), 403);
    let snap: ActiveRepo;
    try {
      requireScope(caller, "search");
      snap = await activeRepo(serviceContext(c.env, caller), repo, url.searchParams.get("ref") ?? undefined);
    } catch (err) {
      if (err instanceof CodeSearchError && err.code === "ref_not_found") return page(messagePage("Not found", err.message), 404);
      return page(
        messagePage("Link no longer valid", "The sign-in or token that made this link can no longer see this repo; ask for a fresh link from search."),
        403,
      );
    }
    // The catalog checked visibility above and resolved the snapshot; the shard holds its rows.
    const file = await activeFile(shardDb(c.env, snap.shard), repo, snap.commit, path);
    if (file === undefined) return page(messagePage("Not found", "This file is not in the repo's current snapshot."), 404);
    const headers = webPageHeaders();
    headers.set("referrer-policy", "no-referrer"); // the signature must not leak to other sites
    return new Response(await renderSourcePage({ repo, path, ...file, ref: url.searchParams.has("ref") ? snap.ref : null }), { status: 200, headers });
  });
  return app;
}

/** Body of POST /api/source-links. */
export const SourceLinkInput = z
  .object({
    repo: z.string().min(1).max(200),
    path: z.string().min(1).max(4096),
    ref: refSchema.optional(),
    startLine: z.number().int().positive().optional(),
    endLine: z.number().int().positive().optional(),
  })
  .strict();

const sourceLinkRoute = createRoute({
  method: "post",
  path: "/",
  tags: ["search"],
  summary: "Sign a link to an indexed file's source page",
  middleware: [jsonBody('{"repo": "hono", "path": "src/index.ts", "startLine": 1}')] as const,
  request: { body: { content: { "application/json": { schema: SourceLinkInput } }, required: true } },
  responses: {
    200: jsonResponse(z.object({ url: z.string(), expiresAt: z.number().int().describe("ms since epoch") }), "The signed link"),
    400: errorDoc("Invalid body, or a ref on an archive upload (archives have no refs)", "invalid_input"),
    404: errorDoc("Unknown repo, a ref it does not track, or a file not in that snapshot", "repo_not_found", "ref_not_found", "file_not_found"),
  },
});

/** REST route minting signed links; mounted under /api by worker/api/app.ts (after auth). */
export function sourceLinkApiRoutes(): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  app.openapi(sourceLinkRoute, async (c) => {
    requireScope(c.var.caller, "search");
    const body = c.req.valid("json");
    // Sign only what the link can show: a path of the active snapshot of a repo the caller may
    // see (`activeRepo` answers an invisible repo exactly like a missing one, else 404 file_not_found).
    const ctx = serviceContext(c.env, c.var.caller);
    const snap = await activeRepo(ctx, body.repo, body.ref);
    await loadFile(ctx, snap, body.path, "rest");
    const config = loadAuthConfig(c.env);
    const origin = publicOrigin(c.req.raw, c.env);
    const link = await signSourceLink(config.signingSecret, origin, body, linkCredential(c.var.caller), Date.now(), config.sourceLinkTtlSeconds);
    // The resolved full name, so the link keeps naming the same ref; `?ref=` goes before the #L fragment.
    if (body.ref !== undefined && snap.ref) link.url = link.url.replace(/(#.*)?$/, (frag) => `&ref=${encodeURIComponent(snap.ref!)}${frag}`);
    return c.json(link, 200, { "cache-control": "no-store" });
  });
  return app;
}
