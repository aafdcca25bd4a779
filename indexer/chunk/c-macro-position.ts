/**
 * @module indexer/chunk/c-macro-position
 *
 * Where an unexpanded macro may sit in C and C++ (a declaration's start, after a class key,
 * after a parameter list) and whether the declaration still reads once it is gone. Pure
 * functions over the blanked text of c-code.ts; c-macros.ts decides what to blank with them.
 */
import { MAX_PAREN_SCAN_CHARS, nextChar, openParen, readPath, wordAt, wordBefore } from "./c-code";

/**
 * An object-like macro name: capitals, digits and `_`, at least 4 characters (so template
 * parameters `T`, `U`, `N` never qualify). All-caps types (`FILE`, `HANDLE`, `SSL_CTX`) have the
 * same shape; what follows them (`FILE *f`, `HANDLE h;`) tells them apart.
 */
export const MACRO_NAME = /(?<![\w$.]|::|->)[A-Z][A-Z0-9_]{3,}(?![\w$])/g;
export const MACRO_SHAPE = /^[A-Z][A-Z0-9_]{3,}$/;

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

export type Position = "declaration" | "class-name" | "after-params";

/**
 * Names the file declares as types, which are never blanked even where a macro could sit:
 * `typedef .. NAME;`, `} NAME;`, `struct NAME {`, `using NAME =`, template type parameters, and
 * `#define NAME <type>` (read from the original text, since `code` has no preprocessor lines).
 */
export function declaredTypes(text: string, code: string): Set<string> {
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
export function classNames(code: string): Set<string> {
  const names = new Set<string>();
  for (const m of code.matchAll(/\b(?:class|struct)\s+(?:[A-Z][A-Z0-9_]{3,}\s+)*([A-Za-z_]\w*)/g)) names.add(m[1]);
  return names;
}

/**
 * Whether the text at `at` can be the rest of a declaration once a macro in front of it is gone:
 * a destructor `~X`, a keyword (`void`, `static`, `class`), `Type name` (`Allocator alloc_`,
 * `std::string format(`, `T* data()`), or a constructor `X(` of a class the file defines.
 * A lone `name;` / `name(` / `*p` is not: the word before it was the type (`HANDLE h;`, `FILE *f`).
 */
export function declarationFollows(code: string, at: number, classes: Set<string>, depth = 0): boolean {
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
export function classNameFollows(code: string, at: number, depth = 0): boolean {
  const path = readPath(code, nextChar(code, at).i);
  if (!path) return false;
  const after = nextChar(code, path.end);
  if (after.c === "{" || (after.c === ":" && code[after.i + 1] !== ":")) return true;
  const w = wordAt(code, path.end);
  if (w.word === "final") return true;
  return depth < 4 && MACRO_SHAPE.test(code.slice(nextChar(code, at).i, path.end)) && classNameFollows(code, path.end, depth + 1);
}

/** After a parameter list: what may follow a trailing macro (`{`, `;`, `= 0`, `: init`, `const`, `override`, `->`). */
export function afterParamsFollows(code: string, at: number, depth = 0): boolean {
  const { c, i } = nextChar(code, at);
  if (c === "{" || c === ";" || c === "=") return code[i + 1] !== "=";
  if (c === ":") return code[i + 1] !== ":";
  if (c === "-") return code[i + 1] === ">";
  const w = wordAt(code, i);
  if (AFTER_PARAMS.has(w.word)) return true;
  return depth < 4 && MACRO_SHAPE.test(w.word) && afterParamsFollows(code, w.end, depth + 1);
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
export function positionOf(code: string, at: number, blanked: Map<number, Position>): Position | null {
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
