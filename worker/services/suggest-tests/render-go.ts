/**
 * @module worker/services/suggest-tests/render-go
 *
 * Go skeletons for the standard `testing` package, in the source's own package: a zero
 * receiver, zero-valued arguments, `errors.Is` for sentinel errors, `t.Fatal("TODO ...")`.
 */
import { behavioursOf, describeBehaviour } from "./behaviours";
import { splitTopLevel } from "./signature";
import type { Conventions, GatheredFacts, Rendered } from "./types";

/** The skeleton for `f` (conventions `_c`: the Go layout is fixed). */
export function renderGo(f: GatheredFacts, _c: Conventions): Rendered {
  const { target, file } = f;
  const pkg = /^\s*package\s+(\w+)/m.exec(file.text)?.[1] ?? "main";
  const results = f.returnType ? splitTopLevel(f.returnType.replace(/^\((.*)\)$/, "$1")) : [];
  const errIndex = results.findIndex((r) => /(^|\s)error$/.test(r));
  const recv = /^func\s*\(\s*\w*\s*(\*?)(\w+)/.exec(target.signature ?? "");
  const usesErrors = f.throws.some((t) => /^(\w+\.)?Err\w*$/.test(t.type));
  const tests: Rendered["tests"] = [];
  const blocks: string[] = [];
  const base = `Test${target.container ?? ""}${target.name.charAt(0).toUpperCase()}${target.name.slice(1)}`;
  for (const b of behavioursOf(f)) {
    const name = describeBehaviour(b, file.path);
    tests.push({ name, behaviour: b.kind });
    const lines = [`// ${name}`, "// Arrange"];
    if (recv) lines.push(`subject := ${recv[1] ? "&" : ""}${recv[2]}{} // TODO: set fields`);
    for (const p of f.params) lines.push(`var ${p.name} ${p.type ?? "any"} // TODO: a value`);
    const call = `${recv ? "subject." : ""}${target.name}(${f.params.map((p) => p.name).join(", ")})`;
    const vars = results.map((_r, i) => (i === errIndex ? "err" : `got${i || ""}`));
    lines.push("// Act", vars.length ? `${vars.join(", ")} := ${call}` : call, "// Assert");
    for (const v of vars) if (v !== "err") lines.push(`_ = ${v}`);
    if (b.kind === "throws" && errIndex >= 0 && /^(\w+\.)?Err\w*$/.test(b.detail)) {
      lines.push(`if !errors.Is(err, ${b.detail}) {`, `\tt.Fatalf("want ${b.detail}, got %v", err)`, "}");
    } else if (errIndex >= 0) lines.push("_ = err");
    lines.push(`t.Fatal(${JSON.stringify(`TODO: assert ${b.kind === "throws" ? `the ${b.detail} case` : "on the result"}`)})`);
    blocks.push([`func ${base}_${b.slug}(t *testing.T) {`, ...lines.map((l) => `\t${l}`), "}"].join("\n"));
  }
  const imports = usesErrors ? 'import (\n\t"errors"\n\t"testing"\n)' : 'import "testing"';
  return { skeleton: `package ${pkg}\n\n${imports}\n\n${blocks.join("\n\n")}\n`, tests };
}
