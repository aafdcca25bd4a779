/**
 * @module worker/api/routes/ask
 *
 *   POST /api/ask  {question, repo? | repos?, ref?, k?, stream?}
 *
 * Answers `AskOutput` (worker/services/ask-schema.ts) as JSON, or with `stream: true` as
 * Server-Sent Events: `delta` events carry draft answer text as the model writes it (not yet
 * verified: citations may still be removed; images, raw HTML and script links are already
 * neutralized), `reset` says the draft starts over (a retry, or a rewrite that neutralized
 * markup just completed; the text after it is the whole draft), and
 * exactly one `final` event carries the verified answer, citations and status (or one `error`
 * event `{error: {code, message}}`). Input, provider and budget errors are answered before the
 * stream opens, as JSON with their HTTP status.
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { streamSSE } from "hono/streaming";
import { z } from "zod";
import { CodeSearchError } from "../../../kernel/errors";
import { serviceContext } from "../../services/context";
import { startAsk, type AskDeps } from "../../services/ask";
import { askInput, askOutput } from "../../services/ask-schema";
import type { ApiEnv } from "../env";
import { errorDoc } from "../openapi/document";
import { jsonBody } from "../validation";

const askRoute = createRoute({
  method: "post",
  path: "/",
  tags: ["ask"],
  summary: "Answer a question from the index with a language model; every citation verified (spends model tokens)",
  middleware: [jsonBody('{"question": "...", "repo": "..."}')] as const,
  request: { body: { content: { "application/json": { schema: askInput } }, required: true } },
  responses: {
    200: {
      description:
        "The answer (status answered | refused | ungrounded), or with stream: true Server-Sent Events: delta, reset, then one final (AskOutput) or error event",
      content: { "application/json": { schema: askOutput }, "text/event-stream": { schema: z.string() } },
    },
    404: errorDoc("No such repo (or not one you can see), or no searched repo tracks the ref", "repo_not_found", "ref_not_found"),
    429: errorDoc("The daily token budget is spent; see Retry-After", "budget_exhausted", "rate_limited"),
    502: errorDoc("The model API failed", "generation_failed"),
    503: errorDoc("No generation provider is configured; the message says how to set one", "generation_unavailable"),
  },
});

/** The /api/ask route. `deps` is a test seam (a scripted provider). */
export function askRoutes(deps: AskDeps = {}): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  app.openapi(askRoute, async (c) => {
    const prepared = await startAsk(serviceContext(c.env, c.var.caller), c.req.valid("json"), deps);
    if (!prepared.stream) return c.json(await prepared.run(), 200);
    return streamSSE(c, async (stream) => {
      try {
        const out = await prepared.run({
          onDelta: (text) => void stream.writeSSE({ event: "delta", data: JSON.stringify({ text }) }),
          onReset: (reason) => void stream.writeSSE({ event: "reset", data: JSON.stringify({ reason }) }),
        });
        await stream.writeSSE({ event: "final", data: JSON.stringify(out) });
      } catch (err) {
        const known = err instanceof CodeSearchError;
        if (!known) console.error("ask stream failed", err);
        const error = known ? { code: err.code, message: err.message } : { code: "internal", message: "Internal error; the server log has details." };
        await stream.writeSSE({ event: "error", data: JSON.stringify({ error }) });
      }
    });
  });
  return app;
}
