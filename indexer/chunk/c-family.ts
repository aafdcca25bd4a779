/**
 * @module indexer/chunk/c-family
 *
 * Chunking rules for C and C++: names come from the declarator chain (`int *f(void)`,
 * `Polygon::area` with container `Polygon`, `parse_context<Char>::check` with container
 * `parse_context`, `file::file` a constructor); `#ifdef` guards, `extern "C"` and namespaces are
 * looked through; `template <..>` stays with its declaration; a function whose head
 * `#if`/`#else` split in two starts at the `#if`. Enumerators are `constant`
 * symbols inside the enum's chunk. C and C++ are parsed with attribute-like macros
 * (`class FMT_API format_error`, `FMT_CONSTEXPR20 void f()`) blanked, C++ also with lone macro
 * lines (`FMT_BEGIN_NAMESPACE`) commented out (c-macros.ts).
 */
import type { Node } from "web-tree-sitter";
import { blankAttributeMacros, commentOutLoneMacros } from "./c-macros";
import { fieldText, type Definition, type LanguageSpec, type ScopeContext } from "./spec";

const NAME_TYPES = new Set([
  "identifier",
  "field_identifier",
  "qualified_identifier",
  "destructor_name",
  "operator_name",
  "type_identifier",
  "template_function",
]);

/** The declared name and, for `A::b`, its qualifier. */
function declaratorName(node: Node): { name: string; container?: string } | null {
  let d: Node | null = node.childForFieldName("declarator");
  for (let depth = 0; d && depth < 8 && !NAME_TYPES.has(d.type); depth++) {
    d = d.childForFieldName("declarator") ?? d.namedChildren.find((c) => c && (NAME_TYPES.has(c.type) || c.type.endsWith("declarator"))) ?? null;
  }
  return d ? qualifiedName(d.text) : null;
}

/** `ns::Widget<T>::draw` -> name `draw`, container `ns::Widget` (template arguments dropped). */
function qualifiedName(raw: string): { name: string; container?: string } {
  const text = withoutTemplateArgs(raw);
  const i = text.lastIndexOf("::");
  return i < 0 ? { name: text } : { name: text.slice(i + 2), container: text.slice(0, i).replace(/^::/, "") || undefined };
}

/**
 * A qualified name without its template arguments, segment by segment (innermost `<..>` first):
 * `parse_context<Char>::do_check_arg_id` -> `parse_context::do_check_arg_id`,
 * `a<b<c>>::f` -> `a::f`, `swap<T>` -> `swap`. The `<` and `>` of an operator's own name stay
 * (`vec<T>::operator<<` -> `vec::operator<<`). A `<` left unbalanced (`a<(n > 2)>::f`) cuts the
 * name there. Class names are read the same way: a specialization
 * `struct formatter<weekday, Char>` is named `formatter` (its signature keeps the arguments).
 */
function withoutTemplateArgs(text: string): string {
  const op = text.search(/\boperator\b/);
  let head = op < 0 ? text : text.slice(0, op);
  for (let prev = ""; prev !== head;) {
    prev = head;
    head = head.replace(/<[^<>]*>/g, "");
  }
  const open = head.indexOf("<");
  if (open >= 0) return head.slice(0, open);
  // `operator <<` -> `operator<<`; `operator new`, `operator bool` keep their space.
  return op < 0
    ? head
    : head +
        text
          .slice(op)
          .replace(/\s+/g, " ")
          .replace(/ (?=\W)|(?<=\W) /g, "");
}

/** Whether a declaration declares a function: `f(..)`, behind `*`, `&` or `&&` too (`Str& append(..)`, whose reference declarator has no `declarator` field). */
function hasFunctionDeclarator(node: Node): boolean {
  let d: Node | null = node.childForFieldName("declarator");
  for (let depth = 0; d && depth < 8; depth++) {
    if (d.type === "function_declarator") return true;
    d = d.childForFieldName("declarator") ?? d.namedChildren.find((c) => c?.type.endsWith("declarator")) ?? null;
  }
  return false;
}

const BRANCH_OPENERS = new Set(["#if", "#ifdef", "#ifndef"]);
/** Siblings searched back from a recovered function for the first head of a split pair. */
const MAX_SPLIT_HEAD_SIBLINGS = 24;

/**
 * `#if A / void f(int a, int b) { .. / #else / void f(int a) { / #endif / ..body.. }`: the
 * parser wraps this in ERROR and recovers only the `#else` head as a function. Returns the
 * `#if` token above the first head when the siblings have exactly that shape (`#else`/`#elif`
 * right before the function, then a declarator of the same name, then the opener, with no
 * other directive or function between), else null.
 */
function splitHeadStart(node: Node): Node | null {
  if (node.type !== "function_definition" || node.parent?.type !== "ERROR") return null;
  const name = declaratorName(node)?.name;
  let s = node.previousSibling;
  if (!name || s?.type !== "preproc_call" || !/^#\s*(else|elif)\b/.test(s.text)) return null;
  let sawHead = false;
  for (let i = 0; i < MAX_SPLIT_HEAD_SIBLINGS && (s = s.previousSibling); i++) {
    if (BRANCH_OPENERS.has(s.type)) return sawHead ? s : null;
    if (s.type === "function_definition" || s.type.startsWith("preproc_")) return null;
    if (/^(function|pointer)_declarator$/.test(s.type)) sawHead ||= s.descendantsOfType("identifier")[0]?.text === name;
  }
  return null;
}

function define(node: Node, ctx: ScopeContext): Definition | null {
  switch (node.type) {
    case "function_definition": {
      const n = declaratorName(node);
      if (!n) return null;
      // `double Polygon::area() {..}` defines a method outside its class, `file::file(..)` a
      // constructor (`file::~file` is the method `~file`, like a destructor in the class).
      const kind = !n.container ? "function" : n.name === n.container.split("::").pop() ? "constructor" : "method";
      return { kind, name: n.name, node, container: n.container };
    }
    case "template_declaration": {
      const inner = node.namedChildren.filter(Boolean).pop() as Node | undefined;
      const def = inner ? define(inner, ctx) : null;
      return def ? { ...def, outer: node } : null;
    }
    case "struct_specifier":
    case "union_specifier":
    case "class_specifier":
    case "enum_specifier": {
      const body = node.childForFieldName("body");
      if (!body) return null;
      const kind = node.type === "class_specifier" ? "class" : node.type === "enum_specifier" ? "enum" : "struct";
      const n = qualifiedName(fieldText(node));
      return { kind, name: n.name, node, container: n.container, members: body, keepWhole: kind === "enum" };
    }
    case "type_definition": {
      const n = declaratorName(node);
      const type = node.childForFieldName("type");
      const body = type?.childForFieldName("body") ?? null;
      const kind = body && type?.type === "enum_specifier" ? "enum" : body ? "struct" : "type";
      return n ? { kind, name: n.name, node, members: body, keepWhole: kind === "enum" } : null;
    }
    case "field_declaration": {
      if (!ctx.inClass) return null;
      const n = declaratorName(node);
      if (!n) return null;
      return hasFunctionDeclarator(node) ? { kind: "method", name: n.name, node } : { kind: "field", name: n.name, node };
    }
    case "declaration": {
      // `struct S {..} s;` or a function prototype at file scope: prototypes are not definitions.
      if (ctx.inClass && hasFunctionDeclarator(node)) {
        const n = declaratorName(node);
        return n ? { kind: "method", name: n.name, node } : null;
      }
      return null;
    }
    case "enumerator":
      return { kind: "constant", name: fieldText(node), node, inHeader: true };
    case "namespace_definition":
      return { kind: "module", name: fieldText(node), node, members: node.childForFieldName("body"), transparent: true };
    case "linkage_specification":
      return { kind: "module", name: "", node, members: node.childForFieldName("body"), transparent: true, noSymbol: true };
    case "preproc_ifdef":
    case "preproc_if":
    case "preproc_else":
    case "preproc_elif":
      return { kind: "module", name: "", node, members: node, transparent: true, noSymbol: true };
    default:
      return null;
  }
}

/**
 * C, parsed with attribute-like macros (`static REDIS_INLINE int`) blanked (c-macros.ts), or as
 * written when that parses worse: a clean head can let the parser's recovery from an error in
 * the body swallow far more than the macro did.
 */
export const cFamilySpec: LanguageSpec = {
  define,
  isImport: (node) => node.type === "preproc_include" || node.type === "using_declaration",
  comments: new Set(["comment"]),
  headStart: splitHeadStart,
  parseTexts: (text) => [blankAttributeMacros(text), text],
};

/** C++: C's rules, with lone macro lines commented out in both texts parsed. */
export const cppSpec: LanguageSpec = {
  ...cFamilySpec,
  parseTexts(text) {
    const commented = commentOutLoneMacros(text);
    return [blankAttributeMacros(commented), commented];
  },
};
