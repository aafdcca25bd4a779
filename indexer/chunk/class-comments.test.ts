/**
 * Comments between the members of a split class (itsdangerous timed.py: a note above two
 * overloads became a chunk of its own named after the class). Runs in workerd.
 */
import { describe, expect, it } from "vitest";
import { expectWellFormed } from "./test-helpers";
import { chunkFile } from "./index";

describe("comments between the members of a split class", () => {
  it("join the method below (Python), never a standalone chunk named as the class", async () => {
    const text = [
      "class Signer(Base):",
      '    """Signs values."""',
      "",
      "    def sign(self, value):",
      "        value = want_bytes(value)",
      "        return value + self.sep",
      "",
      "    # Why the overloads below differ: only return_timestamp",
      "    # changes the return type.",
      "",
      "    @t.overload",
      "    def unsign(self, value, ts: t.Literal[False] = False) -> bytes: ...",
      "",
      "    def unsign(self, value, ts=False):",
      "        return value",
      "    # trailing note",
      "",
    ].join("\n");
    const out = await chunkFile("src/signer.py", text, { maxChunkLines: 8 });
    expectWellFormed(text, out);
    expect(out.chunks.map((c) => [c.kind, c.symbol, c.startLine, c.endLine])).toEqual([
      ["class", "Signer", 1, 2],
      ["method", "sign", 4, 6],
      ["method", "unsign", 8, 12],
      ["method", "unsign", 14, 16],
    ]);
    // The symbols keep their own lines: the comment is no doc of theirs.
    expect(out.symbols.filter((s) => s.name === "unsign").map((s) => [s.startLine, s.doc])).toEqual([
      [11, undefined],
      [14, undefined],
    ]);
  });

  it("join the member below or the chunk before in a brace language too", async () => {
    const text = [
      "export class Store {",
      "  private rows: string[] = [];",
      "",
      "  get(i: number): string {",
      "    return this.rows[i];",
      "  }",
      "",
      "  // Writers.",
      "",
      "  put(row: string): void {",
      "    this.rows.push(row);",
      "  }",
      "  // end of writers",
      "}",
      "",
    ].join("\n");
    const out = await chunkFile("src/store.ts", text, { maxChunkLines: 8 });
    expectWellFormed(text, out);
    expect(out.chunks.map((c) => [c.kind, c.symbol, c.startLine, c.endLine])).toEqual([
      ["class", "Store", 1, 2],
      ["method", "get", 4, 6],
      ["method", "put", 8, 14],
    ]);
  });
});
