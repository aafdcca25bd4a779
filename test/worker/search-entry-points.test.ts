/**
 * Entry-point questions ("where is the main entry point", "where does the cli start") over small
 * repos of this test's own, uploaded through the real archive route, queue, chunker and
 * activation, and searched over REST inside workerd: the files a repo declares as its entries
 * (package.json, pyproject.toml, a `main` function) rank above the build scripts whose text says
 * "entry" and "main", each result's `explain` names the `entry` stage, and a search whose top
 * result is still a build script says `low`.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../helpers";
import { uploadFilesAndWait } from "./ingest-helpers";

interface Hit {
  path: string;
  explain: { stages: { stage: string; factor: number }[] };
}
interface Answer {
  results: Hit[];
  confidence: { level: string; reason: string };
}

async function search(repo: string, query: string, extra: Record<string, unknown> = {}): Promise<Answer> {
  const res = await api("/api/search", { method: "POST", json: { query, repo, k: 5, explain: true, ...extra } });
  expect(res.status).toBe(200);
  return (await res.json()) as Answer;
}

const factorOf = (hit: Hit, stage: string) => hit.explain.stages.find((s) => s.stage === stage)?.factor;

/** A bundler script whose words are the question's: "main", "entry", "point". */
const BUILD_SCRIPT = [
  "import { build } from 'esbuild';",
  "",
  "/** Bundles the main entry point of the package: each entry point becomes one output file. */",
  "export async function bundleEntryPoints(main: string) {",
  "  const entryPoints = [main];",
  "  await build({ entryPoints, bundle: true, outdir: 'dist', format: 'esm' });",
  "}",
  "",
].join("\n");

/** A TypeScript library: package.json's `exports` names `dist/index.js`, whose source is `src/index.ts`. */
const TS_LIBRARY = {
  "package.json": JSON.stringify({
    name: "tiny-router",
    version: "1.0.0",
    exports: { ".": { types: "./dist/types/index.d.ts", import: "./dist/index.js" } },
    scripts: { build: "node scripts/build.mjs" },
  }),
  "scripts/build.ts": BUILD_SCRIPT,
  "src/index.ts": [
    "/** tiny-router: routes requests to handlers. */",
    "export { Router } from './router';",
    "export function createApp() {",
    "  return new Router();",
    "}",
    "",
  ].join("\n"),
  "src/router.ts": [
    "export class Router {",
    "  routes: { path: string; handler: () => Response }[] = [];",
    "  add(path: string, handler: () => Response) {",
    "    this.routes.push({ path, handler });",
    "  }",
    "  match(path: string) {",
    "    return this.routes.find((r) => r.path === path);",
    "  }",
    "}",
    "",
  ].join("\n"),
};

/** A Python CLI: pyproject's console script `inv = "invoicer.cli:run"`, and a task file that mentions the cli's start. */
const PY_CLI = {
  "pyproject.toml": '[project]\nname = "invoicer"\nversion = "0.1.0"\n\n[project.scripts]\ninv = "invoicer.cli:run"\n',
  "invoicer/__init__.py": '"""Invoices from the command line."""\n',
  "invoicer/cli.py": [
    "import argparse",
    "",
    "from invoicer.render import render_invoice",
    "",
    "",
    "def run(argv=None):",
    '    parser = argparse.ArgumentParser(prog="inv")',
    '    parser.add_argument("customer")',
    "    args = parser.parse_args(argv)",
    "    print(render_invoice(args.customer))",
    "",
  ].join("\n"),
  "invoicer/render.py": 'def render_invoice(customer):\n    return f"Invoice for {customer}"\n',
  "noxfile.py": [
    "import nox",
    "",
    "",
    "@nox.session",
    "def cli(session):",
    '    """Start the cli in a fresh environment: where the cli starts for a smoke test."""',
    '    session.install(".")',
    '    session.run("inv", "acme")',
    "",
  ].join("\n"),
};

/** A repo of build and release scripts only: it declares no entry. */
const NO_ENTRY = {
  "build/bundle.ts": BUILD_SCRIPT,
  "tools/release.ts": "/** Tags a release and publishes the bundle. */\nexport function release(version: string) {\n  return `v${version}`;\n}\n",
};

beforeAll(async () => {
  await uploadFilesAndWait("entry-ts", TS_LIBRARY);
  await uploadFilesAndWait("entry-py", PY_CLI);
  await uploadFilesAndWait("entry-none", NO_ENTRY);
});

describe("an entry-point question", () => {
  it("ranks the file package.json exports (mapped from dist/ to src/) above the build script", async () => {
    const { results, confidence } = await search("entry-ts", "where is the main entry point");
    expect(results[0].path).toBe("src/index.ts");
    expect(factorOf(results[0], "entry")).toBe(2);
    const build = results.find((r) => r.path === "scripts/build.ts");
    if (build) expect(factorOf(build, "entry")).toBe(0.5);
    expect(confidence.level).toBe("high");
  });

  it("ranks the module of the console script pyproject.toml declares first", async () => {
    const { results } = await search("entry-py", "where does the cli start");
    expect(results[0].path).toBe("invoicer/cli.py");
    expect(factorOf(results[0], "entry")).toBe(2);
  });

  it("leaves questions that do not ask for an entry point alone", async () => {
    const { results } = await search("entry-ts", "how does the router match a path to its handler");
    expect(results.length).toBeGreaterThan(0);
    expect(results.every((r) => factorOf(r, "entry") === undefined)).toBe(true);
  });

  it("keeps the filters: an entry outside path_prefix does not join the results", async () => {
    const { results } = await search("entry-ts", "where is the main entry point", { path_prefix: "scripts/" });
    expect(results.length).toBeGreaterThan(0);
    expect(results.every((r) => r.path === "scripts/build.ts")).toBe(true);
  });

  it("is low when a build script still leads and the repo declares no entry", async () => {
    const { results, confidence } = await search("entry-none", "where is the main entry point");
    expect(results[0].path).toBe("build/bundle.ts");
    expect(confidence.level).toBe("low");
    expect(confidence.reason).toContain("build or tooling script");
  });
});
