/**
 * @module worker/services/suggest-tests/render-python
 *
 * Python skeletons for pytest (functions, pytest.raises, pytest.fail) and unittest (a TestCase,
 * assertRaises, self.fail). Errors defined in the same module are imported from it.
 */
import { behavioursOf, describeBehaviour } from "./behaviours";
import type { Conventions, GatheredFacts, Rendered } from "./types";

const BUILTIN_ERRORS = /^(Exception|BaseException|\w+Error|StopIteration|KeyboardInterrupt|SystemExit|Warning)$/;

/** The skeleton for `f` with conventions `c`. */
export function renderPython(f: GatheredFacts, c: Conventions): Rendered {
  const { target, file } = f;
  const cls = target.container;
  const mod = c.moduleName ?? file.path.replace(/\.py$/, "").split("/").join(".");
  const own = new Set(file.symbols.filter((s) => s.container === null).map((s) => s.name));
  const names = new Set([cls ?? target.name]);
  for (const t of f.throws) if (own.has(t.type)) names.add(t.type);
  const pytest = c.framework === "pytest";
  const head = [pytest ? "import pytest" : "import unittest", "", `from ${mod} import ${[...names].sort().join(", ")}`];
  for (const t of f.throws) if (!own.has(t.type) && !BUILTIN_ERRORS.test(t.type)) head.push(`# TODO: import ${t.type} (raised at ${file.path}:${t.line})`);
  const tests: Rendered["tests"] = [];
  const blocks: string[][] = [];
  const ind = pytest ? "    " : "        ";
  for (const b of behavioursOf(f)) {
    const name = describeBehaviour(b, file.path);
    tests.push({ name, behaviour: b.kind });
    // The class in the name keeps ReportParser.parse's tests apart from a module-level parse's.
    const owner = cls ? `${cls.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase()}_` : "";
    const fn = `test_${owner}${target.name.replace(/^_+/, "")}_${b.slug}`.replace(/\W/g, "_");
    const lines = [`"""${name.replace(/"""/g, "'''")}"""`, "# Arrange"];
    if (cls) {
      for (const p of f.ctorParams) lines.push(`${p.name} = None  # TODO: ${p.type ?? "value"}`);
      lines.push(`subject = ${cls}(${f.ctorParams.map((p) => `${p.name}=${p.name}`).join(", ")})`);
    }
    for (const p of f.params) lines.push(`${p.name} = None  # TODO: ${p.type ?? "value"}`);
    const call = `${cls ? "subject." : ""}${target.name}(${f.params.map((p) => p.name).join(", ")})`;
    const failCall = pytest ? "pytest.fail" : "self.fail";
    if (b.kind === "throws") {
      lines.push("# Act + Assert", pytest ? `with pytest.raises(${b.detail}):` : `with self.assertRaises(${b.detail}):`, `    ${call}`);
      lines.push(`${failCall}(${JSON.stringify(`TODO: assert the ${b.detail} message and state`)})`);
    } else {
      lines.push(
        "# Act",
        `result = ${call}`,
        "# Assert",
        `${failCall}(${JSON.stringify(`TODO: assert on result${b.kind === "early_return" ? ` of ${b.detail}` : ""}`)})`,
      );
    }
    blocks.push([pytest ? `def ${fn}():` : `    def ${fn}(self):`, ...lines.map((l) => `${ind}${l}`)]);
  }
  const out = [...head, "", ""];
  if (pytest) out.push(blocks.map((b) => b.join("\n")).join("\n\n\n"));
  else {
    const klass = `Test${(cls ?? "") + target.name.replace(/^_+/, "").replace(/(^|_)(\w)/g, (_m, _u, ch: string) => ch.toUpperCase())}`;
    out.push(`class ${klass}(unittest.TestCase):`, blocks.map((b) => b.join("\n")).join("\n\n"), "", "", 'if __name__ == "__main__":', "    unittest.main()");
  }
  return { skeleton: `${out.join("\n")}\n`, tests };
}
