/**
 * Entry names with a newline, tab, ESC, bidi override or line separator
 * (test/fixtures/hostile-archives.ts UNSAFE_NAMES) never reach the index, from an uploaded
 * archive or a git tree: each is skipped as `unsafe_path` and listed escaped, one line per file.
 */
import { describe, expect, it } from "vitest";
import { GOOD_TREE, UNSAFE_NAMES } from "../fixtures/hostile-archives";
import { api } from "../helpers";
import { indexDb, registerAndWait, repoStatus, uploadFilesAndWait } from "./ingest-helpers";
import { createUpstream, pushCommit } from "./upstream";

const UNSAFE_CHAR = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

async function expectSkippedEscaped(repo: string): Promise<void> {
  const status = await repoStatus(repo);
  expect(status.skipped).toMatchObject({ unsafe_path: Object.keys(UNSAFE_NAMES).length });
  const res = await api(`/api/repos/${repo}/skipped?reason=unsafe_path&limit=100`);
  expect(res.status).toBe(200);
  const page = (await res.json()) as { files: { path: string; reason: string; rule: string }[] };
  expect(page.files.map((f) => f.path).sort()).toEqual(Object.values(UNSAFE_NAMES).sort());
  for (const f of page.files) {
    expect(f.path).not.toMatch(UNSAFE_CHAR);
    expect(f.rule).toMatch(/^path:(control-char|bidi-control|line-separator)$/);
  }
  // Nothing with such a character is stored: files, chunks, skipped rows.
  for (const sql of [
    "SELECT path FROM snapshot_files WHERE repo = ?",
    "SELECT path FROM chunks WHERE repo = ?",
    "SELECT path FROM skipped_files WHERE repo = ?",
  ]) {
    const { results } = await (await indexDb(repo)).prepare(sql).bind(repo).all<{ path: string }>();
    for (const r of results) expect(r.path).not.toMatch(UNSAFE_CHAR);
  }
  const { results } = await (await indexDb(repo)).prepare("SELECT path FROM snapshot_files WHERE repo = ? ORDER BY path").bind(repo).all<{ path: string }>();
  expect(results.map((r) => r.path)).toEqual(expect.arrayContaining(Object.keys(GOOD_TREE)));
}

describe("unsafe entry names", () => {
  it("an uploaded archive: skipped as unsafe_path, listed escaped, the rest indexed", async () => {
    const files = { ...GOOD_TREE, ...Object.fromEntries(Object.keys(UNSAFE_NAMES).map((n) => [n, "export const evil = 1;\n"])) };
    await uploadFilesAndWait("unsafe-archive", files);
    await expectSkippedEscaped("unsafe-archive");
  });

  it("a git tree: the same", async () => {
    const up = await createUpstream("unsafe-names");
    await pushCommit("unsafe-names", { ...GOOD_TREE, ...Object.fromEntries(Object.keys(UNSAFE_NAMES).map((n) => [n, "export const evil = 1;\n"])) });
    const s = await registerAndWait({ url: up.url, name: "unsafe-names" });
    expect(s.status, s.lastError ?? "").toBe("ready");
    await expectSkippedEscaped(s.id);
  });
});
