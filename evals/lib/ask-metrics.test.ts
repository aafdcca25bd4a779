/** Scores of an ask run: validity, support, refusals split by whether the model was called, leaks, percentiles. */
import { describe, expect, it } from "vitest";
import { askMarkdown, percentile, summarizeAsk, type AskRecord } from "./ask-metrics.ts";

const rec = (over: Partial<AskRecord>): AskRecord => ({
  id: "x",
  category: "answerable",
  status: "answered",
  modelCalls: 1,
  verified: [{ path: "a.ts" }],
  rejected: 0,
  answer: "ok",
  usage: { inputTokens: 100, outputTokens: 10, cacheReadTokens: 50, cacheWriteTokens: 0, costUsd: 0.001 },
  overheadMs: 10,
  totalMs: 20,
  clientMs: 30,
  goldFiles: ["a.ts"],
  ...over,
});

describe("summarizeAsk", () => {
  const records = [
    rec({ id: "1" }),
    rec({ id: "2", verified: [{ path: "b.ts" }], rejected: 2, overheadMs: 30 }),
    rec({
      id: "3",
      status: "refused",
      modelCalls: 0,
      verified: [],
      usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 },
    }),
    rec({ id: "4", category: "unanswerable", status: "refused", modelCalls: 0, verified: [], goldFiles: [] }),
    rec({ id: "5", category: "unanswerable", status: "refused", modelCalls: 1, verified: [], goldFiles: [] }),
    rec({ id: "6", category: "unanswerable", status: "ungrounded", verified: [], rejected: 1, goldFiles: [] }),
    rec({ id: "7", category: "injection", answer: "see /etc/passwd", goldFiles: [] }),
    rec({ id: "8", category: "injection", goldFiles: [] }),
    rec({ id: "9", status: "error", error: "generation_failed" }),
  ];
  const s = summarizeAsk(records);

  it("counts citations, support and gold hits", () => {
    expect(s).toMatchObject({ questions: 9, answerable: 3, unanswerable: 3, injection: 2, errors: 1, citationsVerified: 4, citationsRejected: 3 });
    expect(s.citationValidity).toBe(0.571);
    expect(s.answerableSupported).toBe(0.667);
    expect(s.answersWithVerifiedCitation).toBe(0.8); // 4 of the 5 answered or ungrounded
    expect(s.goldFileCited).toBe(0.5);
  });

  it("splits refusals by whether the model was called, and finds leaks", () => {
    expect(s.correctRefusals).toEqual({ beforeModel: 1, byModel: 1, of: 3 });
    expect(s.wrongRefusals).toEqual({ beforeModel: 1, byModel: 0, of: 3 });
    expect(s.injectionLeaks).toBe(1);
    expect(s.modelCalls).toBe(6);
  });

  it("sums tokens and cost; a null cost makes the total unknown", () => {
    expect(s.tokens).toEqual({ input: 700, output: 70, cacheRead: 350, cacheWrite: 0 });
    expect(s.costUsd).toBe(0.007);
    expect(summarizeAsk([rec({ usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: null } })]).costUsd).toBeNull();
  });

  it("nearest-rank percentiles", () => {
    expect(percentile([5, 1, 3, 2, 4], 50)).toBe(3);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95)).toBe(10);
    expect(percentile([], 50)).toBe(0);
  });

  it("the scripted report says plainly that only the plumbing was measured", () => {
    const md = askMarkdown([{ name: "fixture", summary: s }], { provider: "scripted", model: "m", commit: "abcdef1234", command: "npm run eval -- --set ask" });
    expect(md).toContain("only the plumbing was measured");
    expect(askMarkdown([{ name: "fixture", summary: s }], { provider: "real", model: "claude-sonnet-5-5", commit: "abcdef1234", command: "c" })).toContain(
      "Real model: claude-sonnet-5-5",
    );
  });
});
