/**
 * C++ naming rules of c-family.ts: out-of-class members of class templates, constructors and
 * destructors defined outside their class, specializations, operators; and lone macro lines
 * (`FMT_BEGIN_NAMESPACE`) that C++ text is parsed without. Runs in workerd.
 */
import { describe, expect, it } from "vitest";
import { chunkFile } from "./index";
import { expectWellFormed } from "./test-helpers";

const MEMBERS = [
  "template <typename Char>",
  "FMT_CONSTEXPR void parse_context<Char>::do_check_arg_id(int arg_id) {",
  "  check(arg_id);",
  "}",
  "",
  "template <typename T>",
  "auto outer<inner<T>>::nested::get() const -> T {",
  "  return value_;",
  "}",
  "",
  "template <typename T>",
  "auto vec<T>::operator<<(const T& v) -> vec& {",
  "  push(v);",
  "  return *this;",
  "}",
  "",
  "bool operator <(const point& a, const point& b) { return a.x < b.x; }",
  "",
  "file::file(cstring_view path, int oflag) {",
  "  fd_ = open(path.c_str(), oflag);",
  "}",
  "",
  "file::~file() noexcept {",
  "  close(fd_);",
  "}",
  "",
  "template <> struct formatter<point> {",
  "  auto parse(parse_context<>& ctx) { return ctx.begin(); }",
  "};",
  "",
].join("\n");

describe("C++ names", () => {
  it("names an out-of-class member after itself, its class (template arguments dropped) as container", async () => {
    const out = await chunkFile("src/members.cc", MEMBERS);
    expectWellFormed(MEMBERS, out);
    expect(out.symbols.map((s) => [s.kind, s.name, s.container, s.startLine])).toEqual([
      ["method", "do_check_arg_id", "parse_context", 1],
      ["method", "get", "outer::nested", 6],
      ["method", "operator<<", "vec", 11],
      ["function", "operator<", undefined, 17],
      ["constructor", "file", "file", 19],
      ["method", "~file", "file", 23],
      ["struct", "formatter", undefined, 27],
      ["method", "parse", "formatter", 28],
    ]);
    // Signatures keep the text as written.
    expect(out.symbols.map((s) => s.signature)).toEqual([
      "FMT_CONSTEXPR void parse_context<Char>::do_check_arg_id(int arg_id)",
      "auto outer<inner<T>>::nested::get() const -> T",
      "auto vec<T>::operator<<(const T& v) -> vec&",
      "bool operator <(const point& a, const point& b)",
      "file::file(cstring_view path, int oflag)",
      "file::~file() noexcept",
      "struct formatter<point>",
      "auto parse(parse_context<>& ctx)",
    ]);
    expect(out.chunks.map((c) => [c.kind, c.symbol, c.container])).toEqual(out.symbols.slice(0, 7).map((s) => [s.kind, s.name, s.container]));
  });

  it("makes the constructors of a specialization constructors", async () => {
    const text = "template <typename T> class iterator_buffer<T*, T> {\n public:\n  explicit iterator_buffer(T* out) : out_(out) {}\n  ~iterator_buffer() {}\n  T* out_;\n};\n";
    const out = await chunkFile("buf.hpp", text);
    expect(out.symbols.map((s) => [s.kind, s.name, s.container])).toEqual([
      ["class", "iterator_buffer", undefined],
      ["constructor", "iterator_buffer", "iterator_buffer"],
      ["method", "~iterator_buffer", "iterator_buffer"],
      ["field", "out_", "iterator_buffer"],
    ]);
  });
});

describe("C++ member declarations returning a reference or pointer", () => {
  it("are methods, not fields", async () => {
    const text = "class Str {\n public:\n  int& at(int i);\n  Str&& move();\n  static Str& instance();\n  char* data() const;\n  int& ref_;\n};\n";
    const out = await chunkFile("str.hpp", text);
    expect(out.symbols.map((s) => [s.kind, s.name])).toEqual([
      ["class", "Str"],
      ["method", "at"],
      ["method", "move"],
      ["method", "instance"],
      ["method", "data"],
      ["field", "ref_"],
    ]);
  });
});

describe("C++ lone macro lines", () => {
  const text = [
    "#include <vector>",
    "",
    "WIDGET_BEGIN_NAMESPACE",
    'WIDGET_PRAGMA_CLANG(diagnostic ignored "-Wshadow")',
    "namespace detail {",
    "template <typename T> struct node {",
    "  T value;",
    "};",
    "}  // namespace detail",
    "",
    "WIDGET_EXPORT",
    "/** A growable buffer. */",
    "template <typename T> class buffer {",
    " public:",
    "  void grow(size_t n);",
    "};",
    "",
    "enum code {",
    "  CODE_A,",
    "CODE_LAST",
    "};",
    "",
    "TEST_F(BufferTest, Grows)",
    "{",
    "  EXPECT_EQ(1, 1);",
    "}",
    "WIDGET_END_NAMESPACE",
    "",
  ].join("\n");

  it("parses the code around them as if they were not there, and keeps their lines in chunks", async () => {
    const out = await chunkFile("include/widget/buffer.h", text);
    expectWellFormed(text, out);
    expect(out.language).toBe("cpp");
    expect(out.symbols.map((s) => [s.kind, s.name, s.container, s.startLine])).toEqual([
      ["module", "detail", undefined, 5],
      ["struct", "node", "detail", 6],
      ["field", "value", "node", 7],
      ["class", "buffer", undefined, 13],
      ["method", "grow", "buffer", 15],
      ["enum", "code", undefined, 18],
      ["constant", "CODE_A", "code", 19],
      // Not a lone macro: the last constant of an enum (a `}` follows).
      ["constant", "CODE_LAST", "code", 20],
      // Not a lone macro: a body follows.
      ["function", "TEST_F", undefined, 23],
    ]);
    // A macro line right above a definition joins its chunk, like a comment; the doc is the real comment's.
    expect(out.chunks.find((c) => c.symbol === "buffer")).toMatchObject({ startLine: 11, endLine: 16 });
    expect(out.symbols.find((s) => s.name === "buffer")?.doc).toBe("A growable buffer.");
    // The chunk content is the file's own text, macros included.
    expect(out.chunks.find((c) => c.startLine <= 3 && c.endLine >= 3)?.content).toContain("WIDGET_BEGIN_NAMESPACE\nWIDGET_PRAGMA_CLANG(");
  });

  it("leaves C alone: the same lines in a .c file are parsed as written", async () => {
    const c = "MY_BEGIN_DECLS\nint f(void) {\n  return 0;\n}\n";
    const asC = await chunkFile("a.c", c);
    const asCpp = await chunkFile("a.cc", c);
    expect(asCpp.symbols.map((s) => [s.name, s.signature, s.startLine])).toEqual([["f", "int f(void)", 2]]);
    expect(asC.symbols.map((s) => [s.name, s.signature, s.startLine])).toEqual([["f", "MY_BEGIN_DECLS int f(void)", 1]]);
  });
});
