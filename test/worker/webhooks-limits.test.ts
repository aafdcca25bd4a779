/**
 * Webhook bodies are read through one bounded reader (issue 43, Medium 5): the pull-request
 * route (`POST /api/webhooks/github/pull-request`) and the push route refuse a body over 1 MiB
 * with 413 before it is authenticated and without reading it whole, whether its Content-Length
 * is right, absent (a chunked body) or says less than is sent.
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../worker/index";

const MIB = 1024 * 1024;
const CHUNK = 64 * 1024;

/** A body of `total` bytes in CHUNK pieces, pulled on demand, that counts what was read from it. */
function counted(total: number): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
  let sent = 0;
  const piece = new TextEncoder().encode("x".repeat(CHUNK));
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (sent >= total) return controller.close();
        sent += CHUNK;
        controller.enqueue(piece.slice());
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, pulled: () => sent };
}

async function post(path: string, contentLength: string | null, total: number) {
  const body = counted(total);
  const headers: Record<string, string> = { "content-type": "application/json", "x-github-event": "pull_request", "x-hub-signature-256": "sha256=00" };
  if (contentLength !== null) headers["content-length"] = contentLength;
  const req = new Request(`http://localhost${path}`, { method: "POST", headers, body: body.stream, duplex: "half" } as RequestInit);
  const ctx = createExecutionContext();
  const res = await worker.fetch(req as Request<unknown, IncomingRequestCfProperties>, { ...env, GITHUB_REVIEW_TOKEN: "ghp_fake" } as never, ctx);
  await waitOnExecutionContext(ctx);
  return { res, json: (await res.json()) as { error?: { code: string } }, pulled: body.pulled() };
}

describe("webhook bodies over the limit", () => {
  for (const path of ["/api/webhooks/github/pull-request?repo=any", "/api/webhooks/github?repo=any"]) {
    it(`${path.split("?")[0]}: 413 for 16 MiB with a true, no or a false Content-Length, reading at most the limit`, async () => {
      const total = 16 * MIB;
      for (const length of [String(total), null, "100"]) {
        const { res, json, pulled } = await post(path, length, total);
        expect(res.status, `content-length ${length}: ${JSON.stringify(json)}`).toBe(413);
        expect(json.error?.code).toBe("payload_too_large");
        // At most the limit plus the chunk that crossed it (and one read ahead by the runtime).
        expect(pulled, `content-length ${length}`).toBeLessThanOrEqual(MIB + 2 * CHUNK);
      }
    });
  }
});
