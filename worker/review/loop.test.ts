/**
 * The tool-use loop against an in-process provider that replays tool_use turns: the calls of
 * one turn run concurrently (a barrier that only opens when all of them have started), results
 * go back in call order, and a submission on the last allowed call still counts.
 */
import { describe, expect, it } from "vitest";
import type { ContentBlock, GenerationProvider, GenerationRequest, GenerationResult } from "../../kernel/generation";
import { runReviewLoop } from "./loop";

class TurnsProvider implements GenerationProvider {
  readonly name = "turns";
  readonly model = "turns-model";
  readonly price = null;
  readonly requests: GenerationRequest[] = [];
  constructor(private readonly turns: ContentBlock[][]) {}
  async generate(req: GenerationRequest): Promise<GenerationResult> {
    this.requests.push(structuredClone({ ...req, signal: undefined }));
    const content = this.turns[this.requests.length - 1] ?? [];
    return {
      content,
      text: "",
      stopReason: "tool_use",
      usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 },
      model: this.model,
      latencyMs: 1,
      retries: 0,
    };
  }
}

const use = (id: string, name: string, input: unknown): ContentBlock => ({ type: "tool_use", id, name, input });
const SUBMIT = use("s", "submit_review", { summary: "ok", findings: [] });
const system = { id: "review.system", version: 1, purpose: "test", text: "system", sha256: "0".repeat(64) };
const base = { system, taskMessage: "review this", tools: [], nonce: "f".repeat(32), maxOutputTokens: 100, onUsage: async () => {} };

describe("runReviewLoop", () => {
  it("runs the calls of one turn concurrently and answers them in one message, in call order", async () => {
    const provider = new TurnsProvider([
      [use("a", "read_file", { path: "a" }), use("b", "find_symbol", { name: "b" }), use("c", "search_code", { query: "c" })],
      [SUBMIT],
    ]);
    let started = 0;
    let open!: () => void;
    const barrier = new Promise<void>((resolve) => (open = resolve));
    const runTool = async (name: string) => {
      if (++started === 3) open();
      // Sequential execution would never reach 3 started calls: the barrier would time out.
      await Promise.race([barrier, new Promise((_, reject) => setTimeout(() => reject(new Error("tool calls ran one after another")), 2000))]);
      return { text: `result of ${name}`, isError: name === "find_symbol" };
    };
    const r = await runReviewLoop({ ...base, provider, runTool, maxModelCalls: 8 });
    expect(r.outcome).toEqual({ kind: "submitted", review: { summary: "ok", findings: [] } });
    const answer = provider.requests[1].messages.at(-1)!;
    expect(answer.role).toBe("user");
    const blocks = answer.content as ContentBlock[];
    expect(blocks.map((b) => (b.type === "tool_result" ? [b.toolUseId, !!b.isError] : b.type))).toEqual([
      ["a", false],
      ["b", true],
      ["c", false],
    ]);
    expect((blocks[0] as { content: string }).content).toBe(
      `<<<TOOL_RESULT ${"f".repeat(32)} tool=read_file>>>\nresult of read_file\n<<<END ${"f".repeat(32)}>>>`,
    );
    expect(r.toolCalls.map((t) => t.tool)).toEqual(["read_file", "find_symbol", "search_code", "submit_review"]);
  });

  it("keeps the conversation append-only: each request extends the previous one", async () => {
    const provider = new TurnsProvider([[use("a", "read_file", {})], [use("b", "read_file", {})], [SUBMIT]]);
    await runReviewLoop({ ...base, provider, runTool: async () => ({ text: "x", isError: false }), maxModelCalls: 8 });
    const [r1, r2, r3] = provider.requests;
    expect(r2.messages.slice(0, r1.messages.length)).toEqual(r1.messages);
    expect(r3.messages.slice(0, r2.messages.length)).toEqual(r2.messages);
    expect(r3.system).toEqual(r1.system);
    expect(r3.tools).toEqual(r1.tools);
  });

  it("takes a submission on the last allowed call and does not run other tools then", async () => {
    const provider = new TurnsProvider([[use("a", "read_file", {})], [use("b", "read_file", {}), SUBMIT]]);
    const ran: string[] = [];
    const r = await runReviewLoop({ ...base, provider, runTool: async (n) => (ran.push(n), { text: "x", isError: false }), maxModelCalls: 2 });
    expect(r.outcome.kind).toBe("submitted");
    expect(ran).toEqual(["read_file"]);
    expect(r.calls).toBe(2);
  });
});
