import { describe, expect, it } from "vitest";
import { evidenceNeeded, STAGES } from "../ranking";
import { CHANNEL_WEIGHTS } from "../ranking/weights";
import { READERS, readQuery } from ".";
import { readText } from "./reading";

const REPORT = [
  "Wrong Derivative kind attribute",
  "I expected `d.kind` to be the matrix kind, but it is the undefined kind:",
  "```python",
  ">>> from sympy import Derivative, MatrixSymbol",
  ">>> A = MatrixSymbol('A', 2, 2)",
  ">>> d = Derivative(A, x)",
  ">>> d.kind",
  "UndefinedKind",
  "```",
  'Traceback (most recent call last):\n  File "sympy/core/function.py", line 1292, in __new__\n    raise ValueError("bad")',
].join("\n");

/** The stages that apply to a plan, in order. */
const applying = (text: string) => STAGES.filter((s) => s.applies(readQuery(text))).map((s) => s.name);

describe("readers", () => {
  it("choose one reader per text: a pasted report, names only, else a question", () => {
    expect(readQuery(REPORT).reader).toBe("report");
    expect(readQuery("getUserById").reader).toBe("identifier");
    expect(readQuery("JsonReader skipValue").reader).toBe("identifier");
    expect(readQuery("LineBuffer::fill").reader).toBe("identifier");
    expect(readQuery("where is the router built").reader).toBe("question");
    expect(readQuery("retry").reader).toBe("question");
    // The question reader is last and reads every text.
    expect(READERS.at(-1)!.name).toBe("question");
  });

  it("write a report's choices into the plan: the question's fusion weights, frames to look up, the report stages", () => {
    const plan = readQuery(REPORT);
    // A report fuses the channels with the question's weights (report.channel-weights, a report's own, went in issue #46).
    expect(plan.fusion).toEqual(CHANNEL_WEIGHTS);
    expect(plan.evidence.frames.map((f) => f.path)).toEqual(["sympy/core/function.py"]);
    expect(plan.stages.receivers).toEqual([{ container: "Derivative", name: "kind" }]);
    expect(plan.capExempt).toEqual([]);
    expect(plan.includeTests).toBe(false);
    // It says something is broken, so the defect stage runs, leaving prose to the coverage stage's report prior.
    expect(plan.stages.defect).toEqual({ prose: false });
    expect(applying(REPORT)).toEqual(["coverage", "support", "file-evidence", "trace", "option", "message", "receiver", "defect"]);
    // Its code imports (`from sympy import ...`): the imports stage stands aside, as for a question about imports.
    expect([...evidenceNeeded(plan)].sort()).toEqual(["frames", "messages", "options"]);
  });

  it("plan a question without report stages, its named definitions exempt from the cap, its frames not looked up", () => {
    const q = 'where is redisReconnect called when "connection reset by peer" is logged?\n  at redisReconnect (src/redis.ts:10:5)';
    const plan = readQuery(q);
    expect(plan.reader).toBe("question");
    expect(plan.fusion).toEqual(CHANNEL_WEIGHTS);
    expect(plan.query.frames.length).toBe(1);
    expect(plan.evidence.frames).toEqual([]);
    expect(plan.evidence.messages).toContain("connection reset by peer");
    expect(plan.capExempt).toContain("redisReconnect");
    expect(applying(q)).toEqual(["coverage", "support", "option", "message", "qualified", "imports"]);
  });

  it("look up entry points only for a question asking where the program starts", () => {
    expect(readQuery("where does the CLI start").evidence.entryPoints).toBe(true);
    expect(applying("where does the CLI start")).toContain("entry");
    expect([...evidenceNeeded(readQuery("where does the CLI start"))]).toContain("entries");
    expect(readQuery("where is the router built").evidence.entryPoints).toBe(false);
  });

  it("plan an identifier query as a question, under its own name", () => {
    const { reader, ...identifier } = readQuery("getUserById");
    expect(reader).toBe("identifier");
    const question = READERS.find((r) => r.name === "question")!;
    const { reader: _q, ...asQuestion } = question.read(readText("getUserById"));
    expect(identifier).toEqual(asQuestion);
  });
});
