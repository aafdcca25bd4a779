/**
 * The language of a `.h` file from its text (linguist's rules, header-language.ts), and that the
 * chunker records the detected language, not the extension's.
 */
import { describe, expect, it } from "vitest";
import { HEADER_SCAN_CHARS, headerLanguage } from "./header-language";
import { chunkFile, detectLanguage } from "./index";
import { expectWellFormed } from "./test-helpers";

const C_HEADER = [
  '/* Parses numbers like std::strtod in the "C" locale, without std::locale. */',
  "#ifndef CONN_H",
  "#define CONN_H",
  "#include <stddef.h>",
  "#ifdef __cplusplus",
  'extern "C" {',
  "#endif",
  "// class of a connection, see namespace docs",
  "typedef struct conn { int fd; } conn;",
  "int conn_open(conn *c, const char *host);",
  "#ifdef __cplusplus",
  "}",
  "#endif",
  "#endif",
  "",
].join("\n");

describe("headerLanguage", () => {
  it.each([
    ["an include of <vector>", "#pragma once\n#include <vector>\nint f(void);\n"],
    ["an include of <iostream> with spaces", "#  include <iostream>\n"],
    ["a template", "template <typename T>\nT max(T a, T b);\n"],
    ["a namespace", "namespace fmt {\nint f();\n}\n"],
    ["a using-namespace", "using namespace std;\n"],
    ["a class", "class Widget {\n  int x;\n};\n"],
    ["an access label", "struct S {\npublic:\n  int x;\n};\n"],
    ["an access label in a CRLF file", "struct S {\r\nprivate:\r\n  int x;\r\n};\r\n"],
    ["std:: in code", "typedef std::size_t size_type;\n"],
    ["constexpr", "constexpr int N = 3;\n"],
    ["enum class", "enum class Color { Red, Green };\n"],
    ["virtual and override", "struct Painter {\n  virtual ~Painter();\n  void draw() const override;\n};\n"],
    ["an operator and = delete", "struct Vec2 {\n  Vec2(const Vec2&) = delete;\n  float operator[](int i) const;\n};\n"],
    ["an include of <memory>", "#include <memory>\nstruct S;\n"],
    ["C++ outside a __cplusplus block", '#ifdef __cplusplus\nextern "C" {\n#endif\n#ifdef __cplusplus\n}\n#endif\nnamespace late {}\n'],
  ])("reads %s as C++", (_what, text) => {
    expect(headerLanguage(text)).toBe("cpp");
  });

  it.each([
    ['a C header with extern "C" and C++ words only in comments', C_HEADER],
    ["a C line starting with try", "static int tryCount;\nvoid f(void) {\n  tryCount++;\n}\n"],
    ["std:: only in a block comment across lines", "/*\n * see std::vector\n * class Foo\n */\nint f(void);\n"],
    ["an Objective-C header, even with C++ words", "#import <Foundation/Foundation.h>\n@interface Widget : NSObject\n@end\nclass X;\n"],
    ["an empty header", ""],
    [
      "__cplusplus compared with a version (a C header's compatibility check)",
      "#if __cplusplus > 201703L\n#define NODISCARD [[nodiscard]]\n#endif\nint f(void);\n",
    ],
    [
      "C++ overloads in a __cplusplus block, the C branch after #else",
      "#if defined(__cplusplus) && __cplusplus >= 201103L\n#if 1\ntemplate <typename T> T g(T);\n#endif\nnamespace x {}\n#else\nint g(int);\n#endif\nint f(void);\n",
    ],
  ])("reads %s as C", (_what, text) => {
    expect(headerLanguage(text)).toBe("c");
  });

  it("keeps string literals: a // inside one does not hide the code after it", () => {
    expect(headerLanguage('static const char *url = "http://x";\nnamespace a {}\n')).toBe("cpp");
  });

  it("scans only the first HEADER_SCAN_CHARS characters", () => {
    const pad = `/* ${"x".repeat(HEADER_SCAN_CHARS)} */\n`;
    expect(headerLanguage(`${pad}namespace late {}\n`)).toBe("c");
    expect(headerLanguage(`namespace early {}\n${pad}`)).toBe("cpp");
  });
});

describe("detectLanguage for .h", () => {
  it("uses the text when given, the extension otherwise", () => {
    expect(detectLanguage("include/fmt/format.h", "namespace fmt {}\n")).toBe("cpp");
    expect(detectLanguage("include/FMT/FORMAT.H", "namespace fmt {}\n")).toBe("cpp");
    expect(detectLanguage("include/fmt/format.h")).toBe("c");
    expect(detectLanguage("conn.h", C_HEADER)).toBe("c");
    // Only .h is ambiguous.
    expect(detectLanguage("a.c", "namespace fmt {}\n")).toBe("c");
    expect(detectLanguage("a.hpp", "int f(void);\n")).toBe("cpp");
  });

  it("chunks a C++ .h with the C++ grammar and records cpp; a C .h stays c", async () => {
    const cpp = "namespace geo {\ntemplate <typename T> class box {\n public:\n  T area() const { return w * h; }\n  T w, h;\n};\n}  // namespace geo\n";
    const out = await chunkFile("include/geo/box.h", cpp);
    expectWellFormed(cpp, out);
    expect(out.language).toBe("cpp");
    expect(out.symbols.map((s) => [s.kind, s.name, s.container])).toEqual([
      ["module", "geo", undefined],
      ["class", "box", "geo"],
      ["method", "area", "box"],
      ["field", "w", "box"],
    ]);
    const c = await chunkFile("conn.h", C_HEADER);
    expectWellFormed(C_HEADER, c);
    expect(c.language).toBe("c");
    expect(c.symbols.map((s) => [s.kind, s.name])).toEqual([
      ["struct", "conn"],
      ["field", "fd"],
    ]);
  });
});
