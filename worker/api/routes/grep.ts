/**
 * @module worker/api/routes/grep
 *
 *   GET  /api/grep?pattern=&regex=&case_sensitive=&whole_word=&repo=|repos=a,b&path=&language=&include_tests=&limit=&offset=&cursor=
 *   POST /api/grep  {pattern, regex?, case_sensitive?, whole_word?, repo? | repos?, path?, language?, include_tests?, limit?, offset?, cursor?}
 *
 * Both answer `grepOutput` (worker/services/grep.ts). POST takes a JSON body, for patterns that
 * are awkward in a URL. A thin adapter over `grep`.
 */
import { Hono } from "hono";
import { CodeSearchError } from "../../../kernel/errors";
import { serviceContext } from "../../services/context";
import { grep, type GrepInput } from "../../services/grep";
import type { ApiEnv } from "../app";

const list = (v: string | undefined) => (v === undefined ? undefined : v.split(",").map((s) => s.trim()).filter(Boolean));
const num = (v: string | undefined) => (v === undefined || v === "" ? undefined : Number(v));
function bool(name: string, v: string | undefined): boolean | undefined {
  if (v === undefined || v === "") return undefined;
  if (["true", "1", "yes"].includes(v)) return true;
  if (["false", "0", "no"].includes(v)) return false;
  throw new CodeSearchError("invalid_input", `${name}: expected true or false, got "${v}"`);
}

/** GET query parameters in the shape `grepInput` validates (numbers and booleans parsed; the schema names what is wrong). */
export function grepQueryToInput(q: Record<string, string>): GrepInput {
  return {
    pattern: q.pattern ?? "",
    regex: bool("regex", q.regex),
    case_sensitive: bool("case_sensitive", q.case_sensitive),
    whole_word: bool("whole_word", q.whole_word),
    repo: q.repo || undefined,
    repos: list(q.repos),
    path: q.path || undefined,
    language: q.language || undefined,
    include_tests: bool("include_tests", q.include_tests),
    limit: num(q.limit),
    offset: num(q.offset),
    cursor: q.cursor || undefined,
  };
}

/** The /api/grep routes. Mounted by worker/api/app.ts after the auth middleware. */
export function grepRoutes(): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  app.get("/", async (c) => c.json(await grep(serviceContext(c.env, c.var.caller), grepQueryToInput(c.req.query()))));
  app.post("/", async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      throw new CodeSearchError("invalid_input", 'body: expected a JSON object such as {"pattern": "parseSigned("}');
    }
    if (!body || typeof body !== "object" || Array.isArray(body)) throw new CodeSearchError("invalid_input", 'body: expected a JSON object such as {"pattern": "parseSigned("}');
    return c.json(await grep(serviceContext(c.env, c.var.caller), body as GrepInput));
  });
  return app;
}
