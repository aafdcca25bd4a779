/** Assertions shared by the chunker tests (run in workerd). */
import { expect } from "vitest";
import type { ChunkedFile } from "../store/contract";

/** Checks the invariants every chunked file must satisfy. */
export function expectWellFormed(text: string, out: ChunkedFile): void {
  const lines = text.split("\n");
  if (text.endsWith("\n")) lines.pop();
  const covered = new Set<number>();
  for (const c of out.chunks) {
    expect(c.startLine).toBeGreaterThanOrEqual(1);
    expect(c.endLine).toBeGreaterThanOrEqual(c.startLine);
    expect(c.endLine).toBeLessThanOrEqual(lines.length);
    expect(c.content).toBe(lines.slice(c.startLine - 1, c.endLine).join("\n"));
    for (let l = c.startLine; l <= c.endLine; l++) covered.add(l);
  }
  const uncovered = lines.map((l, i) => (l.trim() && !covered.has(i + 1) ? i + 1 : 0)).filter(Boolean);
  expect(uncovered).toEqual([]);
  for (const s of out.symbols) {
    expect(s.name).not.toBe("");
    expect(s.endLine).toBeGreaterThanOrEqual(s.startLine);
  }
}
