import { describe, expect, it } from "vitest";
import { parseSse, readSse, type SseEvent } from "./sse";

describe("Server-Sent Events", () => {
  it("parses named events and keeps the unfinished rest", () => {
    const { events, rest } = parseSse('event: delta\ndata: {"text":"a"}\n\n: comment\n\nevent: final\ndata: {"x":1}\n\nevent: del');
    expect(events).toEqual([
      { event: "delta", data: '{"text":"a"}' },
      { event: "final", data: '{"x":1}' },
    ]);
    expect(rest).toBe("event: del");
  });

  it("reads events split across chunks, multi-byte characters included", async () => {
    const bytes = new TextEncoder().encode('event: delta\ndata: {"text":"é→"}\r\n\r\nevent: final\ndata: 1\n\n');
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < bytes.length; i += 5) c.enqueue(bytes.slice(i, i + 5));
        c.close();
      },
    });
    const seen: SseEvent[] = [];
    await readSse(stream, (e) => seen.push(e));
    expect(seen).toEqual([
      { event: "delta", data: '{"text":"é→"}' },
      { event: "final", data: "1" },
    ]);
  });
});
