/**
 * The language reader's provider path against the scripted Messages API server
 * (test/messages-api-server.ts, scenarios translate / translate-prose / bad-request) and the
 * real D1 budget ledger: translated, cached, charged and settled, and the glossary on failure.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { keyFor, messagesApiUrl, requestsOf } from "../../../test/worker/scripted-model";
import { AnthropicGenerationProvider } from "../../generation";
import { readQuery, type TranslateDeps } from "./translate";

let lastKey = "";
const provider = (scenario: string) =>
  new AnthropicGenerationProvider({
    apiKey: (lastKey = keyFor(scenario, "translate")),
    baseURL: messagesApiUrl(),
    model: "claude-haiku-4-5",
    timeoutMs: 10_000,
    effort: "low",
    retry: { retries: 0 },
  });

const ledger = (identity: string) =>
  env.DB.prepare("SELECT tokens, calls FROM ask_usage WHERE identity = ?1").bind(identity).first<{ tokens: number; calls: number }>();

function deps(p: AnthropicGenerationProvider | null, identity: string, dailyTokenBudget = 100_000): TranslateDeps {
  return { provider: () => p, db: env.DB, identity, dailyTokenBudget };
}

describe("readQuery with a provider", () => {
  it("translates once, keeps the query's code, charges the caller and serves the repeat from cache", async () => {
    const p = provider("translate");
    const q = "如何验证 `parseSigned` 签名的 cookie";
    const first = await readQuery(q, deps(p, "user-a"));
    expect(first).toMatchObject({ language: "zh", via: "provider", englishText: "signed cookie verify parseSigned" });
    const key = lastKey;
    const again = await readQuery(q, deps(p, "user-a"));
    expect(again.englishText).toBe(first.englishText);
    const sent = await requestsOf(key);
    expect(sent.calls).toBe(1);
    expect(JSON.stringify(sent.requests[0].messages)).toContain("parseSigned");
    expect(sent.requests[0].max_tokens).toBe(96);
    const row = await ledger("user-a");
    // One call recorded; the reservation was settled, so the row holds that call's tokens only.
    expect(row?.calls).toBe(1);
    expect(row!.tokens).toBeGreaterThan(0);
    expect(row!.tokens).toBeLessThan(1_000);
  });

  it("falls back to the glossary when the budget is spent, the API fails or the answer is not JSON", async () => {
    const q = "¿Dónde se verifica la firma de una cookie?";
    await env.DB.prepare("INSERT INTO ask_usage (identity, day, tokens, cost_usd, calls) VALUES ('user-b', ?1, 500, 0, 1)")
      .bind(new Date().toISOString().slice(0, 10))
      .run();
    const spent = await readQuery(q, deps(provider("translate"), "user-b", 500));
    expect(spent).toMatchObject({ via: "glossary", englishText: "where verify signature cookie" });
    expect(spent.fallback).toMatch(/budget/);
    const failed = await readQuery(q, deps(provider("bad-request"), "user-c"));
    expect(failed.via).toBe("glossary");
    expect((await ledger("user-c"))?.tokens ?? 0).toBe(0); // the reservation was taken back
    const prose = await readQuery(q, deps(provider("translate-prose"), "user-d"));
    expect(prose).toMatchObject({ via: "glossary", fallback: "the model's translation was not JSON" });
  });

  it("never asks the provider about English queries or without one", async () => {
    let made = 0;
    const r = await readQuery("where is the signed cookie verified", { ...deps(null, "user-e"), provider: () => (made++, null) });
    expect(r).toMatchObject({ via: "none", englishText: "where is the signed cookie verified" });
    expect(made).toBe(0);
    expect((await readQuery("如何验证签名的 cookie", deps(null, "user-e"))).via).toBe("glossary");
  });
});
