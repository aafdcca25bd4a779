import { gzipSync, zipSync, strToU8 } from "fflate";
import { packTar, type TarEntry } from "modern-tar";
import { describe, expect, it } from "vitest";
import { CodeSearchError } from "../../kernel/errors";
import { readArchive } from "./archive";

const text = (b: Uint8Array) => new TextDecoder().decode(b);

async function tarGz(entries: TarEntry[]): Promise<Uint8Array> {
  return gzipSync(await packTar(entries));
}

async function rejection(p: Promise<unknown>): Promise<CodeSearchError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CodeSearchError);
  return err as CodeSearchError;
}

describe("readArchive: tar.gz", () => {
  it("reads files with modes, drops folders, strips a GitHub-style top folder", async () => {
    const bytes = await tarGz([
      { header: { name: "pax_global_header", type: "pax-global-header", size: 0, pax: { comment: "abc1234" } } },
      { header: { name: "honojs-hono-abc1234/", type: "directory", size: 0 } },
      { header: { name: "honojs-hono-abc1234/src/index.ts", size: 20, mode: 0o644 }, body: "export const a = 1;\n" },
      { header: { name: "honojs-hono-abc1234/bin/run.sh", size: 10, mode: 0o755 }, body: "echo hi\n\n\n" },
      { header: { name: "honojs-hono-abc1234/link", type: "symlink", size: 0, linkname: "src/index.ts" } },
    ]);
    const entries = await readArchive(bytes);
    expect(entries.map((e) => [e.path, e.mode, e.size])).toEqual([
      ["src/index.ts", "100644", 20],
      ["bin/run.sh", "100755", 10],
      ["link", "120000", 0],
    ]);
    expect(text(entries[0].bytes)).toBe("export const a = 1;\n");
  });

  it("keeps paths when there is no single top folder", async () => {
    const entries = await readArchive(
      await tarGz([
        { header: { name: "README.md", size: 3 }, body: "hi\n" },
        { header: { name: "./src/a.ts", size: 2 }, body: "a\n" },
      ]),
    );
    expect(entries.map((e) => e.path)).toEqual(["README.md", "src/a.ts"]);
  });

  it("returns files past maxFileBytes as metadata only", async () => {
    const big = "x".repeat(5000);
    const entries = await readArchive(
      await tarGz([
        { header: { name: "big.txt", size: big.length }, body: big },
        { header: { name: "small.txt", size: 2 }, body: "ok" },
      ]),
      { maxFileBytes: 4096 },
    );
    expect(entries.map((e) => ({ path: e.path, size: e.size, tooLarge: e.tooLarge ?? false, n: e.bytes.length }))).toEqual([
      { path: "big.txt", size: 5000, tooLarge: true, n: 0 },
      { path: "small.txt", size: 2, tooLarge: false, n: 2 },
    ]);
  });

  it("keeps a real top folder (src/) that every file sits in, unless strip=N asks", async () => {
    const bytes = await tarGz([
      { header: { name: "src/日本語/ファイル.ts", size: 2 }, body: "a\n" },
      { header: { name: "src/a b#c?.ts", size: 2 }, body: "b\n" },
    ]);
    expect((await readArchive(bytes)).map((e) => e.path)).toEqual(["src/日本語/ファイル.ts", "src/a b#c?.ts"]);
    expect((await readArchive(bytes, {}, 1)).map((e) => e.path)).toEqual(["日本語/ファイル.ts", "a b#c?.ts"]);
    expect((await readArchive(bytes, {}, 0)).map((e) => e.path)).toEqual(["src/日本語/ファイル.ts", "src/a b#c?.ts"]);
    const tooDeep = await rejection(readArchive(bytes, {}, 2));
    expect(tooDeep.code).toBe("archive_invalid");
    expect(tooDeep.message).toMatch(/strip=2 would remove the whole path of "src\/a b#c\?\.ts"/);
  });

  it("strips a project folder archived from its parent (it holds a project-root file), and strip=0 keeps it", async () => {
    const bytes = await tarGz([
      { header: { name: "corpus/package.json", size: 2 }, body: "{}" },
      { header: { name: "corpus/src/a.ts", size: 2 }, body: "a\n" },
    ]);
    expect((await readArchive(bytes)).map((e) => e.path)).toEqual(["package.json", "src/a.ts"]);
    expect((await readArchive(bytes, {}, 0)).map((e) => e.path)).toEqual(["corpus/package.json", "corpus/src/a.ts"]);
  });

  it.each([
    ["an empty tar.gz", async () => gzipSync(new Uint8Array(10240)), /holds no files/],
    ["an empty plain tar", async () => new Uint8Array(10240), /holds no files/],
    ["a tar.gz of folders only", () => tarGz([{ header: { name: "src/", type: "directory", size: 0 } }]), /holds no files/],
    [
      "gzip of random bytes",
      async () => gzipSync(Uint8Array.from({ length: 5000 }, (_, i) => (i * 7919 + 13) % 256)),
      /gzip data does not contain a tar archive/,
    ],
    ["gzip of a text file", async () => gzipSync(strToU8("# hi\nwibblefrotz\n")), /gzip data does not contain a tar archive/],
    ["a gzipped zip", async () => gzipSync(zipSync({ "a.ts": strToU8("export {};\n") })), /gzip data does not contain a tar archive/],
    ["an empty zip", async () => zipSync({}), /holds no files/],
    ["an empty body", async () => new Uint8Array(0), /body is empty/],
  ])("rejects %s with archive_invalid and a hint", async (_what, make, message) => {
    const err = await rejection(readArchive(await make()));
    expect(err.code).toBe("archive_invalid");
    expect(err.message).toMatch(message);
    expect(err.message).toMatch(/tar czf - -C <folder> \./);
  });

  it("also reads a plain (uncompressed) tar", async () => {
    const entries = await readArchive(await packTar([{ header: { name: "a.txt", size: 1 }, body: "a" }]));
    expect(entries.map((e) => e.path)).toEqual(["a.txt"]);
  });

  it.each([["../escape.txt"], ["repo/../../escape.txt"], ["/etc/passwd"], ["C:/Windows/win.ini"], ["..\\escape.txt"]])(
    "rejects the whole archive for the unsafe path %s",
    async (name) => {
      const bytes = await tarGz([
        { header: { name: "ok.txt", size: 2 }, body: "ok" },
        { header: { name, size: 4 }, body: "evil" },
      ]);
      const err = await rejection(readArchive(bytes));
      expect(err.code).toBe("archive_invalid");
      expect(err.message).toMatch(/unsafe entry path/);
    },
  );

  it("rejects too many entries", async () => {
    const entries: TarEntry[] = Array.from({ length: 11 }, (_, i) => ({ header: { name: `f${i}.txt`, size: 1 }, body: "x" }));
    const err = await rejection(readArchive(await tarGz(entries), { maxEntries: 10 }));
    expect(err.code).toBe("payload_too_large");
  });

  it("rejects a gzip bomb before expanding it all", async () => {
    const zeros = new Uint8Array(24 * 1024 * 1024);
    const bytes = await tarGz([{ header: { name: "zeros.bin", size: zeros.length }, body: zeros }]);
    expect(bytes.length).toBeLessThan(zeros.length / 250);
    const err = await rejection(readArchive(bytes));
    expect(err.code).toBe("archive_invalid");
    expect(err.message).toMatch(/decompression bomb/);
  });

  it("rejects an archive that expands past maxTotalBytes", async () => {
    const body = "y".repeat(3000);
    const bytes = await tarGz([1, 2, 3].map((i) => ({ header: { name: `f${i}.txt`, size: body.length }, body })));
    const err = await rejection(readArchive(bytes, { maxTotalBytes: 8000 }));
    expect(err.code).toBe("payload_too_large");
  });

  it("rejects corrupt gzip and unknown formats with archive_invalid", async () => {
    const good = await tarGz([{ header: { name: "a.txt", size: 1 }, body: "a" }]);
    const truncated = good.slice(0, 20);
    expect((await rejection(readArchive(truncated))).code).toBe("archive_invalid");
    expect((await rejection(readArchive(strToU8("just some text, not an archive")))).code).toBe("archive_invalid");
  });
});

describe("readArchive: zip", () => {
  it("reads files, drops folders and strips a top folder that holds a project-root file", async () => {
    const bytes = zipSync({ "proj/": new Uint8Array(0), "proj/src/a.ts": strToU8("export {};\n"), "proj/.gitignore": strToU8("dist/\n") });
    const entries = await readArchive(bytes);
    expect(entries.map((e) => [e.path, e.mode, text(e.bytes)])).toEqual([
      ["src/a.ts", "100644", "export {};\n"],
      [".gitignore", "100644", "dist/\n"],
    ]);
    // A zip of a real folder keeps it.
    const docs = await readArchive(zipSync({ "docs/README.md": strToU8("# d\n"), "docs/guide.md": strToU8("# g\n") }));
    expect(docs.map((e) => e.path)).toEqual(["docs/README.md", "docs/guide.md"]);
  });

  it("rejects `../` entries", async () => {
    const err = await rejection(readArchive(zipSync({ "ok.txt": strToU8("ok"), "../evil.txt": strToU8("evil") })));
    expect(err.code).toBe("archive_invalid");
  });

  it("rejects a zip bomb without inflating it", async () => {
    const bytes = zipSync({ "bomb.txt": new Uint8Array(32 * 1024 * 1024) }, { level: 9 });
    expect(bytes.length).toBeLessThan(100_000);
    const err = await rejection(readArchive(bytes));
    expect(err.code).toBe("archive_invalid");
    expect(err.message).toMatch(/decompression bomb/);
  });

  it("rejects too many entries", async () => {
    const files = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`f${i}.txt`, strToU8("x")]));
    expect((await rejection(readArchive(zipSync(files), { maxEntries: 5 }))).code).toBe("payload_too_large");
  });

  it("returns large entries as metadata only", async () => {
    const entries = await readArchive(zipSync({ "big.txt": strToU8("z".repeat(3000)), "a.txt": strToU8("a") }), { maxFileBytes: 1000 });
    expect(entries.map((e) => [e.path, e.size, e.tooLarge ?? false, e.bytes.length])).toEqual([
      ["big.txt", 3000, true, 0],
      ["a.txt", 1, false, 1],
    ]);
  });
});
