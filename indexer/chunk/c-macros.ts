/**
 * @module indexer/chunk/c-macros
 *
 * C and C++ text for the parser with unexpanded macros taken out of its way. tree-sitter does
 * not run the preprocessor, so a macro that expands to an attribute, an export or a specifier
 * (`FMT_CONSTEXPR20`, `class FMT_API format_error`, `static REDIS_INLINE int`,
 * `void f() FMT_NOEXCEPT {`) reads as a type or a name and breaks the declaration around it.
 * Every change here keeps each character's offset and line (only ASCII is replaced, by spaces or
 * a comment of the same length), so the tree's positions are the file's; chunks still hold the
 * file's own lines. Macro definition lines, comments and string literals are never touched.
 */

/**
 * A line that is only a macro at column 0: a name in capitals with an underscore, maybe called
 * with arguments on that line, no `;` (`FMT_BEGIN_NAMESPACE`, `FMT_END_EXPORT`,
 * `QT_BEGIN_NAMESPACE`, `FMT_PRAGMA_CLANG(diagnostic push)`, `Q_DECLARE_METATYPE(Foo)`).
 * Such macros expand to a namespace or export opener, a closer, an attribute or a pragma;
 * unexpanded, the parser glues them to the next declaration (`FMT_BEGIN_NAMESPACE namespace
 * detail {` reads as a function named `detail`).
 */
const LONE_MACRO_LINE = /^(?=[A-Z0-9_]*_)(?=[A-Z0-9_]*[A-Z])[A-Z_][A-Z0-9_]{3,}(?:\((?:[^()\n]|\([^()\n]*\))*\))?(?=[ \t]*(?:\/\/.*)?\r?$)/gm;

/** What follows a macro line that is not lone: a body (`TEST_F(A, b)\n{`) or the rest of a list (an enum's last constant). */
const CONTINUES = /^\s*[{}:;,]/;

/**
 * Each lone macro line (LONE_MACRO_LINE) becomes a comment of the same length (`/*` spaces
 * `*\/`), so its line joins the declaration below as a comment above it would. C++ only: C
 * headers open with such lines less often, and C's tree was left as it was.
 */
export function commentOutLoneMacros(text: string): string {
  return text.replace(LONE_MACRO_LINE, (m: string, at: number) => {
    const next = text.slice(at + m.length, at + m.length + 200).replace(/^[^\n]*/, "");
    return CONTINUES.test(next) ? m : comment(m.length);
  });
}

/** A block comment of exactly `length` (>= 4) characters. */
function comment(length: number): string {
  return `/*${" ".repeat(length - 4)}*/`;
}

/**
 * An object-like macro name: capitals, digits and `_`, at least 4 characters (so template
 * parameters `T`, `U`, `N` never qualify). All-caps types (`FILE`, `HANDLE`, `SSL_CTX`) have the
 * same shape; what follows them (`FILE *f`, `HANDLE h;`) tells them apart.
 */
const MACRO_NAME = /(?<![\w$.]|::|->)[A-Z][A-Z0-9_]{3,}(?![\w$])/g;
const MACRO_SHAPE = /^[A-Z][A-Z0-9_]{3,}$/;

/** Words that start a declaration's type or declarator: a name in front of one is not the type. */
const DECL_KEYWORDS = new Set([
  "void",
  "bool",
  "char",
  "char8_t",
  "char16_t",
  "char32_t",
  "wchar_t",
  "short",
  "int",
  "long",
  "float",
  "double",
  "signed",
  "unsigned",
  "auto",
  "static",
  "inline",
  "constexpr",
  "consteval",
  "constinit",
  "virtual",
  "explicit",
  "extern",
  "friend",
  "mutable",
  "thread_local",
  "register",
  "struct",
  "class",
  "union",
  "enum",
  "typename",
  "template",
  "operator",
  "_Bool",
  "__int128",
]);
const CV = new Set(["const", "volatile"]);
/** Specifiers after which a macro sits where a declaration's type would start. */
const SPECIFIERS = new Set([
  "static",
  "inline",
  "constexpr",
  "consteval",
  "constinit",
  "virtual",
  "explicit",
  "extern",
  "friend",
  "const",
  "volatile",
  "thread_local",
  "_Noreturn",
  "__inline",
  "__inline__",
]);
const CLASS_KEYS = new Set(["class", "struct", "union"]);
const ACCESS = new Set(["public", "private", "protected"]);
/** Words after a function's `)` that may come before or after a trailing attribute macro. */
const AFTER_PARAMS = new Set(["const", "volatile", "override", "final", "noexcept", "throw", "try", "requires"]);
/** Words whose `(..)` is not a parameter list (`if (x) FOO;`, `return (int) FOO_MAX;`). */
const NOT_A_DECLARATOR = new Set([
  "if",
  "while",
  "for",
  "switch",
  "return",
  "sizeof",
  "alignof",
  "decltype",
  "catch",
  "case",
  "else",
  "do",
  "throw",
  "co_return",
  "co_yield",
  "co_await",
  "new",
  "delete",
]);
/** How far back the `(` of a `)` is searched. */
const MAX_PAREN_SCAN_CHARS = 4000;

type Position = "declaration" | "class-name" | "after-params";

/**
 * The text with comments, string and character literals and preprocessor lines (continuation
 * lines included) replaced by spaces, newlines kept: what the macro rules read.
 */
function codeOnly(text: string): string {
  const out = text.split("");
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== "\n" && out[k] !== "\r") out[k] = " ";
  };
  let lineStart = true;
  for (let i = 0; i < text.length;) {
    const c = text[i];
    if (c === "\n") {
      lineStart = true;
      i++;
      continue;
    }
    if (c === " " || c === "\t" || c === "\r") {
      i++;
      continue;
    }
    let end = i + 1;
    if (c === "#" && lineStart) {
      while (end < text.length && !(text[end] === "\n" && text[end - 1] !== "\\" && !(text[end - 1] === "\r" && text[end - 2] === "\\"))) end++;
    } else if (c === "/" && text[i + 1] === "/") {
      while (end < text.length && !(text[end] === "\n" && text[end - 1] !== "\\")) end++;
    } else if (c === "/" && text[i + 1] === "*") {
      const close = text.indexOf("*/", i + 2);
      end = close < 0 ? text.length : close + 2;
    } else if (c === '"' && /R$/.test(text.slice(Math.max(0, i - 1), i)) && /^"[^\s()\\]{0,16}\(/.test(text.slice(i, i + 19))) {
      const delim = text.slice(i + 1, text.indexOf("(", i));
      const close = text.indexOf(`)${delim}"`, i);
      end = close < 0 ? text.length : close + delim.length + 2;
    } else if (c === '"' || (c === "'" && !/[0-9]/.test(text[i - 1] ?? ""))) {
      // A `'` right after a digit is a digit separator (`1'000`), not a character literal.
      while (end < text.length && text[end] !== c && text[end] !== "\n") end += text[end] === "\\" ? 2 : 1;
      end = Math.min(text.length, end + 1);
    } else {
      lineStart = false;
      i = end;
      continue;
    }
    blank(i, end);
    lineStart = false;
    i = end;
  }
  return out.join("");
}

/**
 * Names the file declares as types, which are never blanked even where a macro could sit:
 * `typedef .. NAME;`, `} NAME;`, `struct NAME {`, `using NAME =`, template type parameters, and
 * `#define NAME <type>` (read from the original text, since `code` has no preprocessor lines).
 */
function declaredTypes(text: string, code: string): Set<string> {
  const types = new Set<string>();
  const add = (re: RegExp, src: string) => {
    for (const m of src.matchAll(re)) types.add(m[1]);
  };
  add(/\btypedef\b[^;{}]*?\b([A-Z][A-Z0-9_]*)\s*(?:\[[^\]]*\]\s*)*;/g, code);
  add(/\(\s*\*\s*([A-Z][A-Z0-9_]*)\s*\)\s*\(/g, code);
  add(/\}\s*([A-Z][A-Z0-9_]*)\s*[;,]/g, code);
  add(/\b(?:class|struct|union|enum(?:\s+class)?)\s+([A-Z][A-Z0-9_]*)\s*(?:[{:;<]|final\b)/g, code);
  add(/\b(?:typename|class)\s+([A-Z][A-Z0-9_]*)\s*[,>=]/g, code);
  add(/\busing\s+([A-Z][A-Z0-9_]*)\s*=/g, code);
  add(
    /^[ \t]*#[ \t]*define[ \t]+([A-Z][A-Z0-9_]*)[ \t]+(?:(?:const|volatile|signed|unsigned|short|long|int|char|float|double|void|bool|_Bool|struct|union|enum|std::)\b|[A-Za-z_]\w*[ \t]*\*)/gm,
    text,
  );
  return types;
}

/** Class names the file defines (`class FMT_API format_error` -> `format_error`): a macro before `name(` there is a constructor's. */
function classNames(code: string): Set<string> {
  const names = new Set<string>();
  for (const m of code.matchAll(/\b(?:class|struct)\s+(?:[A-Z][A-Z0-9_]{3,}\s+)*([A-Za-z_]\w*)/g)) names.add(m[1]);
  return names;
}

/** The end of balanced `<..>` starting at `at` (a `<`), or -1; `(..)` inside is skipped whole. */
function skipAngles(code: string, at: number): number {
  let angles = 0;
  let parens = 0;
  for (let i = at; i < code.length && i < at + MAX_PAREN_SCAN_CHARS; i++) {
    const c = code[i];
    if (c === "(" || c === "[") parens++;
    else if (c === ")" || c === "]") parens--;
    else if (c === ";" || c === "{" || c === "}") return -1;
    else if (parens === 0 && c === "<") angles++;
    else if (parens === 0 && c === ">") {
      if (--angles === 0) return i + 1;
    }
  }
  return -1;
}

/** Reads `a::b<T>::c` at `at` (spaces allowed around `::`); returns its end and its last word. */
function readPath(code: string, at: number): { end: number; first: string } | null {
  const first = /^[A-Za-z_]\w*/.exec(code.slice(at, at + 200));
  if (!first) return null;
  let end = at + first[0].length;
  for (;;) {
    const ws = /^\s*/.exec(code.slice(end, end + 200))![0].length;
    if (code[end + ws] === "<") {
      const close = skipAngles(code, end + ws);
      if (close < 0) return { end, first: first[0] };
      end = close;
      continue;
    }
    const seg = /^\s*::\s*(?:template\s+)?[A-Za-z_~]\w*/.exec(code.slice(end, end + 200));
    if (!seg) return { end, first: first[0] };
    end += seg[0].length;
  }
}

/** The word at `at` (after spaces), with where it ends. */
function wordAt(code: string, at: number): { word: string; start: number; end: number } {
  const m = /^\s*([A-Za-z_]\w*)?/.exec(code.slice(at, at + 200))!;
  const start = at + m[0].length - (m[1]?.length ?? 0);
  return { word: m[1] ?? "", start, end: at + m[0].length };
}

/** The first non-space character at or after `at`, and its index. */
function nextChar(code: string, at: number): { c: string; i: number } {
  let i = at;
  while (i < code.length && /\s/.test(code[i])) i++;
  return { c: code[i] ?? "", i };
}

/**
 * Whether the text at `at` can be the rest of a declaration once a macro in front of it is gone:
 * a destructor `~X`, a keyword (`void`, `static`, `class`), `Type name` (`Allocator alloc_`,
 * `std::string format(`, `T* data()`), or a constructor `X(` of a class the file defines.
 * A lone `name;` / `name(` / `*p` is not: the word before it was the type (`HANDLE h;`, `FILE *f`).
 */
function declarationFollows(code: string, at: number, classes: Set<string>, depth = 0): boolean {
  const { c, i } = nextChar(code, at);
  if (c === "~") return true;
  const w = wordAt(code, i);
  if (!w.word) return false;
  if (DECL_KEYWORDS.has(w.word)) return true;
  if (CV.has(w.word)) return depth < 4 && declarationFollows(code, w.end, classes, depth + 1);
  const path = readPath(code, i);
  if (!path) return false;
  const after = nextChar(code, path.end);
  if (after.c === "(" && path.end === w.end && classes.has(w.word)) return true;
  let j = path.end;
  while (j < code.length && /[\s*&]/.test(code[j])) j++;
  return /[A-Za-z_]/.test(code[j] ?? "") && !CV.has(wordAt(code, j).word);
}

/** After `class`/`struct`/`union`: a macro is followed by the class name and its base list or body. */
function classNameFollows(code: string, at: number, depth = 0): boolean {
  const path = readPath(code, nextChar(code, at).i);
  if (!path) return false;
  const after = nextChar(code, path.end);
  if (after.c === "{" || (after.c === ":" && code[after.i + 1] !== ":")) return true;
  const w = wordAt(code, path.end);
  if (w.word === "final") return true;
  return depth < 4 && MACRO_SHAPE.test(code.slice(nextChar(code, at).i, path.end)) && classNameFollows(code, path.end, depth + 1);
}

/** After a parameter list: what may follow a trailing macro (`{`, `;`, `= 0`, `: init`, `const`, `override`, `->`). */
function afterParamsFollows(code: string, at: number, depth = 0): boolean {
  const { c, i } = nextChar(code, at);
  if (c === "{" || c === ";" || c === "=") return code[i + 1] !== "=";
  if (c === ":") return code[i + 1] !== ":";
  if (c === "-") return code[i + 1] === ">";
  const w = wordAt(code, i);
  if (AFTER_PARAMS.has(w.word)) return true;
  return depth < 4 && MACRO_SHAPE.test(w.word) && afterParamsFollows(code, w.end, depth + 1);
}

/** The index of the `(` matching the `)` at `close`, or -1. */
function openParen(code: string, close: number): number {
  let depth = 0;
  for (let i = close; i >= 0 && i > close - MAX_PAREN_SCAN_CHARS; i--) {
    if (code[i] === ")") depth++;
    else if (code[i] === "(" && --depth === 0) return i;
    else if (code[i] === ";" || code[i] === "{" || code[i] === "}") return -1;
  }
  return -1;
}

/** The index after the `)` matching the `(` at `open`, or -1. */
function closeParen(code: string, open: number): number {
  let depth = 0;
  for (let i = open; i < code.length && i < open + MAX_PAREN_SCAN_CHARS; i++) {
    if (code[i] === "(") depth++;
    else if (code[i] === ")" && --depth === 0) return i + 1;
    else if (code[i] === ";" || code[i] === "{" || code[i] === "}") return -1;
  }
  return -1;
}

/** Whether the `>` at `close` ends a `template <..>` head. */
function endsTemplateHead(code: string, close: number): boolean {
  let angles = 0;
  let parens = 0;
  for (let i = close; i >= 0 && i > close - MAX_PAREN_SCAN_CHARS; i--) {
    const c = code[i];
    if (c === ")" || c === "]") parens++;
    else if (c === "(" || c === "[") parens--;
    else if (c === ";" || c === "{" || c === "}") return false;
    else if (parens === 0 && c === ">") angles++;
    else if (parens === 0 && c === "<" && --angles === 0) return /\btemplate\s*$/.test(code.slice(Math.max(0, i - 40), i));
  }
  return false;
}

/**
 * Where a macro at `at` sits, from what comes before it: a declaration's start (line start,
 * after `;`, `{`, `}`, an access label, `template <..>` or a specifier), right after a class
 * key, or after a function's parameter list; null elsewhere (an expression, an argument).
 * `blanked` maps the start of each macro already taken out to its position, so a run of macros
 * (`FMT_API FMT_CONSTEXPR int f()`) shares the first one's.
 */
function positionOf(code: string, at: number, blanked: Map<number, Position>): Position | null {
  let i = at - 1;
  while (i >= 0 && (code[i] === " " || code[i] === "\t" || code[i] === "\r")) i--;
  if (i < 0 || code[i] === "\n") return "declaration";
  const c = code[i];
  if (c === ";" || c === "{" || c === "}") return "declaration";
  if (c === ">") return endsTemplateHead(code, i) ? "declaration" : null;
  if (c === ")") {
    const open = openParen(code, i);
    const before = open < 0 ? null : /(?:[A-Za-z_]\w*|\]|>|operator\s*\S{1,3})\s*$/.exec(code.slice(Math.max(0, open - 60), open));
    return before && !NOT_A_DECLARATOR.has(before[0].trim()) ? "after-params" : null;
  }
  if (c === "&") return /\)\s*&{1,2}$/.test(code.slice(Math.max(0, i - 40), i + 1)) ? "after-params" : null;
  if (c === ":") return ACCESS.has(wordBefore(code, i)) ? "declaration" : null;
  const m = /[A-Za-z_]\w*$/.exec(code.slice(Math.max(0, i - 60), i + 1));
  if (!m) return null;
  const word = m[0];
  const wordStart = i + 1 - word.length;
  if (blanked.has(wordStart)) return blanked.get(wordStart)!;
  if (CLASS_KEYS.has(word)) return "class-name";
  if (AFTER_PARAMS.has(word) && !CV.has(word)) return positionOf(code, wordStart, blanked) === "after-params" ? "after-params" : null;
  if (CV.has(word)) {
    const p = positionOf(code, wordStart, blanked);
    return p === "after-params" ? p : "declaration";
  }
  if (SPECIFIERS.has(word)) return "declaration";
  return null;
}

function wordBefore(code: string, end: number): string {
  return /([A-Za-z_]\w*)\s*$/.exec(code.slice(Math.max(0, end - 40), end))?.[1] ?? "";
}

/**
 * Object-like macros in attribute positions become spaces (a whole line of them a comment, so
 * the line joins the declaration below like a comment). A name qualifies when it has the
 * MACRO_NAME shape, is not declared as a type by the file, sits where a specifier or attribute
 * can (positionOf) and the declaration still reads once it is gone (declarationFollows,
 * classNameFollows, afterParamsFollows): `FMT_CONSTEXPR20 basic_memory_buffer(..)`,
 * `FMT_NO_UNIQUE_ADDRESS Allocator alloc_;`, `class FMT_API format_error : ..`,
 * `static REDIS_INLINE int f()`, `void f() FMT_NOEXCEPT {`. Never blanked: `FILE *f;`,
 * `HANDLE h;`, `ASSERT(x);`, `FOO::bar()`, `x = FOO_MAX;`, an enum's constants.
 */
function blankObjectMacros(out: string[], code: string, text: string): void {
  const types = declaredTypes(text, code);
  const classes = classNames(code);
  const blanked = new Map<number, Position>();
  for (const m of code.matchAll(MACRO_NAME)) {
    const at = m.index!;
    const name = m[0];
    if (types.has(name)) continue;
    const position = positionOf(code, at, blanked);
    let end = at + name.length;
    // `class FMT_SO_VISIBILITY("default") format_error : ..`: a called macro before a class name.
    const call = position === "class-name" ? nextChar(code, end) : null;
    if (call?.c === "(") end = closeParen(code, call.i);
    if (end < 0) continue;
    const fits =
      position === "declaration"
        ? declarationFollows(code, end, classes)
        : position === "class-name"
          ? classNameFollows(code, end)
          : position === "after-params"
            ? afterParamsFollows(code, end)
            : false;
    if (!fits) continue;
    blanked.set(at, position!);
    for (let k = at; k < end; k++) if (out[k] !== "\n" && out[k] !== "\r") out[k] = " ";
  }
  // A line left with only blanked macros joins the declaration below as a comment would.
  for (const at of blanked.keys()) {
    const lineStart = code.lastIndexOf("\n", at - 1) + 1;
    let lineEnd = code.indexOf("\n", at);
    if (lineEnd < 0) lineEnd = code.length;
    if (out.slice(lineStart, lineEnd).join("").trim() !== "" || code.slice(lineStart, lineEnd).trim() === "") continue;
    const first = lineStart + /^\s*/.exec(code.slice(lineStart, lineEnd))![0].length;
    const last = lineStart + code.slice(lineStart, lineEnd).trimEnd().length;
    if (last - first >= 4)
      comment(last - first)
        .split("")
        .forEach((ch, k) => (out[first + k] = ch));
  }
}

/**
 * Function-like macros that make up a whole template parameter, `template <typename T,
 * FMT_ENABLE_IF(std::is_integral<T>::value)>` (an `enable_if` default argument once expanded):
 * the call and the comma before it (after it, for the first parameter) become spaces. Its
 * argument's `>` and `::` are what broke the parse.
 */
function blankTemplateParamMacros(out: string[], code: string): void {
  for (const m of code.matchAll(/\btemplate\s*</g)) {
    const open = m.index! + m[0].length - 1;
    const close = skipAngles(code, open);
    if (close < 0) continue;
    // Split at commas outside (), [] and nested <>.
    const params: [number, number][] = [];
    let start = open + 1;
    let parens = 0;
    let angles = 0;
    for (let i = open + 1; i < close - 1; i++) {
      const c = code[i];
      if (c === "(" || c === "[") parens++;
      else if (c === ")" || c === "]") parens--;
      else if (parens === 0 && c === "<") angles++;
      else if (parens === 0 && c === ">") angles--;
      else if (parens === 0 && angles === 0 && c === ",") {
        params.push([start, i]);
        start = i + 1;
      }
    }
    params.push([start, close - 1]);
    params.forEach(([from, to], k) => {
      const param = code.slice(from, to);
      const call = /^\s*([A-Z][A-Z0-9_]{3,})\s*\(/.exec(param);
      if (!call || openParen(code, from + param.trimEnd().length - 1) !== from + call[0].length - 1) return;
      // The comma joins the blanked span: before the parameter, or after it when it is first.
      const [a, b] = k > 0 ? [from - 1, to] : params.length > 1 ? [from, to + 1] : [from, to];
      for (let i = a; i < b; i++) if (out[i] !== "\n" && out[i] !== "\r") out[i] = " ";
    });
  }
}

/**
 * C and C++ text for the parser with attribute-like macros blanked (see the module note): the
 * same length, the same newlines, the file's text everywhere else.
 *
 * @example
 *   blankAttributeMacros("class FMT_API format_error {};")
 *   // -> "class         format_error {};"
 */
export function blankAttributeMacros(text: string): string {
  if (!/[A-Z]{2}/.test(text)) return text;
  const code = codeOnly(text);
  const out = text.split("");
  blankTemplateParamMacros(out, code);
  blankObjectMacros(out, code, text);
  return out.join("");
}
