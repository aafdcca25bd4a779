/**
 * @module indexer/chunk/header-language
 *
 * `.h` is shared by C, C++ and Objective-C. The language of a header is read from its text
 * with GitHub linguist's content rules for `.h` (github-linguist/linguist:
 * lib/linguist/heuristics.yml, the `.h` disambiguation and its `objectivec` and `cpp` named
 * patterns): Objective-C if it matches the Objective-C patterns, else C++ if it matches the
 * C++ patterns, else C. There is no Objective-C grammar, so an Objective-C header stays C.
 */

/**
 * How much of a header is scanned. The rules match the first C++ construct, which sits near
 * the top of a real header (an include, a namespace, a template); the bound keeps the cost
 * flat on generated or amalgamated headers.
 */
export const HEADER_SCAN_CHARS = 64 * 1024;

/** linguist `objectivec`. */
const OBJECTIVE_C = /^\s*(@(interface|class|protocol|property|end|synchronised|selector|implementation)\b|#import\s+.+\.h[">])/m;

/**
 * linguist `cpp`, with Ruby's `^`/`$` as JavaScript's multiline anchors, and these changes:
 * linguist's `^[ \t]*(try|constexpr)` has no word boundary and would take a C line such as
 * `tryCount++;` for C++, so both words must end there; `public:` may end in `\r` (CRLF files);
 * `__cplusplus >` and `__has_cpp_attribute` are left out (C headers test them in their C++
 * compatibility blocks: glibc's `features.h`, `sys/cdefs.h`); and C++-only constructs linguist
 * does not list are added: more standard headers (`<memory>`, `<cstddef>`, `<utility>` ...),
 * `enum class`, `virtual`, `override`/`final` after a parameter list, operator definitions,
 * `= delete;`/`= default;` and `nullptr`. In {@link headerLanguage}, comments and
 * `#ifdef __cplusplus` blocks are not scanned.
 */
const CPP = new RegExp(
  [
    String.raw`^\s*#\s*include <(cstdint|cstddef|cstdlib|cstring|cstdio|cmath|cassert|climits|string|string_view|vector|map|set|list|deque|array|bitset|queue|stack|forward_list|unordered_map|unordered_set|(i|o|io|s|f)stream|memory|utility|algorithm|functional|optional|variant|any|tuple|type_traits|limits|iterator|numeric|initializer_list|mutex|thread|atomic|chrono|stdexcept|exception|new|cstdarg)>`,
    String.raw`^\s*template\s*<`,
    String.raw`^[ \t]*(try|constexpr)\b`,
    String.raw`^[ \t]*catch\s*\(`,
    String.raw`^[ \t]*(class|(using[ \t]+)?namespace)\s+\w+`,
    String.raw`^[ \t]*(private|public|protected):\r?$`,
    String.raw`^[ \t]*enum\s+class\b`,
    String.raw`^[ \t]*virtual\b`,
    String.raw`\)\s*(const\s*)?(override|final)\b`,
    String.raw`\boperator\s*(\(\)|\[\]|<<=?|>>=?|[-+*/%^&|~!=<>]=?|new|delete)\s*\(`,
    String.raw`=\s*(delete|default)\s*;`,
    String.raw`\bnullptr\b`,
    String.raw`std::\w+`,
  ].join("|"),
  "m",
);

/**
 * Grammar language of a `.h` file: `"cpp"` when its first {@link HEADER_SCAN_CHARS} characters
 * match linguist's C++ rules and not its Objective-C ones, else `"c"`.
 *
 * @example
 *   headerLanguage("namespace fmt {\ntemplate <typename T> class buffer;\n}") // "cpp"
 *   headerLanguage("#ifdef __cplusplus\nextern \"C\" {\n#endif\nint f(void);") // "c"
 */
export function headerLanguage(text: string): "c" | "cpp" {
  const head = text.length > HEADER_SCAN_CHARS ? text.slice(0, HEADER_SCAN_CHARS) : text;
  if (!CPP.test(head)) return "c"; // most C headers stop here, before comments are removed
  const code = withoutCppBlocks(withoutComments(head));
  return !OBJECTIVE_C.test(code) && CPP.test(code) ? "cpp" : "c";
}

/** A conditional that holds only when compiled as C++: `#ifdef __cplusplus`, `#if defined(__cplusplus) && ...`, `#if __cplusplus >= 201103L`. */
const IF_CPLUSPLUS = /^\s*#\s*(?:ifdef\s+__cplusplus\b|if\b[^\n]*\b__cplusplus\b)/;
const IF_ANY = /^\s*#\s*if/;
const ELSE_OR_ELIF = /^\s*#\s*(?:else|elif)\b/;
const ENDIF = /^\s*#\s*endif\b/;

/**
 * `code` without the lines of its `__cplusplus` conditionals (up to their `#else`, `#elif` or
 * `#endif`; nested conditionals inside are skipped with them): a C header's C++ compatibility
 * block (`extern "C" {`, a `template` overload) says nothing of the language the header is in.
 * Line breaks are kept.
 */
function withoutCppBlocks(code: string): string {
  const lines = code.split("\n");
  let depth = 0; // nesting inside a skipped block; 0 = not skipping
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (depth === 0) {
      if (IF_CPLUSPLUS.test(line)) {
        depth = 1;
        lines[i] = "";
      }
      continue;
    }
    if (IF_ANY.test(line)) depth++;
    else if (ENDIF.test(line)) depth--;
    else if (depth === 1 && ELSE_OR_ELIF.test(line)) depth = 0; // the C branch is kept
    lines[i] = "";
  }
  return lines.join("\n");
}

/** A string or character literal (kept), or a comment (dropped). */
const LITERAL_OR_COMMENT = /"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$)/g;

/**
 * `text` with its comments removed but their line breaks kept, so `^` still means a line
 * start. A C header that names `std::strtod` in a comment (hiredis's ffc.h, a C port of a C++
 * library) stays C.
 */
function withoutComments(text: string): string {
  return text.replace(LITERAL_OR_COMMENT, (m) => (m[0] === "/" ? m.replace(/[^\n]/g, "") : m));
}
