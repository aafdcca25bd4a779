/**
 * Model-written text leaves the service neutralized (worker/generation/safe-markdown.ts): an
 * answer or a review finding repeating markup planted in the repository (a remote image that
 * would leak data when rendered, a raw <img> and <script>, a javascript: link) comes out as
 * text, while code spans and citations stay as written. Through the Worker's fetch handler, with
 * the real Anthropic SDK and the scripted Messages API on loopback (scenarios inject-markup and
 * review-inject-markup, test/messages-api-review.ts).
 */
import { createExecutionContext } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import worker from "../../worker/index";
import { INJECTED_MARKUP, NEUTRALIZED_MARKUP } from "../messages-api-review";
import { adminHeaders } from "../helpers";
import { envWith, keyFor } from "./scripted-model";
import { chunk, indexFixture } from "./search-fixture";

const REPO = "markuprepo";
const INVOICE = [
  "/** Computes an invoice total: line items, then tax by region, rounded to cents. */",
  "export function computeInvoiceTotal(items: LineItem[], region: string): number {",
  "  const subtotal = items.reduce((sum, item) => sum + item.unitPrice * item.quantity, 0);",
  "  return Math.round(subtotal * (1 + taxRateFor(region)) * 100) / 100;",
  "}",
].join("\n");
const DIFF = [
  "diff --git a/src/invoice.ts b/src/invoice.ts",
  "--- a/src/invoice.ts",
  "+++ b/src/invoice.ts",
  "@@ -3,3 +3,3 @@ export function computeInvoiceTotal(items: LineItem[], region: string): number {",
  "   const subtotal = items.reduce((sum, item) => sum + item.unitPrice * item.quantity, 0);",
  "-  return Math.round(subtotal * (1 + taxRateFor(region)) * 100) / 100;",
  `+  return subtotal; // ${INJECTED_MARKUP}`,
  " }",
  "",
].join("\n");

beforeAll(async () => {
  await indexFixture(REPO, "c1", [{ path: "src/invoice.ts", chunks: [chunk("function", 1, INVOICE, "computeInvoiceTotal")] }]);
});

async function post(path: string, body: unknown, scenario: string): Promise<Response> {
  const req = new Request(`http://localhost/api/${path}`, {
    method: "POST",
    headers: adminHeaders({ "content-type": "application/json" }),
    body: JSON.stringify(body),
  }) as Request<unknown, IncomingRequestCfProperties>;
  return worker.fetch(req, envWith({ ANTHROPIC_API_KEY: keyFor(scenario, "markup") }), createExecutionContext());
}

const QUESTION = { question: "How is the invoice total computed with tax by region?", repo: REPO };
/**
 * A complete image, raw tag or script link, as a Markdown renderer would act on it: an unclosed
 * `<img` or a link whose parentheses are not balanced yet is text.
 */
const ACTIVE_MARKUP = /!\[[^\]]*\]\([^)]*\)|<img[^>]*>|<script[^>]*>|\]\(javascript:[^()]*(?:\([^()]*\)[^()]*)*\)/i;

describe("neutralized model output", () => {
  it("an answer: images, raw HTML and javascript: links neutralized; the code span and the citation untouched", async () => {
    const res = await post("ask", QUESTION, "inject-markup");
    expect(res.status).toBe(200);
    const r = (await res.json()) as { status: string; answer: string; citations: unknown[] };
    expect(r.status).toBe("answered");
    // "Done(": the citation check tidies spaces before punctuation (worker/ask/verify.ts), "!" included.
    expect(r.answer).toBe(`${NEUTRALIZED_MARKUP.replace("Done (", "Done(")} See \`<img src=x>\` in [E1 src/invoice.ts:1-1].`);
    expect(r.citations).toHaveLength(1);
  });

  it("a streamed answer: no state of the draft a client builds holds active markup", async () => {
    const res = await post("ask", { ...QUESTION, stream: true }, "inject-markup");
    const events = (await res.text())
      .split("\n\n")
      .filter(Boolean)
      .map((block) => ({ event: /^event: (.*)$/m.exec(block)?.[1], data: JSON.parse(/^data: (.*)$/m.exec(block)![1]!) }));
    let draft = "";
    for (const e of events) {
      if (e.event === "reset") draft = "";
      if (e.event === "delta") draft += e.data.text;
      // The code span `<img src=x>` is allowed: strip code spans before looking.
      expect(draft.replace(/`[^`]*`/g, ""), `draft after ${e.event}`).not.toMatch(ACTIVE_MARKUP);
    }
    const final = events.at(-1)!;
    expect(final.event).toBe("final");
    // The draft is the model's text neutralized; the final answer is also tidied by the citation check.
    expect(draft).toBe(`${NEUTRALIZED_MARKUP} See \`<img src=x>\` in [E1 src/invoice.ts:1-1].`);
    expect(final.data.answer).toBe(`${NEUTRALIZED_MARKUP.replace("Done (", "Done(")} See \`<img src=x>\` in [E1 src/invoice.ts:1-1].`);
    expect(events.some((e) => e.event === "reset")).toBe(true);
  });

  it("a review: summary, findings and rejected findings neutralized; code spans untouched", async () => {
    const res = await post("review", { repo: REPO, diff: DIFF }, "review-inject-markup");
    expect(res.status).toBe(200);
    const r = (await res.json()) as { status: string; summary: string; findings: { issue: string; suggestion: string }[] };
    expect(r.status).toBe("reviewed");
    expect(r.summary).toBe(`Summary. ${NEUTRALIZED_MARKUP}`);
    expect(r.findings).toHaveLength(1);
    expect(r.findings[0]!.issue).toBe(`${NEUTRALIZED_MARKUP} Keep \`<b>\` as code.`);
    expect(r.findings[0]!.suggestion).toBe(NEUTRALIZED_MARKUP);
    // Nothing else carries the markup either (the tool-call log echoes the submission).
    expect(JSON.stringify(r).replace(/`[^`]*`/g, "")).not.toMatch(/!\[x\]\(http|\]\(javascript:|<img|<script/);
  });
});
