/**
 * C++ naming rules of c-family.ts: out-of-class members of class templates, constructors and
 * destructors defined outside their class, specializations, operators. Runs in workerd.
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
