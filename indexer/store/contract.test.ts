import { describe, expect, it } from "vitest";
import { chunkId, fileIdOfChunk } from "./contract";

describe("chunk ids", () => {
  it("give back the file version id they were made from", () => {
    const file = "a49e6e57ba5b890c2cc5294c9b67aa65";
    expect(chunkId(file, 12)).toBe(`${file}-12`);
    expect(fileIdOfChunk(chunkId(file, 0))).toBe(file);
    expect(fileIdOfChunk(chunkId(file, 1234))).toBe(file);
  });
});
