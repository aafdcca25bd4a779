/** The streamed `answer` field: decoded as it arrives, whatever the chunking. */
import { describe, expect, it } from "vitest";
import { AnswerFieldStream } from "./answer-stream";

const json = JSON.stringify({
  status: "answered",
  answer: 'Uses `x` [E1 a.ts:1-2].\nSays "hi" \\ é \u2028 done',
  citations: [{ evidence: "E1", repo: "r", path: "a.ts", startLine: 1, endLine: 2 }],
  missing: "",
});

describe("AnswerFieldStream", () => {
  for (const size of [1, 2, 3, 7, 1000]) {
    it(`yields exactly the answer with chunks of ${size}`, () => {
      const s = new AnswerFieldStream();
      let out = "";
      for (let i = 0; i < json.length; i += size) out += s.push(json.slice(i, i + size));
      expect(out).toBe(JSON.parse(json).answer);
    });
  }

  it("ignores an answer key nested deeper and string values equal to the key", () => {
    const s = new AnswerFieldStream();
    expect(s.push('{"missing":"answer","x":{"answer":"no"},"answer":"yes","y":"answer"}')).toBe("yes");
  });

  it("decodes \\u escapes split across chunks", () => {
    const s = new AnswerFieldStream();
    expect(s.push('{"answer":"a\\u00') + s.push('e9b"}')).toBe("aéb");
  });
});
