/**
 * The pure half of suggest_tests on the navigation fixture (test/fixtures/navigation) chunked
 * with the real chunker: each skeleton parses with tree-sitter without ERROR/MISSING nodes; the
 * TypeScript one type-checks with `tsc --noEmit` beside a copy of the fixture and the Python one
 * compiles with `python3 -m py_compile`. Node project: it spawns tsc and python3.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { chunkFile } from "../../../indexer/chunk";
import { getParser } from "../../../indexer/chunk/parser";
import type { GrammarLanguage } from "../../../indexer/chunk/languages";
import type { SuggestTestsOutput } from "../suggest-tests-schema";
import { buildSuggestion, pickTarget } from "./build";
import { familyOf } from "./facts";
import { configCandidates, testFileCandidates } from "./framework";

const ROOT = "test/fixtures/navigation";
const walk = (dir: string): string[] => readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]));
const PATHS = walk(ROOT).map((p) => p.slice(ROOT.length + 1));
const read = (p: string) => readFileSync(join(ROOT, p), "utf8");
// Inside the worktree so that the skeleton's `vitest` import resolves from node_modules.
const WORK = mkdtempSync(join("node_modules", ".cache-suggest-tests-"));
afterAll(() => rmSync(WORK, { recursive: true, force: true }));

async function suggest(path: string, symbol: string, framework?: SuggestTestsOutput["framework"]): Promise<SuggestTestsOutput> {
  const text = read(path);
  const chunked = await chunkFile(path, text);
  const file = {
    path,
    language: chunked.language,
    text,
    imports: chunked.imports,
    symbols: chunked.symbols.map((s) => ({ ...s, container: s.container ?? null, signature: s.signature ?? null })),
  };
  const family = familyOf(file.language);
  if (!family) throw new Error(`no family for ${path}`);
  const configs = configCandidates(path, family)
    .filter((p) => PATHS.includes(p))
    .map((p) => ({ path: p, text: read(p) }));
  const testFiles = testFileCandidates(PATHS, family, path).map((p) => ({ path: p, text: read(p) }));
  return buildSuggestion("nav", file, pickTarget(file, symbol)[0], { paths: PATHS, configs, testFiles, framework });
}

async function expectCleanParse(language: GrammarLanguage, skeleton: string): Promise<void> {
  const tree = (await getParser(language)).parse(skeleton);
  const bad: string[] = [];
  const visit = (n: NonNullable<typeof tree>["rootNode"]) => {
    if (n.type === "ERROR" || n.isMissing) bad.push(`${n.type}@${n.startPosition.row + 1}`);
    for (const c of n.children) if (c) visit(c);
  };
  visit(tree!.rootNode);
  expect(bad, skeleton).toEqual([]);
}

/** Runs a compiler; "" when it succeeds, else its output (so a failure shows the diagnostics). */
function run(cmd: string, args: string[]): string {
  try {
    execFileSync(cmd, args, { stdio: "pipe" });
    return "";
  } catch (e) {
    const err = e as { stdout?: Buffer; stderr?: Buffer };
    return `${String(err.stdout ?? "")}${String(err.stderr ?? "")}` || String(e);
  }
}

const line = (path: string, needle: string) =>
  read(path)
    .split("\n")
    .findIndex((l) => l.includes(needle)) + 1;

describe("suggest_tests skeletons", () => {
  it("TypeScript (vitest): facts, one test per behaviour, parses and type-checks against the fixture", async () => {
    const src = "typescript/src/pricing/discount.ts";
    const r = await suggest(src, "applyDiscount");
    expect(r.framework).toBe("vitest");
    expect(r.test_path).toBe("typescript/test/pricing/discount.test.ts");
    expect(r.facts.filter((f) => f.kind === "throws").map((f) => `${f.text}@${f.line}`)).toEqual([`RangeError@${line(src, "throw new RangeError")}`]);
    expect(r.facts.filter((f) => f.kind === "early_return").map((f) => f.line)).toEqual([line(src, "if (percent === 0) return price")]);
    expect(r.facts.find((f) => f.kind === "framework")).toMatchObject({ path: "typescript/package.json", line: line("typescript/package.json", '"vitest"') });
    expect(r.tests.map((t) => t.behaviour)).toEqual(["returns", "throws", "early_return"]);
    expect(r.skeleton.match(/expect\.fail\("TODO/g)?.length).toBe(3);
    await expectCleanParse("typescript", r.skeleton);

    const cart = await suggest("typescript/src/cart.ts", "Cart.total");
    expect(cart.facts.filter((f) => f.kind === "collaborator").map((f) => f.text)).toEqual(
      expect.arrayContaining(["private readonly prices: number[] = []", "constructor percent: number", expect.stringMatching(/^calls applyDiscount/)]),
    );
    await expectCleanParse("typescript", cart.skeleton);
    for (const fw of ["jest", "node:test"] as const) await expectCleanParse("typescript", (await suggest(src, "applyDiscount", fw)).skeleton);

    const dir = join(WORK, "ts");
    cpSync(join(ROOT, "typescript"), dir, { recursive: true });
    for (const s of [r, cart]) {
      const target = join(dir, s.test_path.slice("typescript/".length));
      mkdirSync(join(target, ".."), { recursive: true });
      writeFileSync(target, s.skeleton);
    }
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, module: "esnext", moduleResolution: "bundler", target: "es2022", skipLibCheck: true, types: [] },
        include: ["**/*.ts"],
      }),
    );
    expect(run(join(process.cwd(), "node_modules/.bin/tsc"), ["-p", join(dir, "tsconfig.json")])).toBe("");
  });

  it("JavaScript (jest from package.json, __tests__ layout): no type annotations, parses as JavaScript", async () => {
    const text = 'export function half(n) {\n  if (n < 0) throw new TypeError("negative");\n  return n / 2;\n}\n';
    const path = "lib/half.js";
    const chunked = await chunkFile(path, text);
    const file = {
      path,
      language: chunked.language,
      text,
      imports: chunked.imports,
      symbols: chunked.symbols.map((s) => ({ ...s, container: s.container ?? null, signature: s.signature ?? null })),
    };
    const pkg = { path: "package.json", text: '{\n  "devDependencies": {\n    "jest": "^29.0.0"\n  }\n}\n' };
    const r = buildSuggestion("js", file, pickTarget(file, "half")[0], {
      paths: [path, pkg.path, "lib/__tests__/x.test.js"],
      configs: [pkg],
      testFiles: [{ path: "lib/__tests__/x.test.js", text: "" }],
    });
    expect(r).toMatchObject({ framework: "jest", test_path: "lib/__tests__/half.test.js" });
    expect(r.facts).toContainEqual({ kind: "framework", text: "jest in package.json", path: "package.json", line: 3 });
    expect(r.facts.filter((f) => f.kind === "throws").map((f) => `${f.text}@${f.line}`)).toEqual(["TypeError@2"]);
    expect(r.skeleton).toContain('import { half } from "../half.js";');
    expect(r.skeleton).toContain("const n = undefined; // TODO: a value");
    expect(r.skeleton).not.toContain(" as never");
    await expectCleanParse("javascript", r.skeleton);
  });

  it("Python (pytest): raises per error, imports the module's own error, compiles with py_compile", async () => {
    const src = "python/billing/parser.py";
    const r = await suggest(src, "parse");
    expect(r.framework).toBe("pytest");
    expect(r.test_path).toBe("python/tests/test_parser.py");
    expect(r.test_path_exists).toBe(true);
    expect(r.facts.filter((f) => f.kind === "throws").map((f) => `${f.text}@${f.line}`)).toEqual([`ParseError@${line(src, "raise ParseError")}`]);
    expect(r.skeleton).toContain("from billing.parser import ParseError, parse");
    expect(r.skeleton).toContain("with pytest.raises(ParseError):");
    expect(r.skeleton.match(/pytest\.fail\("TODO/g)?.length).toBe(2);
    const method = await suggest(src, "ReportParser.parse", "unittest");
    expect(method.facts.filter((f) => f.kind === "throws").map((f) => f.text)).toEqual(["ValueError"]);
    expect(method.skeleton).toContain("subject = ReportParser(strict=strict)");
    for (const [i, s] of [r, method].entries()) {
      await expectCleanParse("python", s.skeleton);
      const f = join(WORK, `skeleton_${i}.py`);
      writeFileSync(f, s.skeleton);
      expect(run("python3", ["-m", "py_compile", f])).toBe("");
    }
  });

  it("Go (testing): errors.Is per sentinel error, the source's package, parses", async () => {
    const src = "go/tax/calculator.go";
    const r = await suggest(src, "Calculator.Compute");
    expect(r.framework).toBe("go-testing");
    expect(r.test_path).toBe("go/tax/calculator_test.go");
    expect(r.facts.filter((f) => f.kind === "throws").map((f) => `${f.text}@${f.line}`)).toEqual([`ErrNegative@${line(src, "return 0, ErrNegative")}`]);
    expect(r.skeleton).toContain("if !errors.Is(err, ErrNegative) {");
    expect(r.skeleton).toContain("subject := &Calculator{}");
    expect(r.skeleton.match(/t\.Fatal\("TODO/g)?.length).toBe(2);
    await expectCleanParse("go", r.skeleton);
  });

  it("Java (JUnit 5 + Mockito): the overload's exception, the test beside src/test/java, parses", async () => {
    const src = "java/src/main/java/com/acme/billing/InvoiceFormatter.java";
    const r = await suggest(src, "InvoiceFormatter.format(Invoice, Locale)");
    expect(r.framework).toBe("junit5");
    expect(r.test_path).toBe("java/src/test/java/com/acme/billing/InvoiceFormatterTest.java");
    expect(r.facts.filter((f) => f.kind === "throws").map((f) => `${f.text}@${f.line}`)).toEqual([
      `IllegalArgumentException@${line(src, "throw new IllegalArgumentException")}`,
    ]);
    expect(r.skeleton).toContain("assertThrows(IllegalArgumentException.class, () -> subject.format(invoice, locale));");
    expect(r.skeleton).toContain("import java.util.Locale;");
    expect(r.skeleton.match(/fail\("TODO/g)?.length).toBe(2);
    await expectCleanParse("java", r.skeleton);
    const billing = await suggest("java/src/main/java/com/acme/billing/BillingService.java", "send");
    expect(billing.skeleton).toContain("InvoiceFormatter formatter = mock(InvoiceFormatter.class);");
    await expectCleanParse("java", billing.skeleton);
  });

  it("a class is not a function: 400 naming its methods", async () => {
    await expect(suggest("java/src/main/java/com/acme/billing/InvoiceFormatter.java", "InvoiceFormatter")).rejects.toThrow(
      "InvoiceFormatter is a class; name one of its methods: format",
    );
  });
});
