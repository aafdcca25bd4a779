/**
 * @module worker/services/suggest-tests/fill-verify-python
 *
 * The Python half of fill-verify.ts: from a parsed pytest/unittest file, the names it defines
 * (functions, classes, parameters, assignment/for/with/except/comprehension targets, imports) and
 * the references that must be symbols of the index. A name imported from a module outside the
 * repo (`inRepo(module)` false: pytest, unittest, stdlib, packages) is trusted; from an in-repo
 * module, each imported name is wanted. A method called on a chain rooted at a local or in-repo
 * name is wanted unless it is a builtin/framework method (names-python.ts) or defined in the file.
 */
import type { Node } from "web-tree-sitter";
import { PY_BUILTIN_METHODS, PY_BUILTINS } from "./names-python";

/** A name the index must define, at its 1-based line. */
export interface Wanted {
  name: string;
  line: number;
}

const PATTERNS = new Set([
  "pattern_list",
  "tuple_pattern",
  "list_pattern",
  "tuple",
  "list",
  "list_splat_pattern",
  "dictionary_splat_pattern",
  "parameters",
  "lambda_parameters",
  "list_splat",
  "parenthesized_expression",
  "as_pattern_target",
]);
const PARAMS = new Set(["typed_parameter", "default_parameter", "typed_default_parameter"]);

/** Identifiers bound by a target or parameter list (not attributes or subscripts, not type annotations). */
function bindPy(n: Node | null, out: Set<string>): void {
  if (!n) return;
  if (n.type === "identifier") out.add(n.text);
  else if (PARAMS.has(n.type)) bindPy(n.childForFieldName("name") ?? n.namedChildren[0], out);
  else if (PATTERNS.has(n.type)) for (const c of n.namedChildren) bindPy(c, out);
}

const BINDERS: Record<string, string> = {
  function_definition: "name",
  class_definition: "name",
  assignment: "left",
  augmented_assignment: "left",
  for_statement: "left",
  for_in_clause: "left",
  named_expression: "name",
};

/** The identifier an attribute/call chain starts at (`a` of `a.b().c`), or null. */
function chainRoot(n: Node | null): Node | null {
  while (n) {
    if (n.type === "identifier") return n;
    if (n.type === "attribute") n = n.childForFieldName("object");
    else if (n.type === "call") n = n.childForFieldName("function");
    else if (n.type === "subscript") n = n.childForFieldName("value");
    else if (n.type === "parenthesized_expression" || n.type === "await") n = n.namedChildren[0];
    else return null;
  }
  return null;
}

/** The module path of an import's `module_name` (`.x` relative, `a.b` absolute). */
function moduleOf(n: Node | null): string {
  return n?.text.replace(/\s+/g, "") ?? "";
}

/**
 * Collects syntax-error lines and wanted names of the Python file rooted at `root`.
 * `inRepo(module)` tells an in-repo module (`billing.parser`, `.helpers`) from an outside one.
 */
export function collectPython(root: Node, inRepo: (module: string) => boolean): { syntaxErrors: number[]; wanted: Wanted[] } {
  const defined = new Set<string>();
  const outside = new Set<string>();
  const wanted: Wanted[] = [];
  const syntaxErrors: number[] = [];
  const calls: Node[] = [];
  const imports: Node[] = [];
  const visit = (n: Node) => {
    if (n.type === "ERROR" || n.isMissing) syntaxErrors.push(n.startPosition.row + 1);
    const field = BINDERS[n.type];
    if (field) bindPy(n.childForFieldName(field), defined);
    if (n.type === "function_definition" || n.type === "lambda") bindPy(n.childForFieldName("parameters"), defined);
    if (n.type === "as_pattern") bindPy(n.childForFieldName("alias"), defined);
    if (n.type === "global_statement" || n.type === "nonlocal_statement") for (const c of n.namedChildren) bindPy(c, defined);
    if (n.type === "import_statement" || n.type === "import_from_statement") return void imports.push(n);
    if (n.type === "call") calls.push(n);
    for (const c of n.children) if (c) visit(c);
  };
  visit(root);
  if (syntaxErrors.length) return { syntaxErrors: [...new Set(syntaxErrors)], wanted: [] };
  for (const imp of imports) {
    const from = imp.type === "import_from_statement" ? moduleOf(imp.childForFieldName("module_name")) : null;
    for (const item of imp.childrenForFieldName("name")) {
      if (!item) continue;
      const target = item.type === "aliased_import" ? item.childForFieldName("name") : item;
      const alias = item.type === "aliased_import" ? item.childForFieldName("alias")?.text : undefined;
      const dotted = target?.text ?? "";
      const local = alias ?? (from === null ? dotted.split(".")[0] : dotted);
      const internal = inRepo(from ?? dotted);
      (internal ? defined : outside).add(local);
      // `from billing.parser import parse`: parse must be a symbol; `import billing.parser` names only a module.
      if (internal && from !== null && target) wanted.push({ name: dotted, line: target.startPosition.row + 1 });
    }
  }
  const known = (name: string) => defined.has(name) || outside.has(name) || PY_BUILTINS.has(name);
  for (const id of root.descendantsOfType("identifier")) {
    if (!id || isNotReference(id)) continue;
    if (!known(id.text)) wanted.push({ name: id.text, line: id.startPosition.row + 1 });
  }
  for (const call of calls) {
    const callee = call.childForFieldName("function");
    if (callee?.type !== "attribute") continue;
    const root0 = chainRoot(callee);
    if (!root0 || outside.has(root0.text) || (PY_BUILTINS.has(root0.text) && !defined.has(root0.text))) continue;
    const attr = callee.childForFieldName("attribute");
    if (attr && !PY_BUILTIN_METHODS.has(attr.text) && !defined.has(attr.text)) wanted.push({ name: attr.text, line: attr.startPosition.row + 1 });
  }
  return { syntaxErrors: [], wanted };
}

/** An identifier naming no binding: an attribute after the dot, a keyword argument's name, inside an import. */
function isNotReference(n: Node): boolean {
  const p = n.parent;
  if (!p) return false;
  if (p.type === "attribute" && p.childForFieldName("attribute")?.equals(n) === true) return true;
  if (p.type === "keyword_argument" && p.childForFieldName("name")?.equals(n) === true) return true;
  for (let a: Node | null = p; a; a = a.parent) if (a.type === "import_statement" || a.type === "import_from_statement") return true;
  return false;
}
