/**
 * The language stored for a file is the one its chunks were parsed with: a C++ header named
 * `.h` is `cpp` in the tree, the file view, search results and the `language` filter; a C
 * header stays `c`. Through an archive upload and the REST API.
 */
import { describe, expect, it } from "vitest";
import { api } from "../helpers";
import { uploadFilesAndWait } from "./ingest-helpers";

const FILES: Record<string, string> = {
  "include/widget/buffer.h": [
    "#pragma once",
    "#include <vector>",
    "",
    "namespace widget {",
    "/** A growable buffer of frobnicated cells. */",
    "template <typename T> class buffer {",
    " public:",
    "  void grow(size_t n);",
    "};",
    "",
    "template <typename T> void buffer<T>::grow(size_t n) {",
    "  cells_.reserve(n);  // frobnicate",
    "}",
    "}  // namespace widget",
    "",
  ].join("\n"),
  "src/conn.h": [
    "#ifdef __cplusplus",
    'extern "C" {',
    "#endif",
    "/* Opens a frobnicated connection; not std::thread safe. */",
    "int conn_open(const char *host);",
    "typedef struct conn { int fd; } conn;",
    "#ifdef __cplusplus",
    "}",
    "#endif",
    "",
  ].join("\n"),
};

async function json(path: string): Promise<any> {
  return (await api(path)).json();
}

describe("language of .h headers", () => {
  it("stores a C++ .h as cpp and a C .h as c, for the tree, files, symbols and the search filter", async () => {
    await uploadFilesAndWait("lang-h", FILES);
    const tree = await json("/api/repos/lang-h/tree");
    expect(tree.files.map((f: { path: string; language: string }) => [f.path, f.language])).toEqual([
      ["include/widget/buffer.h", "cpp"],
      ["src/conn.h", "c"],
    ]);
    expect((await json("/api/repos/lang-h/files/include/widget/buffer.h?start=1&end=1")).language).toBe("cpp");

    const grow = await json("/api/repos/lang-h/symbols?name=grow");
    expect(grow.symbols.map((s: { path: string; kind: string; container: string; startLine: number }) => [s.path, s.kind, s.container, s.startLine])).toEqual([
      ["include/widget/buffer.h", "method", "buffer", 8],
      ["include/widget/buffer.h", "method", "buffer", 11],
    ]);

    const paths = async (language: string) =>
      ((await json(`/api/search?q=frobnicated&repo=lang-h&language=${language}`)).results as { path: string; language: string }[]).map((r) => [
        r.path,
        r.language,
      ]);
    const cpp = await paths("cpp");
    expect(cpp.length).toBeGreaterThan(0);
    expect(new Set(cpp.map(([p, l]) => `${p} ${l}`))).toEqual(new Set(["include/widget/buffer.h cpp"]));
    expect(new Set((await paths("c")).map(([p, l]) => `${p} ${l}`))).toEqual(new Set(["src/conn.h c"]));
  });
});
