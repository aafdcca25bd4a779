/**
 * Issue 50, suggest_tests with `fill: true` in workerd: POST /api/suggest-tests through the
 * Worker's fetch handler, the real Anthropic SDK talking to the scripted Messages API server
 * (fill-* scenarios of test/messages-api-suggest.ts) over the navigation fixture. A fill that uses
 * only real names comes back filled; one calling a method and a helper the index lacks has them
 * reported and is removed (the skeleton stands); one that does not parse falls back to the
 * skeleton; the in-repo modules a method calls go into the fenced evidence; no provider answers 503 generation_unavailable like ask.
 * The same three outcomes for a pytest fill of python/billing/parser.py's parse and a Go
 * `testing` fill of go/tax/calculator.go's Calculator.Compute and a JUnit 5 fill of
 * InvoiceFormatter#format(Invoice, Locale).
 */
import { createExecutionContext, env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import worker from "../../worker/index";
import { createApiToken } from "../../worker/auth/api-tokens";
import { LocalRateLimiter } from "../../worker/auth/rate-limit";
import { LOCAL_ADMIN } from "../../worker/services/context";
import type { SuggestTestsOutput } from "../../worker/services/suggest-tests-schema";
import { adminHeaders } from "../helpers";
import { envWith, keyFor, requestsOf } from "./scripted-model";
import { seedNavigation } from "./navigation-fixture";

const DISCOUNT = { repo: "nav", path: "typescript/src/pricing/discount.ts", symbol: "applyDiscount", fill: true };

async function post(body: unknown, vars: Record<string, string>): Promise<Response> {
  const req = new Request("http://localhost/api/suggest-tests", {
    method: "POST",
    headers: adminHeaders({ "content-type": "application/json" }),
    body: JSON.stringify(body),
  }) as Request<unknown, IncomingRequestCfProperties>;
  return worker.fetch(req, envWith(vars), createExecutionContext());
}

const COMPUTE = { repo: "nav", path: "go/tax/calculator.go", symbol: "Calculator.Compute", fill: true };
const FORMAT = {
  repo: "nav",
  path: "java/src/main/java/com/acme/billing/InvoiceFormatter.java",
  symbol: "InvoiceFormatter#format(Invoice, Locale)",
  fill: true,
};
const PARSE = { repo: "nav", path: "python/billing/parser.py", symbol: "parse", framework: "pytest", fill: true };

async function fill(scenario: string, body: object = DISCOUNT): Promise<{ out: SuggestTestsOutput; key: string }> {
  const key = keyFor(scenario, "suggest-fill");
  const res = await post(body, { ANTHROPIC_API_KEY: key });
  const json = await res.json();
  expect(res.status, JSON.stringify(json)).toBe(200);
  return { out: json as SuggestTestsOutput, key };
}

describe("suggest_tests fill", () => {
  beforeAll(async () => {
    await seedNavigation();
  });

  it("answers 503 generation_unavailable without a provider, as ask does", async () => {
    const res = await SELF.fetch("http://localhost/api/suggest-tests", {
      method: "POST",
      headers: adminHeaders({ "content-type": "application/json" }),
      body: JSON.stringify(DISCOUNT),
    });
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("generation_unavailable");
  });

  it("returns a fill that references only indexed names, builtins and the framework as filled", async () => {
    const { out, key } = await fill("fill-real");
    expect(out.fill).toMatchObject({ filled: true, unresolved: [], prompt: "suggest-tests.fill@1" });
    expect(out.fill!.test).toContain("expect(result).toBe(180);");
    expect(out.fill!.test).toContain('import { applyDiscount } from "../../src/pricing/discount";');
    expect(out.skeleton).toContain("expect.fail("); // the skeleton is still there, unchanged
    // The evidence went fenced with the request's nonce: the skeleton and the function's lines.
    const { calls, requests } = await requestsOf(key);
    expect(calls).toBe(1);
    const user = requests[0].messages[0].content as string;
    const nonce = /nonce is ([0-9a-f]{32})/.exec(user)![1];
    expect(user).toContain(`<<<SOURCE ${nonce} path=typescript/src/pricing/discount.ts lines=2-8>>>`);
    expect(user).toContain("4|     throw new RangeError(`percent out of range: ${percent}`);");
  });

  it("puts the in-repo modules a method calls into the evidence, fenced", async () => {
    const key = keyFor("fill-real", "suggest-fill");
    const res = await post({ ...DISCOUNT, path: "typescript/src/cart.ts", symbol: "Cart.total" }, { ANTHROPIC_API_KEY: key });
    expect(res.status).toBe(200);
    const user = (await requestsOf(key)).requests[0].messages[0].content as string;
    const nonce = /nonce is ([0-9a-f]{32})/.exec(user)![1];
    expect(user).toContain(`<<<SOURCE ${nonce} path=typescript/src/cart.ts lines=15-18>>>`);
    expect(user).toMatch(new RegExp(`<<<SOURCE ${nonce} path=typescript/src/pricing/discount\\.ts lines=1-\\d+>>>\n1\\| /\\*\\* Price after`));
    expect(user).toContain(`<<<SOURCE ${nonce} path=typescript/src/pricing/loyalty.ts lines=1-`);
  });

  it("reports the names the index lacks, with lines, and removes the fill", async () => {
    const { out } = await fill("fill-unknown");
    expect(out.fill).toMatchObject({ filled: false, test: null });
    expect(out.fill!.unresolved).toEqual([
      { name: "computeLoyaltyBonus", line: 10 },
      { name: "withCoupon", line: 9 },
    ]);
    expect(out.fill!.reason).toContain("computeLoyaltyBonus");
    expect(out.skeleton).toContain("expect.fail(");
  });

  it("answers 429 budget_exhausted, with no model call, once the day's budget is spent", async () => {
    const key = keyFor("fill-real", "suggest-fill");
    // Whatever other tests spent today: allow one token more, so one fill passes and the next is refused.
    const today = new Date().toISOString().slice(0, 10);
    const before = await env.DB.prepare("SELECT tokens FROM ask_usage WHERE identity = ? AND day = ?").bind(LOCAL_ADMIN.id, today).first<{ tokens: number }>();
    const vars = { ANTHROPIC_API_KEY: key, ASK_DAILY_TOKEN_BUDGET: String((before?.tokens ?? 0) + 1) };
    expect((await post(DISCOUNT, vars)).status).toBe(200);
    const spent = await post(DISCOUNT, vars);
    expect(spent.status).toBe(429);
    expect(((await spent.json()) as { error: { code: string } }).error.code).toBe("budget_exhausted");
    expect((await requestsOf(key)).calls).toBe(1);
  });

  it("is rate-limited like review: 429 once the identity's limit is spent, before the model is called", async () => {
    const { token } = await createApiToken(env.DB, { name: "suggest-limit", scopes: ["search", "index"] }, LOCAL_ADMIN, Date.now());
    const key = keyFor("fill-real", "suggest-fill");
    const limited = {
      ...envWith({ ANTHROPIC_API_KEY: key }),
      SEARCH_LIMIT_IDENTITY: new LocalRateLimiter(2, 60),
      SEARCH_LIMIT_IP: new LocalRateLimiter(1_000, 60),
    };
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const req = new Request("http://localhost/api/suggest-tests", {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(DISCOUNT),
      }) as Request<unknown, IncomingRequestCfProperties>;
      const res = await worker.fetch(req, limited, createExecutionContext());
      statuses.push(res.status);
      if (res.status === 429) expect(((await res.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
    }
    expect(statuses).toEqual([200, 200, 429]);
    expect((await requestsOf(key)).calls).toBe(2);
  });

  it("falls back to the skeleton when the fill does not parse", async () => {
    const { out } = await fill("fill-syntax");
    expect(out.fill).toMatchObject({ filled: false, test: null, unresolved: [] });
    expect(out.fill!.reason).toContain("does not parse");
  });

  it("Python: returns a pytest fill of indexed names, builtins and pytest as filled", async () => {
    const { out, key } = await fill("fill-real", PARSE);
    expect(out.fill, out.fill?.reason).toMatchObject({ filled: true, unresolved: [] });
    expect(out.fill!.test).toContain("from billing.parser import");
    expect(out.fill!.test).toContain("with pytest.raises(ValueError):");
    expect(out.skeleton).toContain('pytest.fail("TODO');
    expect((await requestsOf(key)).calls).toBe(1);
  });

  it("Python: reports a helper and a method the index lacks, with lines, and removes the fill", async () => {
    const { out } = await fill("fill-unknown", PARSE);
    expect(out.fill).toMatchObject({ filled: false, test: null });
    expect(out.fill!.unresolved).toEqual([
      { name: "compute_checksum", line: 10 },
      { name: "with_strict", line: 9 },
    ]);
    expect(out.fill!.reason).toContain("compute_checksum");
  });

  it("Python: falls back to the skeleton when the fill does not parse", async () => {
    const { out } = await fill("fill-syntax", PARSE);
    expect(out.fill).toMatchObject({ filled: false, test: null, unresolved: [] });
    expect(out.fill!.reason).toContain("does not parse");
  });

  it("Go: returns a testing fill of same-package symbols, predeclared names and the standard library as filled", async () => {
    const { out } = await fill("fill-real", COMPUTE);
    expect(out.fill, out.fill?.reason).toMatchObject({ filled: true, unresolved: [] });
    expect(out.fill!.test).toContain("!errors.Is(err, ErrNegative)");
    expect(out.skeleton).toContain('t.Fatal("TODO');
  });

  it("Go: reports a helper and a method the index lacks, with lines, and removes the fill", async () => {
    const { out } = await fill("fill-unknown", COMPUTE);
    expect(out.fill).toMatchObject({ filled: false, test: null });
    expect(out.fill!.unresolved).toEqual([
      { name: "applyRebate", line: 15 },
      { name: "ComputeWithRebate", line: 14 },
    ]);
  });

  it("Go: falls back to the skeleton when the fill does not parse", async () => {
    const { out } = await fill("fill-syntax", COMPUTE);
    expect(out.fill).toMatchObject({ filled: false, test: null, unresolved: [] });
    expect(out.fill!.reason).toContain("does not parse");
  });

  it("Java: returns a JUnit 5 fill of same-package symbols, java.lang and JUnit as filled", async () => {
    const { out } = await fill("fill-real", FORMAT);
    expect(out.fill, out.fill?.reason).toMatchObject({ filled: true, unresolved: [] });
    expect(out.fill!.test).toContain("assertThrows(IllegalArgumentException.class");
    expect(out.skeleton).toContain('fail("TODO');
  });

  it("Java: reports a type and methods the index lacks, with lines, and removes the fill", async () => {
    const { out } = await fill("fill-unknown", FORMAT);
    expect(out.fill).toMatchObject({ filled: false, test: null });
    expect(out.fill!.unresolved).toEqual([
      { name: "InvoiceTotals", line: 18 },
      { name: "formatAll", line: 17 },
      { name: "sum", line: 18 },
    ]);
  });

  it("Java: falls back to the skeleton when the fill does not parse", async () => {
    const { out } = await fill("fill-syntax", FORMAT);
    expect(out.fill).toMatchObject({ filled: false, test: null, unresolved: [] });
    expect(out.fill!.reason).toContain("does not parse");
  });
});
