/**
 * @module worker/services/suggest-tests/render-ts
 *
 * TypeScript/JavaScript skeletons for vitest, jest and node:test. Argument placeholders take
 * their types from the function itself (`Parameters<typeof f>[i]`), so the file type-checks
 * against the real source without importing the parameter types.
 */
import { behavioursOf, describeBehaviour } from "./behaviours";
import type { Conventions, GatheredFacts, Rendered } from "./types";

/** Relative import specifier from `fromFile` to `toFile`, without the TS extension. */
export function relativeSpecifier(fromFile: string, toFile: string): string {
  const from = fromFile.split("/").slice(0, -1);
  const to = toFile.replace(/\.(d\.)?[cm]?tsx?$/, "").split("/");
  let i = 0;
  while (i < from.length && i < to.length - 1 && from[i] === to[i]) i++;
  const up = from.slice(i).map(() => "..");
  const spec = [...up, ...to.slice(i)].join("/");
  return up.length ? spec : `./${spec}`;
}

/** The skeleton for `f` with conventions `c`. */
export function renderTs(f: GatheredFacts, c: Conventions): Rendered {
  const { target, file } = f;
  const isJs = /\.[cm]?jsx?$/.test(file.path);
  const cls = target.container;
  const exported = cls ?? target.name;
  // A .js path keeps its extension (ESM needs it); a .ts one loses it.
  const spec = relativeSpecifier(c.testPath, file.path);
  const head: string[] = [];
  if (c.framework === "vitest") head.push(`import { describe, expect, it${f.calledImports.length ? ", vi" : ""} } from "vitest";`);
  else if (c.framework === "jest") head.push(`import { describe, expect, it${f.calledImports.length ? ", jest" : ""} } from "@jest/globals";`);
  else head.push(`import assert from "node:assert/strict";`, `import { describe, it } from "node:test";`);
  head.push(`import { ${exported} } from "${spec}";`);
  for (const imp of f.calledImports) {
    if (!imp.specifier?.startsWith(".")) continue;
    const mocked = relativeSpecifier(c.testPath, joinPath(file.path, imp.specifier));
    if (c.framework === "vitest") head.push(`// Collaborator ${imp.local}: replace with vi.mocked(...) expectations as needed.`, `vi.mock("${mocked}");`);
    else if (c.framework === "jest")
      head.push(`// Collaborator ${imp.local}: replace with jest.mocked(...) expectations as needed.`, `jest.mock("${mocked}");`);
    else head.push(`// Collaborator ${imp.local} (${imp.specifier}): node:test mocks modules only with --experimental-test-module-mocks.`);
  }
  const fail = (what: string) =>
    c.framework === "node:test" ? `assert.fail(${JSON.stringify(`TODO: ${what}`)});` : `expect.fail(${JSON.stringify(`TODO: ${what}`)});`;
  // JavaScript has no annotations: a plain undefined with the declared type (if any) in the TODO.
  const placeholder = (name: string, tsType: string, declared: string | null) =>
    isJs ? `const ${name} = undefined; // TODO: ${declared ?? "a value"}` : `const ${name}: ${tsType} = undefined as never; // TODO: ${declared ?? "a value"}`;
  const ty = (i: number) => (cls ? `Parameters<${cls}[${JSON.stringify(target.name)}]>[${i}]` : `Parameters<typeof ${target.name}>[${i}]`);
  const tests: Rendered["tests"] = [];
  const body: string[] = [];
  for (const b of behavioursOf(f)) {
    const name = describeBehaviour(b, file.path);
    tests.push({ name, behaviour: b.kind });
    const lines = ["// Arrange"];
    if (cls) {
      const args = f.ctorParams.map((p, i) => {
        lines.push(placeholder(p.name, `ConstructorParameters<typeof ${cls}>[${i}]`, p.type));
        return p.name;
      });
      lines.push(`const subject = new ${cls}(${args.join(", ")});`);
    }
    const args = f.params.map((p, i) => {
      lines.push(placeholder(p.name, ty(i), p.type));
      return p.name;
    });
    const call = `${cls ? "subject." : ""}${target.name}(${args.join(", ")})`;
    const aw = f.isAsync ? "await " : "";
    if (b.kind === "throws") {
      lines.push("// Act + Assert");
      if (c.framework === "node:test") lines.push(`await assert.rejects(async () => ${call}, ${b.detail});`);
      else lines.push(f.isAsync ? `await expect(${call}).rejects.toThrow(${b.detail});` : `expect(() => ${call}).toThrow(${b.detail});`);
      lines.push(fail(`assert the ${b.detail} message and state (${file.path}:${b.line})`));
    } else {
      lines.push(
        "// Act",
        `const result = ${aw}${call};`,
        "// Assert",
        `void result;`,
        fail(`assert on result${b.kind === "early_return" ? ` of ${b.detail}` : ""}`),
      );
    }
    body.push(`  it(${JSON.stringify(name)}, async () => {`, ...lines.map((l) => `    ${l}`), "  });");
    body.push("");
  }
  body.pop();
  const suite = `${cls ? `${cls}.` : ""}${target.name}`;
  return { skeleton: [...head, "", `describe(${JSON.stringify(suite)}, () => {`, ...body, "});", ""].join("\n"), tests };
}

/** Resolves a relative import specifier against the importing file's directory. */
function joinPath(fromFile: string, specifier: string): string {
  const parts = fromFile.split("/").slice(0, -1);
  for (const seg of specifier.split("/")) {
    if (seg === "..") parts.pop();
    else if (seg !== ".") parts.push(seg);
  }
  return parts.join("/");
}
