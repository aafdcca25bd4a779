/**
 * C++ naming rules of c-family.ts: out-of-class members of class templates, constructors and
 * destructors defined outside their class, specializations, operators; and lone macro lines
 * (`FMT_BEGIN_NAMESPACE`) that C++ text is parsed without. Runs in workerd.
 */
import { describe, expect, it } from "vitest";
import { cFamilySpec, cppSpec } from "./c-family";
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
    const text =
      "template <typename T> class iterator_buffer<T*, T> {\n public:\n  explicit iterator_buffer(T* out) : out_(out) {}\n  ~iterator_buffer() {}\n  T* out_;\n};\n";
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

  it("reads a C macro line above a declaration as an attribute, not as a lone macro line", async () => {
    // C has no lone-macro rule; the attribute rule (c-macros.ts) blanks the name instead.
    const c = "MY_BEGIN_DECLS\nint f(void) {\n  return 0;\n}\n";
    const asC = await chunkFile("a.c", c);
    const asCpp = await chunkFile("a.cc", c);
    expect(asCpp.symbols.map((s) => [s.name, s.signature, s.startLine])).toEqual([["f", "int f(void)", 2]]);
    expect(asC.symbols.map((s) => [s.name, s.signature, s.startLine])).toEqual([["f", "int f(void)", 2]]);
    expect(asC.chunks.map((ch) => [ch.symbol, ch.startLine, ch.endLine])).toEqual([["f", 1, 4]]);
  });
});

describe("C and C++ attribute-like macros", () => {
  const CPP = [
    "class FMT_API format_error : public std::runtime_error {",
    " public:",
    "  using std::runtime_error::runtime_error;",
    "};",
    "",
    'class FMT_SO_VISIBILITY("default") system_error : public format_error {};',
    "",
    "template <typename T, typename Allocator = detail::allocator<T>>",
    "class basic_memory_buffer : public detail::buffer<T> {",
    " private:",
    "  FMT_NO_UNIQUE_ADDRESS Allocator alloc_;",
    "",
    " public:",
    "  FMT_CONSTEXPR20 explicit basic_memory_buffer(const Allocator& alloc = Allocator())",
    "      : alloc_(alloc) {}",
    "  FMT_CONSTEXPR20 ~basic_memory_buffer() { deallocate(); }",
    "  template <typename Alloc = Allocator,",
    "            FMT_ENABLE_IF(std::allocator_traits<Alloc>::",
    "                              propagate_on_container_move_assignment::value)>",
    "  FMT_CONSTEXPR20 auto move(basic_memory_buffer& other) -> bool { return true; }",
    "  static FMT_CONSTEXPR20 void grow(detail::buffer<T>& buf, size_t size) {}",
    "  auto size() const FMT_NOEXCEPT -> size_t { return size_; }",
    "  ABSL_MUST_USE_RESULT bool ok() const { return true; }",
    "};",
    "",
    "LLVM_ATTRIBUTE_ALWAYS_INLINE int twice(int x) { return 2 * x; }",
    "",
    "void flush() FMT_NOEXCEPT {",
    "  ASSERT(buffer_);",
    "  if (full()) FLUSH_ALL;",
    "}",
    "",
    "class Q_CORE_EXPORT QString {",
    "  int d;",
    "};",
    "",
  ].join("\n");

  it("parses C++ declarations as if the macros were not there; signatures and chunks keep them", async () => {
    const out = await chunkFile("include/fmt/format.h", CPP);
    expectWellFormed(CPP, out);
    expect(out.symbols.map((s) => [s.kind, s.name, s.container, s.startLine])).toEqual([
      ["class", "format_error", undefined, 1],
      ["class", "system_error", undefined, 6],
      ["class", "basic_memory_buffer", undefined, 8],
      ["field", "alloc_", "basic_memory_buffer", 11],
      ["constructor", "basic_memory_buffer", "basic_memory_buffer", 14],
      ["method", "~basic_memory_buffer", "basic_memory_buffer", 16],
      ["method", "move", "basic_memory_buffer", 17],
      ["method", "grow", "basic_memory_buffer", 21],
      ["method", "size", "basic_memory_buffer", 22],
      ["method", "ok", "basic_memory_buffer", 23],
      ["function", "twice", undefined, 26],
      ["function", "flush", undefined, 28],
      ["class", "QString", undefined, 33],
      ["field", "d", "QString", 34],
    ]);
    const sig = (name: string) => out.symbols.find((s) => s.name === name)?.signature;
    expect(sig("format_error")).toBe("class FMT_API format_error : public std::runtime_error");
    expect(sig("alloc_")).toBe("FMT_NO_UNIQUE_ADDRESS Allocator alloc_;");
    expect(sig("~basic_memory_buffer")).toBe("FMT_CONSTEXPR20 ~basic_memory_buffer()");
    expect(sig("twice")).toBe("LLVM_ATTRIBUTE_ALWAYS_INLINE int twice(int x)");
    expect(sig("flush")).toBe("void flush() FMT_NOEXCEPT");
    expect(out.chunks.find((c) => c.symbol === "basic_memory_buffer")?.content).toContain("FMT_NO_UNIQUE_ADDRESS Allocator alloc_;");
  });

  it("blanks C attribute macros (`static REDIS_INLINE int`) and leaves types, enum constants and macro definitions", async () => {
    const text = [
      "#define REDIS_INLINE inline",
      "typedef struct redisCtx REDIS_CTX;",
      "enum { MODE_FAST = 1, MODE_SLOW };",
      "",
      "static REDIS_INLINE int redisIsFast(REDIS_CTX *c) {",
      "  FILE *f;",
      "  HANDLE h;",
      "  REDIS_CTX ctx;",
      "  int mode = MODE_FAST;",
      "  ASSERT(c != NULL);",
      "  return mode;",
      "}",
      "",
    ].join("\n");
    const out = await chunkFile("hiredis.c", text);
    expectWellFormed(text, out);
    expect(out.symbols.map((s) => [s.kind, s.name, s.startLine, s.signature])).toEqual([
      ["type", "REDIS_CTX", 2, "typedef struct redisCtx REDIS_CTX;"],
      ["constant", "MODE_FAST", 3, "MODE_FAST = 1"],
      ["constant", "MODE_SLOW", 3, "MODE_SLOW"],
      ["function", "redisIsFast", 5, "static REDIS_INLINE int redisIsFast(REDIS_CTX *c)"],
    ]);
    const parsed = cFamilySpec.parseTexts!(text)[0].split("\n");
    expect(parsed[0]).toBe("#define REDIS_INLINE inline");
    expect(parsed[4]).toBe("static              int redisIsFast(REDIS_CTX *c) {");
    expect(parsed.slice(5, 10)).toEqual(text.split("\n").slice(5, 10));
  });

  it("keeps every offset: the parsed text has the file's length and newlines", () => {
    const parsed = cppSpec.parseTexts!(CPP)[0];
    expect(parsed.length).toBe(CPP.length);
    expect(parsed.split("\n").length).toBe(CPP.split("\n").length);
    expect(parsed).toContain("ASSERT(buffer_);");
    expect(parsed).toContain("if (full()) FLUSH_ALL;");
    expect(parsed).toContain(`class ${" ".repeat("Q_CORE_EXPORT".length)} QString {`);
  });
});
