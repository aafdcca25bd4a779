/**
 * Import-only chunks (issue 51: hono's `compose.ts:1-2` and `basic-auth/index.ts:1-10` took
 * top-5 slots for questions about behaviour) over a small repo of this test's own, uploaded
 * through the real archive route and chunker and searched over REST inside workerd: for a
 * question about behaviour they leave the top 5 to code that does something (before the stage
 * `compose.ts:1-2` was third), `explain` names the `imports` stage, and a question about imports
 * keeps them where they were.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../helpers";
import { uploadFilesAndWait } from "./ingest-helpers";

const REPO = "imports-hono";

interface Hit {
  path: string;
  startLine: number;
  endLine: number;
  symbol: string | null;
  explain: { stages: { stage: string; factor: number }[] };
}

async function search(query: string): Promise<Hit[]> {
  const res = await api("/api/search", { method: "POST", json: { query, repo: REPO, k: 10, explain: true } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { results: Hit[] }).results;
}

const COMPOSE_TS = `import type { Context } from './context'
import type { Env, ErrorHandler, Next, NotFoundHandler } from './types'

/**
 * Compose middleware functions into a single function based on \`koa-compose\` package.
 */
export const compose = <E extends Env = Env>(
  middleware: [[Function, unknown], unknown][],
  onError?: ErrorHandler<E>,
  onNotFound?: NotFoundHandler<E>
): ((context: Context, next?: Next) => Promise<Context>) => {
  return (context, next) => {
    let index = -1
    return dispatch(0)

    async function dispatch(i: number): Promise<Context> {
      if (i <= index) {
        throw new Error('next() called multiple times')
      }
      index = i
      let res
      const handler = middleware[i] ? middleware[i][0][0] : (i === middleware.length && next) || undefined
      if (handler) {
        try {
          res = await handler(context, () => dispatch(i + 1))
        } catch (err) {
          if (err instanceof Error && onError) {
            context.error = err
            res = await onError(err, context)
          } else {
            throw err
          }
        }
      } else if (context.finalized === false && onNotFound) {
        res = await onNotFound(context)
      }
      return context
    }
  }
}
`;

const BASIC_AUTH_TS = `import type { Context } from '../../context'
import { HTTPException } from '../../http-exception'
import type { HonoRequest } from '../../request'
import type { MiddlewareHandler } from '../../types'
import { auth } from '../../utils/basic-auth'
import { timingSafeEqual } from '../../utils/buffer'

type MessageFunction = (c: Context) => string | object | Promise<string | object>

export const basicAuth = (options: { username: string; password: string; realm?: string; invalidUserMessage?: string | object | MessageFunction }): MiddlewareHandler => {
  const realm = options.realm ?? 'Secure Area'
  return async function basicAuth(ctx, next) {
    const requestUser = auth(ctx.req)
    if (requestUser && (await timingSafeEqual(options.username, requestUser.username)) && (await timingSafeEqual(options.password, requestUser.password))) {
      await next()
      return
    }
    const status = 401
    const headers = { 'WWW-Authenticate': 'Basic realm="' + realm.replace(/"/g, '\\\\"') + '"' }
    const message = typeof options.invalidUserMessage === 'function' ? await options.invalidUserMessage(ctx) : options.invalidUserMessage ?? 'Unauthorized'
    throw new HTTPException(status, { res: new Response(String(message), { status, headers }) })
  }
}
`;

const HONO_BASE_TS = `import { compose } from './compose'
import type { Context } from './context'
import type { ErrorHandler, NotFoundHandler, MiddlewareHandler } from './types'

const notFoundHandler: NotFoundHandler = (c) => c.text('404 Not Found', 404)

const errorHandler: ErrorHandler = (err, c) => {
  console.error(err)
  return c.text('Internal Server Error', 500)
}

export class HonoBase {
  #notFoundHandler: NotFoundHandler = notFoundHandler
  errorHandler: ErrorHandler = errorHandler

  onError(handler: ErrorHandler): this {
    this.errorHandler = handler
    return this
  }

  notFound(handler: NotFoundHandler): this {
    this.#notFoundHandler = handler
    return this
  }

  use(...handlers: MiddlewareHandler[]): this {
    return this
  }
}
`;

const TYPES_TS = `import type { Context } from './context'

export type Next = () => Promise<void>
export type Env = { Bindings?: object; Variables?: object }
export type ErrorHandler<E extends Env = Env> = (err: Error, c: Context) => Response | Promise<Response>
export type NotFoundHandler<E extends Env = Env> = (c: Context) => Response | Promise<Response>
export type MiddlewareHandler = (c: Context, next: Next) => Promise<Response | void>
`;

beforeAll(async () => {
  await uploadFilesAndWait(REPO, {
    "src/compose.ts": COMPOSE_TS,
    "src/middleware/basic-auth/index.ts": BASIC_AUTH_TS,
    "src/hono-base.ts": HONO_BASE_TS,
    "src/types.ts": TYPES_TS,
  });
});

/** Whether a hit is one of the files' import blocks (what the chunker made of lines 1-n). */
const isImportBlock = (h: Hit) =>
  (h.path === "src/compose.ts" && h.startLine === 1 && h.endLine <= 2) ||
  (h.path === "src/middleware/basic-auth/index.ts" && h.startLine === 1 && h.endLine <= 7) ||
  (h.path === "src/hono-base.ts" && h.startLine === 1 && h.endLine <= 3) ||
  (h.path === "src/types.ts" && h.startLine === 1 && h.endLine === 1);

describe("import-only chunks", () => {
  it("take no top-5 slot from code that does something in a question about behaviour", async () => {
    for (const q of [
      "how does compose call the error handler and the not found handler",
      "how is basic auth checked against the username and password, and what HTTPException is thrown",
    ]) {
      const hits = await search(q);
      const top5 = hits.slice(0, 5);
      expect(
        top5.filter(isImportBlock).map((h) => `${h.path}:${h.startLine}-${h.endLine}`),
        q,
      ).toEqual([]);
      const imports = hits.filter(isImportBlock);
      expect(imports.length, q).toBeGreaterThan(0);
      for (const imp of imports) expect(imp.explain.stages.find((s) => s.stage === "imports")?.factor).toBe(0.5);
      expect(hits[0].explain.stages.find((s) => s.stage === "imports")?.factor, q).toBe(1);
    }
  });

  it("keep their place when the question asks about imports", async () => {
    const hits = await search("which files import the ErrorHandler and NotFoundHandler types");
    expect(hits.some(isImportBlock)).toBe(true);
    for (const h of hits) expect(h.explain.stages.some((s) => s.stage === "imports")).toBe(false);
  });
});
