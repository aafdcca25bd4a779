/** Provider selection by configuration, and the Workers AI provider against a recording AI binding (Workers AI does not run offline). */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { loadConfig, type Env } from "../../kernel/env";
import { createGenerationProvider, DEFAULT_ANTHROPIC_MODEL, requireGenerationProvider, WorkersAiGenerationProvider } from "./index";
import type { AiTextRunner } from "./workers-ai";

const withVars = (vars: Partial<Env>) => ({ ...env, ...vars }) as Env;

describe("createGenerationProvider", () => {
  it("picks Anthropic with the default Sonnet model when ANTHROPIC_API_KEY is set", () => {
    const e = withVars({ ANTHROPIC_API_KEY: "sk-ant-test" });
    const p = createGenerationProvider(e, loadConfig(e))!;
    expect(p.name).toBe("anthropic");
    expect(p.model).toBe(DEFAULT_ANTHROPIC_MODEL);
    expect(p.price).not.toBeNull();
    const other = withVars({ ANTHROPIC_API_KEY: "k", GENERATION_MODEL: "claude-haiku-4-5" });
    expect(createGenerationProvider(other, loadConfig(other))!.model).toBe("claude-haiku-4-5");
  });

  it("has no provider without a key, and says how to configure one", () => {
    expect(createGenerationProvider(env, loadConfig(env))).toBeNull();
    expect(() => requireGenerationProvider(env, loadConfig(env))).toThrow(/generation|ANTHROPIC_API_KEY/);
    const ai = withVars({ GENERATION_PROVIDER: "workers-ai" });
    expect(() => requireGenerationProvider(ai, loadConfig(ai))).toThrow("the AI binding is missing");
  });

  it("rejects an unknown provider name, naming the variable", () => {
    const bad = withVars({ GENERATION_PROVIDER: "openai" });
    expect(() => loadConfig(bad)).toThrow('GENERATION_PROVIDER must be one of auto, anthropic, workers-ai; got "openai"');
  });
});

describe("WorkersAiGenerationProvider", () => {
  it("sends one system message, the JSON schema as response_format, and reads usage", async () => {
    const calls: { model: string; inputs: Record<string, unknown> }[] = [];
    const ai: AiTextRunner = {
      async run(model, inputs) {
        calls.push({ model, inputs });
        return { response: { status: "answered", answer: "x", citations: [], missing: "" }, usage: { prompt_tokens: 120, completion_tokens: 30 } };
      },
    };
    const e = withVars({ GENERATION_PROVIDER: "workers-ai", AI: ai as unknown as Ai });
    const p = createGenerationProvider(e, loadConfig(e)) as WorkersAiGenerationProvider;
    expect(p).toBeInstanceOf(WorkersAiGenerationProvider);
    const deltas: string[] = [];
    const r = await p.generate({
      system: [{ text: "sys", cache: true }],
      messages: [{ role: "user", content: "q" }],
      maxOutputTokens: 100,
      outputSchema: { type: "object" },
      onTextDelta: (d) => deltas.push(d),
      purpose: "test",
    });
    expect(calls[0].inputs).toEqual({
      messages: [
        { role: "system", content: "sys" },
        { role: "user", content: "q" },
      ],
      max_tokens: 100,
      response_format: { type: "json_schema", json_schema: { type: "object" } },
    });
    expect(JSON.parse(r.text)).toMatchObject({ status: "answered" });
    expect(deltas).toEqual([r.text]);
    expect(r.usage).toEqual({ inputTokens: 120, outputTokens: 30, cacheReadTokens: 0, cacheWriteTokens: 0 });
    expect(r.stopReason).toBe("end_turn");
  });

  it("a failing binding is generation_failed", async () => {
    const p = new WorkersAiGenerationProvider(
      {
        run: async () => {
          throw new Error("3040: capacity");
        },
      },
      "@cf/x",
    );
    await expect(p.generate({ system: [], messages: [{ role: "user", content: "q" }], maxOutputTokens: 10, purpose: "t" })).rejects.toMatchObject({
      code: "generation_failed",
    });
  });
});
