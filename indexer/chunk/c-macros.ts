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

import { closeParen, codeOnly, nextChar, openParen, skipAngles } from "./c-code";
import { afterParamsFollows, classNameFollows, classNames, declarationFollows, declaredTypes, MACRO_NAME, positionOf, type Position } from "./c-macro-position";

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
