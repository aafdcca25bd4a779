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
 * linguist `cpp`, with Ruby's `^`/`$` as JavaScript's multiline anchors. Two changes: linguist's
 * `^[ \t]*(try|constexpr)` has no word boundary and would take a C line such as `tryCount++;`
 * for C++, so both words must end there; `public:` may end in `\r` (CRLF files). A third
 * difference is in {@link headerLanguage}: comments are not scanned.
 */
const CPP = new RegExp(
  [
    String.raw`^\s*#\s*include <(cstdint|string|vector|map|list|array|bitset|queue|stack|forward_list|unordered_map|unordered_set|(i|o|io)stream)>`,
    String.raw`^\s*template\s*<`,
    String.raw`^[ \t]*(try|constexpr)\b`,
    String.raw`^[ \t]*catch\s*\(`,
    String.raw`^[ \t]*(class|(using[ \t]+)?namespace)\s+\w+`,
    String.raw`^[ \t]*(private|public|protected):\r?$`,
    String.raw`__has_cpp_attribute|__cplusplus >`,
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
  const code = withoutComments(head);
  return !OBJECTIVE_C.test(code) && CPP.test(code) ? "cpp" : "c";
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
