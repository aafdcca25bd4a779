import { describe, expect, it } from "vitest";
import { parseQuery, receiverMembers } from "./query";
import { applyReceiverPrior, receiverChunks } from "./receiver-prior";
import { RECEIVER_PRIOR } from "./ranking/weights";

const REPORT = [
  "Wrong Derivative kind attribute",
  "The following is correct:",
  "```",
  ">>> i = Integral(A, x)",
  ">>> i.kind",
  "MatrixKind(NumberKind)",
  "```",
  "This one is wrong:",
  "```",
  "d = sympy.Derivative(A, x)",
  "d.kind",
  "d.__class__",
  "```",
  '  File "/src/core/function.py", line 3, in d.py',
].join("\n");

describe("receiverMembers", () => {
  it("reads the members used on objects of a class the title names, not of the others", () => {
    expect(receiverMembers(REPORT)).toEqual([{ container: "Derivative", name: "kind" }]);
    expect(parseQuery(REPORT).receivers).toEqual([{ container: "Derivative", name: "kind" }]);
  });

  it("reads JavaScript's `new`, and nothing for a question or a title that names no constructed class", () => {
    expect(receiverMembers("Hono route is not matched\n```\nconst app = new Hono()\napp.get('/x', h)\n```")).toEqual([{ container: "Hono", name: "get" }]);
    expect(receiverMembers("Kind is wrong\n```\nd = Derivative(A, x)\nd.kind\n```")).toEqual([]);
    expect(parseQuery("where does Derivative compute kind").receivers).toEqual([]);
  });
});

describe("receiverChunks and applyReceiverPrior", () => {
  const at = (chunkId: string, path: string, kind: string, symbol: string, container: string | null, score: number) => ({
    chunkId,
    repo: "r",
    path,
    kind,
    symbol,
    container,
    score,
  });
  const kindOf = at("kind", "core/kind.py", "class", "UndefinedKind", null, 0.07);
  const derivative = at("derivative", "core/function.py", "class", "Derivative", null, 0.05);
  const symbolKind = at("symbol-kind", "core/symbol.py", "method", "kind", "Symbol", 0.06);
  const receivers = [{ container: "Derivative", name: "kind" }];

  it("lifts the class's own chunk when the class defines no such member, and re-sorts", () => {
    expect([...receiverChunks([kindOf, symbolKind, derivative], receivers)]).toEqual(["derivative"]);
    const out = applyReceiverPrior([kindOf, symbolKind, derivative], receivers);
    expect(out.map((c) => [c.chunkId, c.score])).toEqual([
      ["derivative", 0.05 * RECEIVER_PRIOR],
      ["kind", 0.07],
      ["symbol-kind", 0.06],
    ]);
  });

  it("lifts the member in that class when it is defined, not the class", () => {
    const member = at("derivative-kind", "core/function.py", "method", "kind", "Derivative", 0.04);
    expect([...receiverChunks([kindOf, derivative, member], receivers)]).toEqual(["derivative-kind"]);
  });

  it("names nothing when several files define the class, or when there are no receivers", () => {
    const other = at("other", "other/function.py", "class", "Derivative", null, 0.03);
    expect(receiverChunks([derivative, other], receivers).size).toBe(0);
    const list = [kindOf, derivative];
    expect(applyReceiverPrior(list, [])).toBe(list);
  });
});
