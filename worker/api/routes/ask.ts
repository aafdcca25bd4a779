/**
 * @module worker/api/routes/ask
 *
 *   POST /api/ask  {question, repo? | repos?, k?, stream?}
 *
 * Answers `AskOutput` (worker/services/ask-schema.ts) as JSON, or with `stream: true` as
 * Server-Sent Events: `delta` events carry draft answer text as the model writes it (not yet
 * verified: citations may still be removed), `reset` says a retry starts the draft over, and
 * exactly one `final` event carries the verified answer, citations and status (or one `error`
 * event `{error: {code, message}}`). Input, provider and budget errors are answered before the
 * stream opens, as JSON with their HTTP status.
 */
import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { CodeSearchError } from "../../../kernel/errors";
import { serviceContext } from "../../services/context";
import { startAsk, type AskDeps } from "../../services/ask";
import type { AskInput } from "../../services/ask-schema";
import type { ApiEnv } from "../app";

/** The /api/ask route. `deps` is a test seam (a scripted provider). */
export function askRoutes(deps: AskDeps = {}): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  app.post("/", async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      throw new CodeSearchError("invalid_input", 'body: expected a JSON object such as {"question": "...", "repo": "..."}');
    }
    if (!body || typeof body !== "object" || Array.isArray(body)) throw new CodeSearchError("invalid_input", 'body: expected a JSON object such as {"question": "...", "repo": "..."}');
    const prepared = await startAsk(serviceContext(c.env, c.var.caller), body as AskInput, deps);
    if (!prepared.stream) return c.json(await prepared.run());
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
