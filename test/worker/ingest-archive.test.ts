/**
 * Archive uploads that must be refused before anything changes (empty archives, gzip data
 * without a tar, racing uploads), and the top-folder rule (`?strip=`), through the REST API.
 */
import { env, SELF } from "cloudflare:test";
import { gzipSync, strToU8, zipSync } from "fflate";
import { packTar } from "modern-tar";
import { describe, expect, it } from "vitest";
import { hostileArchives } from "../fixtures/hostile-archives";
import { adminHeaders, api } from "../helpers";
import { indexShape, waitForJob } from "./ingest-helpers";

type UploadBody = { repo?: { id: string }; job?: { id: string }; error?: { code: string; message: string } };

async function upload(id: string, bytes: Uint8Array, query = "") {
  const res = await api(`/api/repos/${id}/archive${query}`, { method: "POST", body: bytes, headers: { "content-type": "application/gzip" } });
  return { status: res.status, body: (await res.json()) as UploadBody };
}

async function repoRowCount(id: string): Promise<number> {
  return (await env.DB.prepare("SELECT count(*) AS n FROM repos WHERE id = ?").bind(id).first<{ n: number }>())?.n ?? -1;
}

async function tarGz(files: Record<string, string>): Promise<Uint8Array> {
  const entries = Object.entries(files).map(([name, body]) => ({ header: { name, size: strToU8(body).length }, body }));
  return gzipSync(await packTar(entries));
}

const GOOD = { "README.md": "# hi\nwibblefrotz\n", "src/app.ts": "export function wibble() {\n  return 1;\n}\n" };

const BAD_UPLOADS: [string, () => Promise<Uint8Array> | Uint8Array, RegExp][] = [
  ["gzip of random bytes", () => gzipSync(Uint8Array.from({ length: 5000 }, (_, i) => (i * 7919 + 13) % 256)), /gzip data does not contain a tar archive/],
  ["gzip of a README", () => gzipSync(strToU8("# hi\nwibblefrotz\n")), /gzip data does not contain a tar archive/],
  ["a gzipped zip", () => gzipSync(zipSync({ "a.ts": strToU8("export {};\n") })), /gzip data does not contain a tar archive/],
  ["an empty tar.gz", () => gzipSync(new Uint8Array(10240)), /holds no files/],
  ["an empty zip", () => zipSync({}), /holds no files/],
];

describe("archive upload: refused before anything changes", () => {
  it.each(BAD_UPLOADS)("%s on a new id: 400 archive_invalid, no repo", async (_what, make, message) => {
    const id = `arc-new-${Math.random().toString(36).slice(2, 8)}`;
    const r = await upload(id, await make());
    expect(r.status).toBe(400);
    expect(r.body.error?.code).toBe("archive_invalid");
    expect(r.body.error?.message).toMatch(message);
    expect(await repoRowCount(id)).toBe(0);
  });

  it("on an existing repo, every bad upload leaves the snapshot, job and search as they were", async () => {
    const first = await upload("arc-keep", await tarGz(GOOD));
    expect(first.status, JSON.stringify(first.body)).toBe(202);
    const ready = await waitForJob("arc-keep", first.body.job!.id);
    expect(ready.status, ready.lastError ?? "").toBe("ready");
    const shape = await indexShape("arc-keep");
    expect(shape.snapshot.map((r) => r.path)).toEqual(["README.md", "src/app.ts"]);
    for (const [what, make] of BAD_UPLOADS) {
      const r = await upload("arc-keep", await make());
      expect(r.status, what).toBe(400);
    }
    const after = await waitForJob("arc-keep");
    expect(after.snapshot).toEqual(ready.snapshot);
    expect(after.job?.id).toBe(ready.job?.id);
    expect(await indexShape("arc-keep")).toEqual(shape);
    const search = await api("/api/search?q=wibblefrotz&repo=arc-keep");
    const hits = ((await search.json()) as { results: { path: string }[] }).results;
    expect(hits.map((h) => h.path)).toContain("README.md");
  });

  it("truncated, trailer-less or CRC-damaged archives, NUL names and duplicate paths: 400 archive_invalid, the previous snapshot keeps serving", async () => {
    const first = await upload("arc-intact", await tarGz(GOOD));
    const ready = await waitForJob("arc-intact", first.body.job!.id);
    expect(ready.status, ready.lastError ?? "").toBe("ready");
    const shape = await indexShape("arc-intact");
    for (const a of await hostileArchives()) {
      const r = await upload("arc-intact", a.bytes);
      expect(r.status, a.name).toBe(400);
      expect(r.body.error?.code, a.name).toBe("archive_invalid");
      expect(r.body.error?.message, a.name).toMatch(a.message);
    }
    const after = await waitForJob("arc-intact");
    expect(after.snapshot).toEqual(ready.snapshot);
    expect(after.job?.id).toBe(ready.job?.id);
    expect(await indexShape("arc-intact")).toEqual(shape);
    const hits = ((await (await api("/api/search?q=wibblefrotz&repo=arc-intact")).json()) as { results: { path: string }[] }).results;
    expect(hits.map((h) => h.path)).toContain("README.md");
  });

  it("an archive whose files are all filtered out is accepted and counts its skips", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
    const r = await upload("arc-png", gzipSync(await packTar([{ header: { name: "logo.png", size: png.length }, body: png }])));
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const s = await waitForJob("arc-png", r.body.job!.id);
    expect(s.status).toBe("ready");
    expect(s.skipped).toEqual({ binary: 1 });
  });

  it("concurrent uploads to one id: one 202, the others 409 index_not_ready, one job", async () => {
    const bytes = await tarGz(GOOD);
    // The first upload's body stays open until the others have answered, so they race it for sure.
    let release!: () => void;
    const held = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.subarray(0, 10));
        release = () => {
          controller.enqueue(bytes.subarray(10));
          controller.close();
        };
      },
    });
    const slow = SELF.fetch("http://localhost/api/repos/arc-race/archive", {
      method: "POST",
      body: held,
      headers: adminHeaders({ "content-type": "application/gzip" }),
      duplex: "half",
    } as RequestInit);
    // Probe with an empty archive (refused without side effects) until the coordinator answers
    // 409, i.e. it is reading the held upload. Without the guard the probes only ever get 400.
    let busy = false;
    for (let i = 0; i < 100 && !busy; i++) {
      busy = (await upload("arc-race", gzipSync(new Uint8Array(10240)))).status === 409;
      if (!busy) await new Promise((r) => setTimeout(r, 10));
    }
    const others = await Promise.all([upload("arc-race", bytes), upload("arc-race", bytes)]);
    release();
    const first = await slow;
    const firstBody = (await first.json()) as UploadBody;
    expect(first.status, JSON.stringify(firstBody)).toBe(202);
    for (const o of others) {
      expect(o.status, JSON.stringify(o.body)).toBe(409);
      expect(o.body.error?.code).toBe("index_not_ready");
    }
    const s = await waitForJob("arc-race", firstBody.job!.id);
    expect(s.status).toBe("ready");
    expect(s.job?.id).toBe(firstBody.job!.id);
  });
});

describe("archive upload: top folder", () => {
  const UNDER_SRC = { "src/日本語/ファイル.ts": "export const a = 1;\n", "src/a b#c?.ts": "export const b = 2;\n" };

  it("keeps a real folder that holds every file; ?strip=1 removes it on request", async () => {
    const bytes = await tarGz(UNDER_SRC);
    const kept = await upload("arc-src", bytes);
    expect(kept.status, JSON.stringify(kept.body)).toBe(202);
    await waitForJob("arc-src", kept.body.job!.id);
    const file = await api(`/api/repos/arc-src/files/${encodeURIComponent("src/a b#c?.ts")}`);
    expect(file.status).toBe(200);
    expect((await indexShape("arc-src")).snapshot.map((r) => r.path).sort()).toEqual(["src/a b#c?.ts", "src/日本語/ファイル.ts"]);

    const stripped = await upload("arc-src-strip", bytes, "?strip=1");
    expect(stripped.status, JSON.stringify(stripped.body)).toBe(202);
    await waitForJob("arc-src-strip", stripped.body.job!.id);
    expect((await indexShape("arc-src-strip")).snapshot.map((r) => r.path).sort()).toEqual(["a b#c?.ts", "日本語/ファイル.ts"]);
  });

  it("strips a <name>-<sha> wrapper by default, and rejects a bad strip value before creating the repo", async () => {
    const wrapped = await tarGz({ "owner-repo-0123abc/README.md": "# r\n", "owner-repo-0123abc/lib/x.py": "def x():\n    return 1\n" });
    const r = await upload("arc-wrap", wrapped);
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    await waitForJob("arc-wrap", r.body.job!.id);
    expect((await indexShape("arc-wrap")).snapshot.map((x) => x.path).sort()).toEqual(["README.md", "lib/x.py"]);
    for (const q of ["?strip=9", "?strip=abc", "?strip_components=-1"]) {
      const bad = await upload("arc-bad-strip", wrapped, q);
      expect(bad.status, q).toBe(400);
      expect(bad.body.error?.code).toBe("invalid_input");
      expect(bad.body.error?.message).toMatch(/^strip:/);
    }
    const deep = await upload("arc-bad-strip", wrapped, "?strip=2");
    expect(deep.body.error?.code).toBe("archive_invalid");
    expect(await repoRowCount("arc-bad-strip")).toBe(0);
  });
});
