/**
 * @module worker/services/suggest-tests/framework
 *
 * The repo's test framework and layout, read from what the index holds: build files near the
 * source (package.json devDependencies and scripts; pytest.ini, pyproject.toml, setup.cfg;
 * pom.xml / build.gradle for Mockito) and the existing test files (where they live, how they
 * are named, what they import). Pure: the caller loads the files.
 */
import type { TestFact, TestFramework } from "../suggest-tests-schema";
import type { Family } from "./facts";
import type { Conventions } from "./types";

/** Build files read per family, looked up in every directory from the source's up to the root. */
const CONFIG_NAMES: Record<Family, string[]> = {
  ts: ["package.json"],
  python: ["pytest.ini", "pyproject.toml", "setup.cfg"],
  go: ["go.mod"],
  java: ["pom.xml", "build.gradle", "build.gradle.kts"],
};

/** Test file names per family. */
const TEST_FILE: Record<Family, RegExp> = {
  ts: /(\.(test|spec)\.[cm]?[jt]sx?$)|(\/__tests__\/)/,
  python: /(^|\/)test_[^/]*\.py$|_test\.py$/,
  go: /_test\.go$/,
  java: /Tests?\.java$/,
};

/** Most existing test files read for their imports. */
export const TEST_FILES_READ = 5;

const dirOf = (p: string) => (p.includes("/") ? p.slice(0, p.lastIndexOf("/")) : "");
const join = (...parts: string[]) => parts.filter(Boolean).join("/");

/** Build-file paths to load for `sourcePath`, nearest directory first. */
export function configCandidates(sourcePath: string, family: Family): string[] {
  const out: string[] = [];
  for (let dir = dirOf(sourcePath); ; dir = dirOf(dir)) {
    for (const n of CONFIG_NAMES[family]) out.push(join(dir, n));
    if (!dir) return out;
  }
}

/** Existing test files of `family` in `paths`, sharing the longest directory prefix with the source first. */
export function testFileCandidates(paths: string[], family: Family, sourcePath: string): string[] {
  const shared = (p: string) => {
    const a = p.split("/");
    const b = sourcePath.split("/");
    let i = 0;
    while (i < a.length && i < b.length && a[i] === b[i]) i++;
    return i;
  };
  return paths
    .filter((p) => TEST_FILE[family].test(p))
    .sort((x, y) => shared(y) - shared(x) || x.localeCompare(y))
    .slice(0, TEST_FILES_READ);
}

/** What `detectConventions` reads: the source, the loaded build files and test files, every path. */
export interface ConventionInput {
  sourcePath: string;
  sourceText: string;
  family: Family;
  /** The class or module the test is named after. */
  owner: string;
  paths: string[];
  configs: { path: string; text: string }[];
  testFiles: { path: string; text: string }[];
  framework?: TestFramework;
}

/** The first line of `text` matching `re`, 1-based (0 when none). */
function lineOf(text: string, re: RegExp): number {
  return text.split("\n").findIndex((l) => re.test(l)) + 1;
}

/** Framework, test path and the facts that chose them. */
export function detectConventions(input: ConventionInput): Conventions {
  const facts: TestFact[] = [];
  const notes: string[] = [];
  const evidence = (files: { path: string; text: string }[], re: RegExp, text: string): boolean => {
    for (const f of files) {
      const line = lineOf(f.text, re);
      if (line) {
        facts.push({ kind: "framework", text, path: f.path, line });
        return true;
      }
    }
    return false;
  };
  const tests = input.testFiles;
  if (tests.length) facts.push({ kind: "convention", text: `existing test file ${tests[0].path}`, path: tests[0].path, line: 1 });
  let framework: TestFramework;
  let mockito = false;
  let moduleName: string | null = null;
  let testPath: string;
  const base = input.sourcePath.split("/").pop() ?? input.sourcePath;
  const stem = base.replace(/\.[^.]+$/, "");
  const ext = base.slice(stem.length);

  if (input.family === "ts") {
    const pkg = input.configs.find((c) => c.path.endsWith("package.json"));
    framework =
      input.framework ??
      (evidence(input.configs, /"vitest"\s*:/, "vitest in package.json") || evidence(tests, /from\s+["']vitest["']/, "existing tests import vitest")
        ? "vitest"
        : evidence(input.configs, /"jest"\s*:/, "jest in package.json") || evidence(tests, /@jest\/globals|\bjest\./, "existing tests use jest")
          ? "jest"
          : evidence(input.configs, /node\s+--test/, "package.json runs node --test") || evidence(tests, /["']node:test["']/, "existing tests import node:test")
            ? "node:test"
            : "node:test");
    if (!facts.some((f) => f.kind === "framework") && !input.framework)
      notes.push("No test framework found in package.json or existing tests: wrote for node:test (built into Node).");
    const root = pkg ? dirOf(pkg.path) : "";
    const rel = root ? input.sourcePath.slice(root.length + 1) : input.sourcePath;
    const inRoot = tests.filter((t) => !root || t.path.startsWith(`${root}/`));
    const suffix = inRoot.some((t) => /\.spec\./.test(t.path)) && !inRoot.some((t) => /\.test\./.test(t.path)) ? "spec" : "test";
    const topDir = inRoot.map((t) => (root ? t.path.slice(root.length + 1) : t.path).split("/")[0]).find((d) => d === "test" || d === "tests");
    if (topDir) testPath = join(root, topDir, dirOf(rel.replace(/^src\//, "")), `${stem}.${suffix}${ext}`);
    else if (inRoot.some((t) => t.path.includes("/__tests__/"))) testPath = join(dirOf(input.sourcePath), "__tests__", `${stem}.${suffix}${ext}`);
    else testPath = join(dirOf(input.sourcePath), `${stem}.${suffix}${ext}`);
  } else if (input.family === "python") {
    const isPytest =
      evidence(
        input.configs.filter((c) => c.path.endsWith("pytest.ini")),
        /\[pytest\]/,
        "pytest.ini",
      ) ||
      evidence(input.configs, /\[tool\.pytest|\[tool:pytest\]/, "pytest configured") ||
      evidence(tests, /^\s*import pytest|^\s*from pytest/, "existing tests import pytest");
    const isUnittest = !isPytest && evidence(tests, /^\s*import unittest|^\s*from unittest/, "existing tests import unittest");
    framework = input.framework ?? (isPytest ? "pytest" : isUnittest ? "unittest" : "unittest");
    if (!isPytest && !isUnittest && !input.framework) notes.push("No pytest configuration or existing tests found: wrote for unittest (standard library).");
    const cfg = input.configs[0];
    const root = cfg ? dirOf(cfg.path) : "";
    const rel = (root ? input.sourcePath.slice(root.length + 1) : input.sourcePath).replace(/^src\//, "");
    moduleName = rel
      .replace(/\.py$/, "")
      .replace(/\/__init__$/, "")
      .split("/")
      .join(".");
    const testpaths = input.configs.map((c) => /testpaths\s*=\s*\[?\s*["']?([\w./-]+)/.exec(c.text)?.[1]).find(Boolean);
    const existingDir = tests.map((t) => dirOf(root ? t.path.slice(root.length + 1) : t.path)).find((d) => d !== undefined);
    testPath = join(root, testpaths ?? existingDir ?? "tests", `test_${stem}.py`);
  } else if (input.family === "go") {
    framework = "go-testing";
    testPath = join(dirOf(input.sourcePath), `${stem}_test.go`);
  } else {
    framework = "junit5";
    mockito =
      evidence(input.configs, /mockito/, "Mockito declared in the build file") ||
      evidence(tests, /import\s+(static\s+)?org\.mockito/, "existing tests import Mockito");
    if (!mockito)
      notes.push("Mockito is not declared in pom.xml/build.gradle nor imported by existing tests: add org.mockito:mockito-core (test scope) for the mocks.");
    evidence(tests, /org\.junit\.jupiter/, "existing tests use JUnit 5");
    moduleName = /^\s*package\s+([\w.]+)\s*;/m.exec(input.sourceText)?.[1] ?? null;
    const dir = dirOf(input.sourcePath).replace(/(^|\/)src\/main\/java(\/|$)/, "$1src/test/java$2");
    testPath = join(dir, `${input.owner}Test.java`);
  }
  const exists = input.paths.includes(testPath);
  if (exists) notes.push(`${testPath} already exists: merge these tests into it.`);
  return { framework, testPath, testPathExists: exists, moduleName, mockito, facts, notes };
}
