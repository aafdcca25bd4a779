/**
 * Ingestion that is safe and faithful, through the REST API: planted secrets never reach the
 * index and are listed with their rule; other encodings are decoded and searchable; bundles,
 * framework output and over-long paths are skipped with reasons; the skipped listing pages.
 */
import { gzipSync, strToU8 } from "fflate";
import { packTar, type TarEntry } from "modern-tar";
import { describe, expect, it } from "vitest";
import { esbuildBundle, largeJsonSchema, shiftJisPython, utf16, webpackBundle } from "../fixtures/messy-trees";
import { plantedSecrets } from "../fixtures/planted-secrets";
import { api } from "../helpers";
import { call, connect, text } from "./mcp-client";
import { indexDb, waitForJob } from "./ingest-helpers";

type Page = {
  repo: string;
  commit: string | null;
  reason: string | null;
  total: number;
  offset: number;
  nextOffset: number | null;
  files: { path: string; reason: string; rule: string }[];
};

async function uploadTree(id: string, files: Record<string, string | Uint8Array>) {
  const entries: TarEntry[] = Object.entries(files).map(([name, body]) => {
    const bytes = typeof body === "string" ? strToU8(body) : body;
    return { header: { name, size: bytes.length, mode: 0o644 }, body: bytes };
  });
  const res = await api(`/api/repos/${id}/archive?strip=0`, {
    method: "POST",
    body: gzipSync(await packTar(entries)),
    headers: { "content-type": "application/gzip" },
  });
  const json = (await res.json()) as { job?: { id: string }; error?: unknown };
  expect(res.status, JSON.stringify(json)).toBe(202);
  const s = await waitForJob(id, json.job!.id);
  expect(s.status, s.lastError ?? "").toBe("ready");
  return s;
}

async function skipped(id: string, query = ""): Promise<Page> {
  const res = await api(`/api/repos/${id}/skipped${query}`);
  expect(res.status).toBe(200);
  return res.json();
}

async function indexedPaths(id: string): Promise<string[]> {
  const { results } = await (await indexDb(id)).prepare("SELECT path FROM snapshot_files WHERE repo = ? ORDER BY path").bind(id).all<{ path: string }>();
  return results.map((r) => r.path);
}

async function searchPaths(id: string, q: string): Promise<string[]> {
  const res = await api(`/api/search?repo=${id}&q=${encodeURIComponent(q)}`);
  return ((await res.json()) as { results: { path: string }[] }).results.map((r) => r.path);
}

describe("planted secrets", () => {
  it("none reaches the index; each is listed as secret with its rule, and no value appears in status or listing", async () => {
    const planted = plantedSecrets();
    const files: Record<string, string> = Object.fromEntries(planted.map((p) => [p.path, p.content]));
    files["src/clean.ts"] = "export function plantedCorpusClean() {\n  return 1;\n}\n";
    const status = await uploadTree("sec-planted", files);
    expect(await indexedPaths("sec-planted")).toEqual(["src/clean.ts"]);
    expect(status.skipped).toEqual({ secret: planted.length });
    const page = await skipped("sec-planted", `?reason=secret&limit=500`);
    expect(page.total).toBe(planted.length);
    expect(page.files.map((f) => f.path).sort()).toEqual(planted.map((p) => p.path).sort());
    for (const f of page.files) expect(f.rule).toMatch(/^(name|path|ext|pattern|secretlint)[:/]/);
    const rows = await (
      await indexDb("sec-planted")
    )
      .prepare("SELECT group_concat(text, '') AS t FROM files WHERE repo = 'sec-planted'")
      .first<{ t: string }>();
    const served = JSON.stringify(status) + JSON.stringify(page) + (rows?.t ?? "");
    for (const p of planted) if (p.value) expect(served, p.form).not.toContain(p.value);
    // Searching for a value finds at most the one clean file (the vector channel always answers).
    for (const p of planted.filter((x) => x.value.length > 20).slice(0, 5)) {
      expect((await searchPaths("sec-planted", p.value)).filter((path) => path !== "src/clean.ts")).toEqual([]);
    }
  });
});

describe("encodings, generated code, long paths", () => {
  it("decodes UTF-16 and Shift_JIS, strips a UTF-8 BOM, skips bundles and output folders with reasons, and lists them", async () => {
    const longPath = `deep/${"d".repeat(1020)}/x.ts`;
    const status = await uploadTree("messy", {
      "scripts/Deploy.ps1": utf16("function Invoke-WibbleDeploy {\r\n  Write-Output 'utf16 powershell'\r\n}\r\n", "le"),
      "src/Widget.cs": utf16("public class FrobnicateWidget {\n  public int Count() { return 1; }\n}\n", "be"),
      "src/bom.ts": new Uint8Array([0xef, 0xbb, 0xbf, ...strToU8("export function bomStrippedFunction() {\n  return 2;\n}\n")]),
      "legacy/sjis.py": shiftJisPython("shift_jis_function"),
      "legacy/utf32.txt": new Uint8Array([0xff, 0xfe, 0, 0, 0x41, 0, 0, 0]),
      "src/real.ts": "export function theOneRealFunction(a: number) {\n  return a * 3;\n}\n",
      "public/bundle.js": webpackBundle(3000),
      "lib/out.mjs": esbuildBundle(),
      ".pnp.cjs": '#!/usr/bin/env node\n/* eslint-disable */\n"use strict";\nfunction $$SETUP_STATE() {}\n',
      "schema/api.json": largeJsonSchema(),
      ".next/server/app.js": "export function nextOutput() {}\n",
      ".svelte-kit/output/x.js": "export function kitOutput() {}\n",
      "bazel-out/k8-fastbuild/bin/gen.ts": "export function bazelOutput() {}\n",
      "cmake-build-debug/CMakeFiles/x.cpp": "int cmakeOutput() { return 0; }\n",
      ".yarn/releases/yarn-4.1.0.cjs": "module.exports = function yarnRelease() {};\n",
      ".yarn/plugins/local.cjs": "module.exports = function yarnPlugin() {};\n",
      "storybook-static/main.js": "export function storybookOutput() {}\n",
      [longPath]: "export const tooDeep = 1;\n",
    });
    expect(await indexedPaths("messy")).toEqual([
      ".yarn/plugins/local.cjs",
      "legacy/sjis.py",
      "scripts/Deploy.ps1",
      "src/Widget.cs",
      "src/bom.ts",
      "src/real.ts",
    ]);
    expect(await searchPaths("messy", "Invoke-WibbleDeploy")).toContain("scripts/Deploy.ps1");
    expect(await searchPaths("messy", "FrobnicateWidget")).toContain("src/Widget.cs");
    expect(await searchPaths("messy", "shift_jis_function")).toContain("legacy/sjis.py");
    const sjis = await (await indexDb("messy")).prepare("SELECT text FROM files WHERE repo = 'messy' AND path = 'legacy/sjis.py'").first<{ text: string }>();
    expect(sjis?.text).toContain("日本語のコメントです");
    const bom = await (await indexDb("messy")).prepare("SELECT text FROM files WHERE repo = 'messy' AND path = 'src/bom.ts'").first<{ text: string }>();
    expect(bom?.text.startsWith("export function")).toBe(true);
    expect(status.skipped).toEqual({ unsupported_encoding: 1, generated: 4, vendored: 6, path_too_long: 1 });
    const all = await skipped("messy");
    const byPath = Object.fromEntries(all.files.map((f) => [f.path, `${f.reason} ${f.rule}`]));
    expect(byPath).toEqual({
      "legacy/utf32.txt": "unsupported_encoding encoding:utf-32",
      "public/bundle.js": "generated content:webpack-bundle",
      "lib/out.mjs": "generated content:esbuild-bundle",
      ".pnp.cjs": "generated name:.pnp",
      "schema/api.json": "generated content:large-json-schema",
      ".next/server/app.js": "vendored dir:.next",
      ".svelte-kit/output/x.js": "vendored dir:.svelte-kit",
      "bazel-out/k8-fastbuild/bin/gen.ts": "vendored dir:bazel-*",
      "cmake-build-debug/CMakeFiles/x.cpp": "vendored dir:cmake-build-*",
      ".yarn/releases/yarn-4.1.0.cjs": "vendored dir:.yarn/releases",
      "storybook-static/main.js": "vendored dir:storybook-static",
      [longPath]: "path_too_long path>1024",
    });
    // The real function is what a search finds, not thousands of bundled helpers.
    expect((await searchPaths("messy", "function"))[0]).not.toBe("public/bundle.js");
  });

  it("pages the skipped listing, filters by reason and refuses a bad reason", async () => {
    const files: Record<string, string> = { "src/a.ts": "export const a = 1;\n" };
    for (let i = 0; i < 5; i++) files[`node_modules/p${i}/index.js`] = "module.exports = 1;\n";
    files["app.min.js"] = "x";
    await uploadTree("skip-pages", files);
    const first = await skipped("skip-pages", "?reason=vendored&limit=2");
    expect(first).toMatchObject({ total: 5, offset: 0, nextOffset: 2, reason: "vendored" });
    expect(first.files.map((f) => f.path)).toEqual(["node_modules/p0/index.js", "node_modules/p1/index.js"]);
    const last = await skipped("skip-pages", "?reason=vendored&limit=2&offset=4");
    expect(last).toMatchObject({ nextOffset: null, files: [{ path: "node_modules/p4/index.js", reason: "vendored", rule: "dir:node_modules" }] });
    expect((await skipped("skip-pages")).total).toBe(6);
    const bad = await api("/api/repos/skip-pages/skipped?reason=nope");
    expect(bad.status).toBe(400);
    expect((await api("/api/repos/no-such-repo/skipped")).status).toBe(404);
    // The MCP status tool points at the listing.
    const status = await call(await connect(), "get_index_status", { repo: "skip-pages" });
    expect(text(status)).toMatch(/Skipped files with path, reason and rule: GET \/api\/repos\/skip-pages\/skipped\?reason=/);
  });
});
