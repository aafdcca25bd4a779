/**
 * @module worker/services/suggest-tests/build
 *
 * The pure half of suggest_tests: picks the definition, gathers its facts, reads the
 * conventions and renders with the family's renderer. Plain data in, plain data out; the
 * service (index.ts) loads that data from D1.
 */
import { CodeSearchError } from "../../../kernel/errors";
import { parseQualifiedName, paramsMatch } from "../symbols-qualified";
import type { SuggestTestsOutput, TestFramework } from "../suggest-tests-schema";
import { familyOf, gatherFacts, type Family } from "./facts";
import { detectConventions, type ConventionInput } from "./framework";
import { renderGo } from "./render-go";
import { renderJava } from "./render-java";
import { renderPython } from "./render-python";
import { renderTs } from "./render-ts";
import type { SourceFile, SymbolLite } from "./types";

const CALLABLE = new Set(["function", "method", "constructor"]);
const FRAMEWORKS: Record<Family, TestFramework[]> = {
  ts: ["vitest", "jest", "node:test"],
  python: ["pytest", "unittest"],
  go: ["go-testing"],
  java: ["junit5"],
};

/**
 * The callable rows of `file` named by `symbol` ("name", "Class.name", "Class#name",
 * "name(Type, Type)"). Throws `invalid_input` (400) when the name is a class or other
 * non-callable, naming its methods; returns [] when nothing in the file has the name.
 */
export function pickTarget(file: SourceFile, symbol: string): SymbolLite[] {
  const q = parseQualifiedName(symbol);
  const member = q?.member ?? symbol.replace(/\(.*$/, "").trim();
  const params = q?.params ?? null;
  const named = file.symbols.filter((s) => s.name === member && (!q?.qualifier.length || s.container === q.qualifier[q.qualifier.length - 1]));
  // A Java/C# constructor shares its class's name: the bare name means the class.
  const isClassName = named.some((s) => !CALLABLE.has(s.kind));
  const callable = named.filter((s) => CALLABLE.has(s.kind) && !(isClassName && s.kind === "constructor") && (!params || paramsMatch(params, s.signature)));
  if (callable.length) return callable;
  const other = named.find((s) => !CALLABLE.has(s.kind));
  if (other) {
    const members = file.symbols.filter((s) => s.container === other.name && CALLABLE.has(s.kind) && s.kind !== "constructor").map((s) => s.name);
    const list = [...new Set(members)];
    throw new CodeSearchError(
      "invalid_input",
      list.length
        ? `${other.name} is a ${other.kind}; name one of its methods: ${list.join(", ")} (e.g. "${other.name}.${list[0]}").`
        : `${other.name} is a ${other.kind} (${file.path}:${other.startLine}), not a function or method; suggest_tests needs a function or method.`,
    );
  }
  return [];
}

/** Builds the suggestion for `target` of `file`; `conv` is everything but the source fields. */
export function buildSuggestion(
  repo: string,
  file: SourceFile,
  target: SymbolLite,
  conv: Omit<ConventionInput, "sourcePath" | "sourceText" | "family" | "owner">,
): SuggestTestsOutput {
  const family = familyOf(file.language);
  if (!family)
    throw new CodeSearchError("invalid_input", `suggest_tests writes TypeScript/JavaScript, Python, Go and Java tests; ${file.path} is ${file.language}.`);
  if (conv.framework && !FRAMEWORKS[family].includes(conv.framework)) {
    throw new CodeSearchError("invalid_input", `framework: ${conv.framework} does not test ${file.language}; use one of ${FRAMEWORKS[family].join(", ")}.`);
  }
  const owner = target.container ?? (file.path.split("/").pop() ?? "").replace(/\.[^.]+$/, "");
  const facts = gatherFacts(file, target);
  const c = detectConventions({ ...conv, sourcePath: file.path, sourceText: file.text, family, owner });
  const render = { ts: renderTs, python: renderPython, go: renderGo, java: renderJava }[family];
  const r = render(facts, c);
  return {
    repo,
    path: file.path,
    symbol: `${target.container ? `${target.container}.` : ""}${target.name}`,
    signature: target.signature,
    language: file.language,
    framework: c.framework,
    test_path: c.testPath,
    test_path_exists: c.testPathExists,
    skeleton: r.skeleton,
    tests: r.tests,
    facts: [...facts.facts, ...c.facts],
    notes: c.notes,
  };
}
