import { describe, expect, it } from "vitest";
import { classifyOccurrences } from "./references-syntax";

/** Facts for every occurrence of `word` in `text`. */
async function kinds(language: string, text: string, word: string) {
  const spans = [...text.matchAll(new RegExp(`\\b${word}\\b`, "g"))].map((m) => ({ start: m.index, end: m.index + word.length }));
  return (await classifyOccurrences(language, text, spans))?.map((f) => `${f.kind}${f.receiver ? `@${f.receiver}` : ""}${f.args !== null ? `/${f.args}` : ""}`);
}

describe("occurrences read in the syntax tree", () => {
  // The second "import" is the module path "./run", inside the import statement.
  it("TypeScript: import, definition, call with receiver, comment, string, code inside a template", async () => {
    const ts =
      'import { run } from "./run";\n// run it\nexport function run(a: number) { return a; }\nlog.run(1, 2);\nconst s = "run";\nconst t = `${run(3)}`;\n';
    expect(await kinds("typescript", ts, "run")).toEqual(["import", "import", "comment", "definition", "call@log/2", "string", "call/1"]);
  });

  it("Python: a raise, an f-string's code, a type hint", async () => {
    const py = 'class Boom(Exception): pass\n\ndef f(x: Boom) -> None:\n    raise Boom(f"{Boom}")\n';
    expect(await kinds("python", py, "Boom")).toEqual(["definition", "type", "call/1", "reference"]);
  });

  it("Go and C#: selector calls and member access calls", async () => {
    expect(await kinds("go", "package m\nfunc f() { tax.Compute(1) }\n", "Compute")).toEqual(["call@tax/1"]);
    expect(await kinds("csharp", "class C { void M() { _tax.Compute(1, 2); } }\n", "Compute")).toEqual(["call@_tax/2"]);
  });

  it("has no tree for a language without a grammar", async () => {
    expect(await classifyOccurrences("markdown", "run", [{ start: 0, end: 3 }])).toBeNull();
  });
});
