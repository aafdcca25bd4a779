/**
 * @module worker/services/suggest-tests/render-java
 *
 * JUnit 5 + Mockito skeletons: collaborators (constructor parameters of a class type) are
 * mocks, `assertThrows` per thrown exception, `fail("TODO ...")` ending every test.
 */
import { behavioursOf, describeBehaviour } from "./behaviours";
import type { Conventions, GatheredFacts, Param, Rendered } from "./types";

const PRIMITIVE: Record<string, string> = {
  int: "0",
  long: "0L",
  short: "(short) 0",
  byte: "(byte) 0",
  double: "0.0",
  float: "0f",
  boolean: "false",
  char: "'a'",
};

/** A placeholder value for a Java parameter. */
function placeholder(p: Param, mocks: boolean): string {
  const t = p.type ?? "Object";
  if (t in PRIMITIVE) return PRIMITIVE[t];
  if (t === "String") return '"TODO"';
  if (!mocks || /[<[]/.test(t)) return `null /* TODO: ${t} */`;
  return `mock(${t}.class)`;
}

/** The skeleton for `f` with conventions `c`. */
export function renderJava(f: GatheredFacts, c: Conventions): Rendered {
  const { target, file } = f;
  const cls = target.container ?? (file.path.split("/").pop() ?? "Subject").replace(/\.java$/, "");
  const klass =
    c.testPath
      .split("/")
      .pop()
      ?.replace(/\.java$/, "") ?? `${cls}Test`;
  const staticCall = !target.container;
  const imports = new Set(["static org.junit.jupiter.api.Assertions.fail", "org.junit.jupiter.api.Test"]);
  if (f.throws.length) imports.add("static org.junit.jupiter.api.Assertions.assertThrows");
  const args = [...f.ctorParams, ...f.params];
  if (args.some((p) => placeholder(p, true).startsWith("mock("))) imports.add("static org.mockito.Mockito.mock");
  // The source's own imports cover the parameter types it names.
  for (const line of file.imports) {
    const m = /^\s*import\s+(static\s+)?([\w.*]+)\s*;/.exec(line);
    if (m && args.some((p) => p.type && m[2].endsWith(`.${p.type.replace(/[<[].*$/, "")}`))) imports.add(m[2]);
  }
  const tests: Rendered["tests"] = [];
  const blocks: string[] = [];
  for (const b of behavioursOf(f)) {
    const name = describeBehaviour(b, file.path);
    tests.push({ name, behaviour: b.kind });
    const lines = [`// ${name}`, "// Arrange"];
    if (!staticCall) {
      for (const p of f.ctorParams) lines.push(`${p.type ?? "Object"} ${p.name} = ${placeholder(p, true)};`);
      lines.push(`${cls} subject = new ${cls}(${f.ctorParams.map((p) => p.name).join(", ")});`);
    }
    for (const p of f.params) lines.push(`${p.type ?? "Object"} ${p.name} = ${placeholder(p, true)};`);
    const call = `${staticCall ? cls : "subject"}.${target.name}(${f.params.map((p) => p.name).join(", ")})`;
    if (b.kind === "throws") {
      lines.push("// Act + Assert", `assertThrows(${b.detail}.class, () -> ${call});`);
      lines.push(`fail(${JSON.stringify(`TODO: assert the ${b.detail} message and state`)});`);
    } else {
      const ret = f.returnType && f.returnType !== "void" ? `${f.returnType} result = ` : "";
      lines.push("// Act", `${ret}${call};`, "// Assert", `fail(${JSON.stringify(`TODO: assert on ${ret ? "result" : "the effects"}`)});`);
    }
    const method = `${target.name}_${b.slug}`.replace(/\W/g, "_");
    blocks.push([`    @Test`, `    void ${method}() {`, ...lines.map((l) => `        ${l}`), "    }"].join("\n"));
  }
  const sorted = [...imports].sort((a, b) => Number(b.startsWith("static ")) - Number(a.startsWith("static ")) || a.localeCompare(b));
  const pkg = c.moduleName ? `package ${c.moduleName};\n\n` : "";
  return { skeleton: `${pkg}${sorted.map((i) => `import ${i};`).join("\n")}\n\nclass ${klass} {\n${blocks.join("\n\n")}\n}\n`, tests };
}
