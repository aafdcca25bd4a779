/**
 * The Anthropic provider: the real @anthropic-ai/sdk client against the scripted Messages API
 * server on loopback (test/messages-api-server.ts), JSON and streaming wire formats, tool_use
 * with input_json_delta, retries of 429 (retry-after) and 529 only, refusal and max_tokens.
 */
import { inject, describe, expect, it, vi } from "vitest";
import type { GenerationRequest } from "../../kernel/generation";
import { AnthropicGenerationProvider } from "./anthropic";

const url = inject("messagesApiUrl");
let n = 0;
const keyFor = (scenario: string) => `${scenario}:anthropic-test-${++n}-${Math.random().toString(36).slice(2)}`;
const provider = (key: string, model = "claude-sonnet-5-5") =>
  new AnthropicGenerationProvider({ apiKey: key, baseURL: url, model, timeoutMs: 10_000, effort: "low", retry: { minTimeoutMs: 5, maxTimeoutMs: 10 } });
const requestsOf = async (key: string) =>
  (await (await fetch(`${url}/__requests?key=${encodeURIComponent(key)}`)).json()) as { calls: number; requests: any[] };

const NONCE = "0123456789abcdef0123456789abcdef";
const USER = `This request's nonce is ${NONCE}.\n<<<EVIDENCE ${NONCE} E1 repo=r path=src/a.ts lines=3-9>>>\n3| x\n<<<END ${NONCE}>>>`;
const req = (over: Partial<GenerationRequest> = {}): GenerationRequest => ({
  system: [{ text: "You answer from evidence. ".repeat(30), cache: true }],
  messages: [{ role: "user", content: USER }],
  maxOutputTokens: 500,
  outputSchema: { type: "object" },
  purpose: "test",
  ...over,
});

describe("AnthropicGenerationProvider", () => {
  it("sends a cached system prompt, structured output, no tools, no sampling parameters; parses the JSON reply", async () => {
    const key = keyFor("cite");
    const r = await provider(key).generate(req());
    expect(r.stopReason).toBe("end_turn");
    expect(JSON.parse(r.text)).toMatchObject({ status: "answered", citations: [{ evidence: "E1", path: "src/a.ts", startLine: 3, endLine: 5 }] });
    expect(r.model).toBe("claude-sonnet-5-5");
    expect(r.usage.cacheWriteTokens).toBeGreaterThan(0);
    const { requests } = await requestsOf(key);
    expect(requests).toHaveLength(1);
    const body = requests[0];
    expect(body.system[0].cache_control).toEqual({ type: "ephemeral" });
    expect(body.output_config).toEqual({ effort: "low", format: { type: "json_schema", schema: { type: "object" } } });
    expect(body.thinking).toEqual({ type: "between_tools" });
    expect(body.max_tokens).toBe(500);
    expect(body).not.toHaveProperty("tools");
    expect(body).not.toHaveProperty("tool_choice");
    expect(body).not.toHaveProperty("temperature");
    expect(body.stream).toBeUndefined();
    // The same system text again is a cache read.
    const again = await provider(key).generate(req());
    expect(again.usage.cacheReadTokens).toBe(r.usage.cacheWriteTokens);
    expect(again.usage.cacheWriteTokens).toBe(0);
  });

  it("streams text deltas through the SSE event sequence and returns the same final message", async () => {
    const deltas: string[] = [];
    const r = await provider(keyFor("cite")).generate(req({ onTextDelta: (d) => deltas.push(d) }));
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join("")).toBe(r.text);
    expect(JSON.parse(r.text).status).toBe("answered");
    expect(r.usage.outputTokens).toBeGreaterThan(1);
  });

  it("returns tool_use blocks, streamed with input_json_delta, for tool-use loops", async () => {
    const tools = [{ name: "read_file", description: "Reads a file", inputSchema: { type: "object", properties: { path: { type: "string" } } } }];
    for (const stream of [false, true]) {
      const key = keyFor("tool-use");
      const r = await provider(key).generate(req({ tools, outputSchema: undefined, onTextDelta: stream ? () => {} : undefined }));
      expect(r.stopReason).toBe("tool_use");
      expect(r.content).toEqual([
        { type: "text", text: "Let me look." },
        { type: "tool_use", id: "toolu_01", name: "read_file", input: { path: "src/a.ts", lines: [1, 20] } },
      ]);
      const body = (await requestsOf(key)).requests[0];
      expect(body.tools[0]).toMatchObject({ name: "read_file", input_schema: { type: "object" } });
      expect(body.tool_choice).toEqual({ type: "auto" });
    }
  });

  it("retries a 429 after its retry-after and a 529, with the SDK's own retries off", async () => {
    const limited = keyFor("rate-limited-once");
    const started = Date.now();
    const r = await provider(limited).generate(req());
    expect(Date.now() - started).toBeGreaterThanOrEqual(950); // retry-after: 1
    expect(r.retries).toBe(1);
    expect((await requestsOf(limited)).calls).toBe(2);
    const overloaded = keyFor("overloaded-once");
    const deltas: string[] = [];
    const o = await provider(overloaded).generate(req({ onTextDelta: (d) => deltas.push(d) }));
    expect(o.retries).toBe(1);
    expect(deltas.join("")).toBe(o.text);
    expect((await requestsOf(overloaded)).calls).toBe(2);
  });

  it("gives up after its retries on a persistent 529 with generation_failed", async () => {
    const key = keyFor("always-overloaded");
    await expect(provider(key).generate(req())).rejects.toMatchObject({ code: "generation_failed", details: { error: "http_529" } });
    expect((await requestsOf(key)).calls).toBe(4); // 1 + 3 retries
  });

  it("never retries another 4xx", async () => {
    const key = keyFor("bad-request");
    await expect(provider(key).generate(req())).rejects.toMatchObject({ code: "generation_failed", details: { error: "http_400" } });
    expect((await requestsOf(key)).calls).toBe(1);
  });

  it("reports stop_reason refusal and max_tokens", async () => {
    expect((await provider(keyFor("refusal")).generate(req())).stopReason).toBe("refusal");
    const cut = await provider(keyFor("max-tokens-once")).generate(req({ onTextDelta: () => {} }));
    expect(cut.stopReason).toBe("max_tokens");
    expect(() => JSON.parse(cut.text)).toThrow();
  });

  it("times out a slow call and says so without the key", async () => {
    const key = keyFor("slow");
    const slow = new AnthropicGenerationProvider({
      apiKey: key,
      baseURL: url,
      model: "claude-sonnet-5-5",
      timeoutMs: 300,
      effort: "low",
      retry: { retries: 0 },
    });
    const err = await slow.generate(req()).catch((e) => e);
    expect(err).toMatchObject({ code: "generation_failed", details: { error: "timeout" } });
    expect(err.message).not.toContain(key);
  });

  it("sends neither thinking nor effort to a model that does not take them", async () => {
    const key = keyFor("cite");
    await provider(key, "claude-haiku-4-5").generate(req());
    const body = (await requestsOf(key)).requests[0];
    expect(body).not.toHaveProperty("thinking");
    expect(body.output_config).toEqual({ format: { type: "json_schema", schema: { type: "object" } } });
  });

  it("logs one JSON line per call with tokens, latency, cost and prompt version, never the prompt or the key", async () => {
    const key = keyFor("cite");
    const logged: string[] = [];
    const spy = vi.spyOn(console, "log").mockImplementation((line: unknown) => void logged.push(String(line)));
    try {
      await provider(key).generate(req({ promptVersion: "answer.system@1" }));
      await provider(keyFor("bad-request"))
        .generate(req())
        .catch(() => {});
    } finally {
      spy.mockRestore();
    }
    const lines = logged.filter((l) => l.includes('"model_call"'));
    expect(lines).toHaveLength(2);
    const ok = JSON.parse(lines[0]);
    expect(ok).toMatchObject({
      event: "model_call",
      provider: "anthropic",
      model: "claude-sonnet-5-5",
      purpose: "test",
      promptVersion: "answer.system@1",
      outcome: "ok",
      stopReason: "end_turn",
      retries: 0,
      streamed: false,
    });
    expect(ok.usage.inputTokens).toBeGreaterThan(0);
    expect(ok.costUsd).toBeGreaterThan(0);
    expect(typeof ok.latencyMs).toBe("number");
    expect(JSON.parse(lines[1])).toMatchObject({ outcome: "error", error: "http_400" });
    for (const l of lines) {
      expect(l).not.toContain("anthropic-test-");
      expect(l).not.toContain("nonce");
      expect(l).not.toContain("You answer from evidence");
    }
  });
});
