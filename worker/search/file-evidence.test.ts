import { describe, expect, it } from "vitest";
import { addFileEvidence } from "./file-evidence";
import { FILE_EVIDENCE } from "./ranking/weights";

describe("addFileEvidence", () => {
  const file = (c: { id: string }) => c.id.split("#")[0];
  it("ranks a file matching in several chunks above one matching once, keeping order within a file", () => {
    const out = addFileEvidence(
      [
        { id: "a.py#1", score: 1.0 },
        { id: "b.py#1", score: 0.9 },
        { id: "b.py#2", score: 0.5 },
        { id: "b.py#3", score: 0.4 },
      ],
      file,
    );
    expect(out.map((c) => c.id)).toEqual(["b.py#1", "a.py#1", "b.py#2", "b.py#3"]);
    expect(out[0].score).toBeCloseTo(0.9 + FILE_EVIDENCE.decay * 0.5 + FILE_EVIDENCE.decay ** 2 * 0.4);
  });
  it("counts at most the configured siblings, so many weak matches cannot outweigh a strong one", () => {
    const weak = Array.from({ length: 30 }, (_, i) => ({ id: `big.py#${i}`, score: 0.3 }));
    const out = addFileEvidence([{ id: "a.py#1", score: 1.0 }, ...weak], file);
    expect(out[0].id).toBe("a.py#1");
  });
  it("leaves single-chunk files unchanged", () => {
    expect(
      addFileEvidence(
        [
          { id: "a#1", score: 2 },
          { id: "b#1", score: 1 },
        ],
        file,
      ),
    ).toEqual([
      { id: "a#1", score: 2 },
      { id: "b#1", score: 1 },
    ]);
  });
});
