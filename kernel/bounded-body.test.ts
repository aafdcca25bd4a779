import { describe, expect, it } from "vitest";
import { BodyTooLargeError, declaredLength, readBounded, readBoundedRequest } from "./bounded-body";

/** A stream of `total` bytes in `chunk`-byte pieces that counts what was pulled from it. */
function counted(total: number, chunk: number): { stream: ReadableStream<Uint8Array>; pulled: () => number; cancelled: () => boolean } {
  let sent = 0;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (sent >= total) return controller.close();
        const n = Math.min(chunk, total - sent);
        sent += n;
        controller.enqueue(new Uint8Array(n).fill(120));
      },
      cancel() {
        cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, pulled: () => sent, cancelled: () => cancelled };
}

describe("readBounded", () => {
  it("returns every byte of a body up to and including the limit, in order", async () => {
    const text = "héllo ".repeat(1000);
    const bytes = new TextEncoder().encode(text);
    expect(new TextDecoder().decode(await readBounded(new Response(text).body, bytes.byteLength))).toBe(text);
    const s = counted(10_000, 999);
    expect((await readBounded(s.stream, 10_000)).byteLength).toBe(10_000);
    expect((await readBounded(null, 0)).byteLength).toBe(0);
  });

  it("stops at the first chunk past the limit and cancels the stream, without reading the rest", async () => {
    const s = counted(64 * 1024 * 1024, 64 * 1024);
    const err = await readBounded(s.stream, 1024 * 1024).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BodyTooLargeError);
    expect((err as BodyTooLargeError).limitBytes).toBe(1024 * 1024);
    expect(s.pulled()).toBeLessThanOrEqual(1024 * 1024 + 64 * 1024);
    expect(s.cancelled()).toBe(true);
  });
});

describe("readBoundedRequest", () => {
  it("refuses a declared Content-Length over the limit before reading anything", async () => {
    const s = counted(4096, 1024);
    const req = new Request("http://x/", { method: "POST", body: s.stream, headers: { "content-length": "999999" }, duplex: "half" } as RequestInit);
    const err = await readBoundedRequest(req, 2048).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BodyTooLargeError);
    expect((err as BodyTooLargeError).declaredBytes).toBe(999999);
    expect(s.pulled()).toBe(0);
  });

  it("counts the bytes received when Content-Length is absent or says less than is sent", async () => {
    for (const headers of [{}, { "content-length": "10" }] as Record<string, string>[]) {
      const s = counted(8 * 1024 * 1024, 16 * 1024);
      const req = new Request("http://x/", { method: "POST", body: s.stream, headers, duplex: "half" } as RequestInit);
      await expect(readBoundedRequest(req, 64 * 1024)).rejects.toBeInstanceOf(BodyTooLargeError);
      expect(s.pulled()).toBeLessThanOrEqual(64 * 1024 + 16 * 1024);
    }
  });

  it("reads a body within the limit", async () => {
    const req = new Request("http://x/", { method: "POST", body: '{"a":1}' });
    expect(new TextDecoder().decode(await readBoundedRequest(req, 7))).toBe('{"a":1}');
  });
});

describe("declaredLength", () => {
  it("reads a non-negative integer and nothing else", () => {
    expect(declaredLength(new Headers({ "content-length": "42" }))).toBe(42);
    expect(declaredLength(new Headers())).toBeNull();
    expect(declaredLength(new Headers({ "content-length": "-1" }))).toBeNull();
    expect(declaredLength(new Headers({ "content-length": "1e9" }))).toBeNull();
  });
});
