import { describe, expect, it } from "vitest";
import { asksForEntryPoint, conventionalEntries, declaredEntries, isToolingPath, resolveDeclared } from "./entry-points";

describe("asksForEntryPoint", () => {
  it.each([
    "where is the main entry point",
    "entrypoint of the cli",
    "which file is the main module",
    "where is the app bootstrapped",
    "where does the server start",
    "where does execution begin",
    "what is the starting point of the program",
    "where is main() defined",
  ])("recognises %j", (q) => expect(asksForEntryPoint(q)).toBe(true));
  it.each([
    "where is the main router defined",
    "how does the start of a line get matched",
    "entry in the cache table",
    "which function parses the main header",
    "where are plugin commands loaded from entry points",
  ])("does not take %j for one", (q) => expect(asksForEntryPoint(q)).toBe(false));
});

describe("isToolingPath", () => {
  it.each([
    "build/build.ts",
    "scripts/release.js",
    "perf-measures/bundle-check/scripts/check.ts",
    "vite.config.ts",
    "Makefile",
    "crates/x/build.rs",
    "setup.py",
    ".github/workflows/ci.yml",
  ])("%s is tooling", (p) => expect(isToolingPath(p)).toBe(true));
  it.each(["src/index.ts", "src/build/compiler.ts", "bin/cli.js", "src/cli/main.py", "cmd/app/main.go"])("%s is not", (p) =>
    expect(isToolingPath(p)).toBe(false),
  );
});

describe("resolveDeclared", () => {
  const paths = new Set(["src/index.ts", "lib/express.js", "src/cli.tsx"]);
  it("keeps a path the tree has", () => expect(resolveDeclared("./lib/express.js", paths)).toBe("lib/express.js"));
  it("maps a build output back to its source", () => {
    expect(resolveDeclared("./dist/cjs/index.js", paths)).toBe("src/index.ts");
    expect(resolveDeclared("dist/types/index.d.ts", paths)).toBe("src/index.ts");
    expect(resolveDeclared("./dist/cli.mjs", paths)).toBe("src/cli.tsx");
  });
  it("gives null when nothing matches", () => expect(resolveDeclared("./dist/other.js", paths)).toBeNull());
});

describe("declaredEntries", () => {
  it("reads package.json main, bin and the '.' export, mapped to sources", () => {
    const paths = new Set(["src/index.ts", "src/bin.ts", "src/extra.ts", "build/build.ts"]);
    const pkg = JSON.stringify({
      main: "dist/cjs/index.js",
      bin: { tool: "./dist/bin.js" },
      exports: { ".": { types: "./dist/types/index.d.ts", import: "./dist/index.js" }, "./extra": "./dist/extra.js" },
    });
    const entries = declaredEntries(new Map([["package.json", pkg]]), paths);
    expect(entries.map((e) => [e.path, e.source])).toEqual([
      ["src/index.ts", "package.json main"],
      ["src/bin.ts", "package.json bin tool"],
    ]);
    expect(entries.every((e) => e.tier === "declared")).toBe(true);
  });
  it("reads pyproject scripts, setup.py console_scripts and Cargo targets", () => {
    const paths = new Set(["src/shop/cli.py", "shop/__init__.py", "tools/gen/__init__.py", "crates/core/main.rs"]);
    const manifests = new Map([
      ["pyproject.toml", '[project]\nname = "shop"\n[project.scripts]\nshop = "shop.cli:main"\n'],
      ["setup.py", 'setup(entry_points={"console_scripts": ["gen = tools.gen:run"]}, name="x")'],
      ["Cargo.toml", '[package]\nname = "rg"\n[[bin]]\nname = "rg"\npath = "crates/core/main.rs"\n'],
    ]);
    expect(declaredEntries(manifests, paths).map((e) => e.path)).toEqual(["src/shop/cli.py", "tools/gen/__init__.py", "crates/core/main.rs"]);
  });
  it("resolves a package folder's manifest against its folder, and what npm start runs", () => {
    const paths = new Set(["api/src/server.ts", "api/src/config.ts", "worker/shop/cli.py"]);
    const manifests = new Map([
      ["api/package.json", JSON.stringify({ scripts: { build: "tsc", start: "node dist/server.js" } })],
      ["worker/pyproject.toml", '[project.scripts]\nshop = "shop.cli:main"\n'],
    ]);
    expect(declaredEntries(manifests, paths).map((e) => [e.path, e.source])).toEqual([
      ["api/src/server.ts", "api/package.json scripts.start"],
      ["worker/shop/cli.py", "worker/pyproject.toml [project.scripts] shop"],
    ]);
  });
  it("never climbs out of the manifest's folder", () => {
    expect(declaredEntries(new Map([["api/package.json", JSON.stringify({ main: "../secret/index.js" })]]), new Set(["secret/index.js"]))).toEqual([]);
  });
  it("declares nothing from malformed manifests", () => {
    expect(
      declaredEntries(
        new Map([
          ["package.json", "{ not json"],
          ["pyproject.toml", "[[["],
        ]),
        new Set(["src/index.ts"]),
      ),
    ).toEqual([]);
  });
});

describe("conventionalEntries", () => {
  it("reads the conventions relative to each package root", () => {
    const paths = ["cli/main.go", "api/src/index.ts", "api/src/deep/index.ts", "other/main.go"];
    expect(conventionalEntries(paths, () => false, ["", "cli/", "api/"]).map((e) => e.path)).toEqual(["cli/main.go", "api/src/index.ts"]);
  });
  it("finds conventional names of source files, not tests, tooling or prose", () => {
    const paths = [
      "src/index.ts",
      "main.go",
      "cmd/srv/main.go",
      "pkg/__main__.py",
      "src/main.rs",
      "README.md",
      "index.html",
      "scripts/main.py",
      "src/index.test.ts",
      "src/deep/index.ts",
    ];
    expect(conventionalEntries(paths, (p) => p.includes(".test.")).map((e) => e.path)).toEqual([
      "src/index.ts",
      "main.go",
      "cmd/srv/main.go",
      "pkg/__main__.py",
      "src/main.rs",
    ]);
  });
});
