/**
 * @module worker/services/suggest-tests/fill-verify
 *
 * Checks a model-filled TypeScript/JavaScript test before it is returned (never executed): it
 * must parse with tree-sitter without ERROR or MISSING nodes, and every name it references that
 * the file does not define itself, that is not a builtin or test-framework global, and that is
 * not imported from a bare (outside-the-repo) specifier must be a symbol of the index. Member
 * calls are checked when their receiver chain starts at a local or in-repo name (`cart.total()`),
 * against the index and JS_BUILTIN_METHODS; chains from a global or an outside import
 * (`expect(x).toBe`) are not. Python (pytest/unittest), Go (testing) and Java (JUnit 5 +
 * Mockito) are checked by fill-verify-python.ts, -go.ts and -java.ts with the same rule. Pure apart from the parser; the index lookup is passed in.
 */
import type { Node } from "web-tree-sitter";
import "../../../indexer/chunk"; // registers the grammar loader getParser needs
import { getParser } from "../../../indexer/chunk/parser";
import type { GrammarLanguage } from "../../../indexer/chunk/languages";
import { collectGo } from "./fill-verify-go";
import { collectJava } from "./fill-verify-java";
import { collectPython } from "./fill-verify-python";

/** Globals of JavaScript, Node, TypeScript's utility types and vitest/jest/node:test. */
const JS_GLOBALS = new Set(
  (
    "undefined NaN Infinity globalThis console Math JSON Date Number String Boolean Symbol BigInt Object Array Map Set WeakMap WeakSet Promise " +
    "Error TypeError RangeError SyntaxError ReferenceError AggregateError RegExp Reflect Proxy Intl URL URLSearchParams TextEncoder TextDecoder " +
    "ArrayBuffer Uint8Array Int32Array Float64Array DataView structuredClone setTimeout clearTimeout setInterval clearInterval queueMicrotask " +
    "parseInt parseFloat isNaN isFinite encodeURIComponent decodeURIComponent fetch Request Response Headers AbortController crypto process Buffer " +
    "require module exports __dirname __filename arguments " +
    "Parameters ReturnType ConstructorParameters InstanceType Awaited Partial Required Readonly Record Pick Omit Exclude Extract NonNullable " +
    "PromiseLike Iterable ReadonlyArray unknown never any " +
    "describe it test expect vi jest beforeEach afterEach beforeAll afterAll suite assert"
  ).split(" "),
);

/** Methods of builtin values (arrays, strings, numbers, promises, maps, mocks, errors). */
const JS_BUILTIN_METHODS = new Set(
  (
    "map filter reduce forEach find findIndex some every includes indexOf join slice splice push pop shift unshift concat sort reverse flat flatMap " +
    "at fill keys values entries has get set add delete clear size length toString toFixed toPrecision toLocaleString valueOf trim split " +
    "startsWith endsWith replace replaceAll toUpperCase toLowerCase padStart padEnd repeat match matchAll then catch finally bind call apply " +
    "getTime toISOString mockReturnValue mockResolvedValue mockRejectedValue mockImplementation mockReturnValueOnce mockResolvedValueOnce " +
    "mockClear mockReset message name stack"
  ).split(" "),
);

/** A referenced name the index does not define, at its 1-based line of the filled test. */
export interface Unresolved {
  name: string;
  line: number;
}

/** What `verifyFilledTest` found: syntax errors (lines) or the unresolved names. */
export type FillCheck = { ok: true } | { ok: false; syntaxErrors: number[]; unresolved: Unresolved[] };

const DEF_PARENTS: Record<string, string> = {
  variable_declarator: "name",
  function_declaration: "name",
  class_declaration: "name",
  interface_declaration: "name",
  type_alias_declaration: "name",
  required_parameter: "pattern",
  optional_parameter: "pattern",
  catch_clause: "parameter",
};

/** Identifiers bound by a declaration pattern (`const {a, b: [c]} = ...`). */
function boundNames(n: Node | null, out: Set<string>): void {
  if (!n) return;
  if (n.type === "identifier" || n.type === "shorthand_property_identifier_pattern" || n.type === "type_identifier") out.add(n.text);
  for (const c of n.namedChildren) if (c && !(n.type === "pair_pattern" && c === n.childForFieldName("key"))) boundNames(c, out);
}

/** The identifier a member/call chain starts at (`a` of `a.b().c`), or null (`this`, a literal, `new X().y`). */
function chainRoot(n: Node | null): Node | null {
  while (n) {
    if (n.type === "identifier") return n;
    if (n.type === "member_expression") n = n.childForFieldName("object");
    else if (n.type === "call_expression") n = n.childForFieldName("function");
    else if (n.type === "parenthesized_expression" || n.type === "await_expression" || n.type === "non_null_expression") n = n.namedChildren[0];
    else return null;
  }
  return null;
}

/**
 * Checks `test` (see module note). `indexed(names)` answers which of `names` are symbols of the
 * repo's active snapshot; `inRepo(module)` tells an in-repo Python module (`billing.parser`,
 * `.helpers`), Go import path or Java qualified name from an outside one (TypeScript/JavaScript use the specifier: relative is in-repo).
 * Parses once; the tree is freed before returning.
 */
export async function verifyFilledTest(
  language: GrammarLanguage,
  test: string,
  indexed: (names: string[]) => Promise<Set<string>>,
  inRepo: (module: string) => boolean = (m) => m.startsWith("."),
): Promise<FillCheck> {
  const tree = (await getParser(language)).parse(test);
  if (!tree) return { ok: false, syntaxErrors: [1], unresolved: [] };
  const collect = language === "python" ? collectPython : language === "go" ? collectGo : language === "java" ? collectJava : null;
  if (collect) {
    try {
      const { syntaxErrors, wanted } = collect(tree.rootNode, inRepo);
      return syntaxErrors.length ? { ok: false, syntaxErrors, unresolved: [] } : await resolve(wanted, indexed);
    } finally {
      tree.delete();
    }
  }
  const defined = new Set<string>();
  const outside = new Set<string>();
  const wanted: { name: string; line: number }[] = [];
  const roots: Node[] = [];
  const syntaxErrors: number[] = [];
  try {
    const visit = (n: Node) => {
      if (n.type === "ERROR" || n.isMissing) syntaxErrors.push(n.startPosition.row + 1);
      const field = DEF_PARENTS[n.type];
      if (field) boundNames(n.childForFieldName(field), defined);
      if (n.type === "formal_parameters" && language === "javascript") boundNames(n, defined);
      if (n.type === "arrow_function") boundNames(n.childForFieldName("parameter"), defined);
      if (n.type === "import_statement") {
        const spec = n.childForFieldName("source")?.text.slice(1, -1) ?? "";
        const locals = new Set<string>();
        const clause = n.namedChildren.find((c) => c?.type === "import_clause");
        for (const c of clause?.descendantsOfType(["identifier"]) ?? []) if (c) locals.add(c.text);
        if (spec.startsWith(".")) {
          // In-repo: the imported (not the local) names must be symbols of the index.
          for (const s of clause?.descendantsOfType("import_specifier") ?? []) {
            const name = s?.childForFieldName("name");
            if (name) wanted.push({ name: name.text, line: name.startPosition.row + 1 });
          }
          for (const l of locals) defined.add(l);
        } else for (const l of locals) outside.add(l);
        return; // the specifiers are handled; nothing else inside an import is a reference
      }
      if (n.type === "call_expression" || n.type === "new_expression") roots.push(n);
      for (const c of n.children) if (c) visit(c);
    };
    visit(tree.rootNode);
    if (syntaxErrors.length) return { ok: false, syntaxErrors: [...new Set(syntaxErrors)], unresolved: [] };
    const checkName = (name: string, line: number) => {
      if (!defined.has(name) && !outside.has(name) && !JS_GLOBALS.has(name)) wanted.push({ name, line });
    };
    for (const id of tree.rootNode.descendantsOfType(["identifier", "type_identifier"]))
      if (id && !isPropertyKey(id)) checkName(id.text, id.startPosition.row + 1);
    for (const call of roots) {
      const callee = call.childForFieldName(call.type === "call_expression" ? "function" : "constructor");
      if (callee?.type !== "member_expression") continue;
      const root = chainRoot(callee);
      if (root && (outside.has(root.text) || JS_GLOBALS.has(root.text))) continue;
      const prop = callee.childForFieldName("property");
      if (prop && !JS_BUILTIN_METHODS.has(prop.text)) wanted.push({ name: prop.text, line: prop.startPosition.row + 1 });
    }
  } finally {
    tree.delete(); // trees live in wasm memory, not the JS heap
  }
  return resolve(wanted, indexed);
}

/** The check's answer for `wanted`: each (name, line) the index lacks, once. */
async function resolve(wanted: Unresolved[], indexed: (names: string[]) => Promise<Set<string>>): Promise<FillCheck> {
  const found = await indexed([...new Set(wanted.map((w) => w.name))]);
  const seen = new Set<string>();
  const unresolved = wanted.filter((w) => !found.has(w.name) && !seen.has(`${w.name}:${w.line}`) && seen.add(`${w.name}:${w.line}`));
  return unresolved.length ? { ok: false, syntaxErrors: [], unresolved } : { ok: true };
}

/** An identifier in a position that names no binding (object literal key, label). */
function isPropertyKey(n: Node): boolean {
  const p = n.parent;
  return !!p && (p.type === "labeled_statement" || (p.type === "pair" && p.childForFieldName("key")?.equals(n) === true));
}
