import { describe, expect, it } from "vitest";
import { benchBlockWrites, evalBlockWrites, summarizeBlock } from "./doc-blocks.ts";

const PROV =
  "_Generated 2026-12-01 at commit `7cd99ca`; configuration: http://127.0.0.1:8842, embedding model local-hash-v1 (384 dims). Reproduce: `npm run eval -- --set x`._";

describe("where generated blocks are written", () => {
  it("writes a default run in full to docs/evaluation.md and as a summary to the README", () => {
    const w = evalBlockWrites("fixture", false, `T\n\n${PROV}`);
    expect(w.map((b) => [b.file, b.key])).toEqual([
      ["docs/evaluation.md", "eval:fixture"],
      ["README.md", "eval-summary:fixture"],
    ]);
    expect(w[0].content).toContain("Reproduce:");
    expect(w[1].content).not.toContain("Reproduce:");
  });

  it("writes an ablation and the benchmark only to docs/evaluation.md", () => {
    expect(evalBlockWrites("hono-50", true, "T").map((b) => [b.file, b.key])).toEqual([["docs/evaluation.md", "eval:hono-50-ablation"]]);
    expect(benchBlockWrites("B").map((b) => [b.file, b.key, b.heading])).toEqual([["docs/evaluation.md", "bench", "## Benchmarks"]]);
    expect(benchBlockWrites("B", "G").map((b) => [b.key, b.content])).toEqual([
      ["bench", "B"],
      ["bench-grep", "G"],
    ]);
  });
});

describe("summarizeBlock", () => {
  it("keeps a retrieval table and the gate line, shortens the provenance", () => {
    const md = `**Fixture set**, 52 files uploaded\n\n| Run | n |\n| --- | --- |\n| **hybrid** | 34 |\n| hybrid: lexical | 16 |\n\nConfidence gate: refused 3/8.\n\n${PROV}`;
    expect(summarizeBlock(md)).toBe(
      "**Fixture set**, 52 files uploaded\n\n| Run | n |\n| --- | --- |\n| **hybrid** | 34 |\n| hybrid: lexical | 16 |\n\nConfidence gate: refused 3/8.\n\n" +
        "_Generated 2026-12-01 at commit `7cd99ca`; the full tables and the command that reproduces them: [docs/evaluation.md](docs/evaluation.md)._",
    );
  });

  it("drops SWE-bench's per-repository details and indexing line", () => {
    const md = `**SWE-bench**\n\n| Method | n |\n| --- | --- |\n| product | 140 |\n\n<details><summary>By repository</summary>\n\n| Method | n |\n| --- | --- |\n| psf/requests: product | 6 |\n\n</details>\n\nIndexing: first upload per repository is a cold index; median 7249 ms per instance.\n\n${PROV}`;
    const s = summarizeBlock(md);
    expect(s).toContain("| product | 140 |");
    expect(s).not.toMatch(/details|psf\/requests|Indexing:/);
    expect(s).not.toMatch(/\n\n\n/);
  });

  it("keeps only the pooled rows of a per-repository table", () => {
    const md = `**polyglot**\n\n| Repository | Files | n |\n| --- | --- | --- |\n| pallets/click (Python) | 166 | 10 |\n| **All** |  | 110 |\n| All: lexical |  | 45 |\n\nConfidence gate: wrongly refused 3/110.\n\n${PROV}`;
    expect(summarizeBlock(md)).toBe(
      "**polyglot**\n\n| Repository | Files | n |\n| --- | --- | --- |\n| **All** |  | 110 |\n| All: lexical |  | 45 |\n\nConfidence gate: wrongly refused 3/110.\n\n" +
        "_Generated 2026-12-01 at commit `7cd99ca`; the full tables and the command that reproduces them: [docs/evaluation.md](docs/evaluation.md)._",
    );
  });
});

// The real files, so a moved or deleted marker fails here instead of a script appending a block
// under a heading at the next eval run.
const docs = import.meta.glob<string>(["../../README.md", "../../docs/evaluation.md"], { query: "?raw", import: "default", eager: true });

describe("the project's files hold every block the scripts write", () => {
  const file = (name: string) => docs[`../../${name}`];
  const writes = [
    ...["fixture", "hono-50", "swebench", "polyglot"].flatMap((set) => evalBlockWrites(set, false, "x")),
    ...["fixture", "hono-50"].flatMap((set) => evalBlockWrites(set, true, "x")),
    ...benchBlockWrites("x"),
  ];
  it.each(writes.map((w) => [w.file, w.key]))("%s has the markers of %s", (name, key) => {
    const text = file(name);
    expect(text).toBeTypeOf("string");
    const start = text.indexOf(`<!-- ${key}:start -->`);
    expect(start).toBeGreaterThanOrEqual(0);
    expect(text.indexOf(`<!-- ${key}:end -->`)).toBeGreaterThan(start);
  });

  it("keeps the README's summary in step with the full block in docs/evaluation.md", () => {
    const block = (text: string, key: string) => text.match(new RegExp(`<!-- ${key}:start -->\\n([\\s\\S]*?)\\n<!-- ${key}:end -->`))?.[1];
    for (const set of ["fixture", "hono-50", "swebench", "polyglot"]) {
      const full = block(file("docs/evaluation.md"), `eval:${set}`);
      expect(full, set).toBeDefined();
      expect(block(file("README.md"), `eval-summary:${set}`), set).toBe(summarizeBlock(full!));
    }
  });
});
