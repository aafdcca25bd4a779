/**
 * @module worker/services/suggest-tests/fill-verify-go
 *
 * The Go half of fill-verify.ts: from a parsed `testing` file (in the source's own package), the
 * names it defines (functions, methods, types, parameters, `:=`/var/const/range targets, labels)
 * and the references that must be symbols of the index: every other unqualified name (the test
 * shares the package with the code under test), `pkg.Name` of an in-repo package
 * (`inRepo(importPath)`), and a method called on a chain rooted at a local or same-package name
 * unless it is a testing/error method (names-go.ts). Standard and outside packages are trusted.
 */
import type { Node } from "web-tree-sitter";
import { GO_BUILTIN_METHODS, GO_PREDECLARED } from "./names-go";
import type { Wanted } from "./fill-verify-python";

/** Identifiers bound by a declaration's name field(s) or a `:=` left side. */
function bind(nodes: (Node | null)[], out: Set<string>): void {
  for (const n of nodes) {
    if (!n) continue;
    if (n.type === "identifier" || n.type === "type_identifier" || n.type === "field_identifier") out.add(n.text);
    else if (n.type === "expression_list") bind(n.namedChildren, out);
  }
}

/** The identifier a selector/call chain starts at (`c` of `c.Compute(1).X`), or null. */
function chainRoot(n: Node | null): Node | null {
  while (n) {
    if (n.type === "identifier") return n;
    if (n.type === "selector_expression") n = n.childForFieldName("operand");
    else if (n.type === "call_expression") n = n.childForFieldName("function");
    else if (n.type === "index_expression") n = n.childForFieldName("operand");
    else if (n.type === "parenthesized_expression" || n.type === "unary_expression") n = n.namedChildren.at(-1) ?? null;
    else return null;
  }
  return null;
}

/**
 * Collects syntax-error lines and wanted names of the Go file rooted at `root`;
 * `inRepo(importPath)` tells a package of this repo from a standard or outside one.
 */
export function collectGo(root: Node, inRepo: (importPath: string) => boolean): { syntaxErrors: number[]; wanted: Wanted[] } {
  const defined = new Set<string>();
  const outside = new Set<string>();
  const internal = new Set<string>();
  const wanted: Wanted[] = [];
  const syntaxErrors: number[] = [];
  const selectors: Node[] = [];
  const calls: Node[] = [];
  const visit = (n: Node) => {
    if (n.type === "ERROR" || n.isMissing) syntaxErrors.push(n.startPosition.row + 1);
    if (["function_declaration", "method_declaration", "type_spec", "type_alias"].includes(n.type)) bind([n.childForFieldName("name")], defined);
    if (["parameter_declaration", "variadic_parameter_declaration", "var_spec", "const_spec"].includes(n.type)) bind(n.childrenForFieldName("name"), defined);
    if (n.type === "short_var_declaration" || (n.type === "range_clause" && n.text.includes(":="))) bind([n.childForFieldName("left")], defined);
    if (n.type === "labeled_statement") bind([n.childForFieldName("label")], defined);
    if (n.type === "import_spec") {
      const path = n.childForFieldName("path")?.text.slice(1, -1) ?? "";
      const local = n.childForFieldName("name")?.text ?? path.split("/").at(-1) ?? "";
      (inRepo(path) ? internal : outside).add(local);
      return;
    }
    if (n.type === "package_clause") return;
    if (n.type === "selector_expression" || n.type === "qualified_type") selectors.push(n);
    if (n.type === "call_expression") calls.push(n);
    for (const c of n.children) if (c) visit(c);
  };
  visit(root);
  if (syntaxErrors.length) return { syntaxErrors: [...new Set(syntaxErrors)], wanted: [] };
  const known = (name: string) => defined.has(name) || outside.has(name) || internal.has(name) || GO_PREDECLARED.has(name);
  for (const id of root.descendantsOfType(["identifier", "type_identifier"])) {
    if (!id || isNotReference(id)) continue;
    if (!known(id.text)) wanted.push({ name: id.text, line: id.startPosition.row + 1 });
  }
  // `tax.Compute`, `tax.Calculator`: a name of an in-repo package must be a symbol.
  for (const s of selectors) {
    const pkg = s.childForFieldName(s.type === "qualified_type" ? "package" : "operand");
    const name = s.childForFieldName(s.type === "qualified_type" ? "name" : "field");
    if (pkg && name && internal.has(pkg.text) && !defined.has(pkg.text)) wanted.push({ name: name.text, line: name.startPosition.row + 1 });
  }
  for (const call of calls) {
    const callee = call.childForFieldName("function");
    if (callee?.type !== "selector_expression") continue;
    const base = chainRoot(callee);
    if (!base || outside.has(base.text) || (internal.has(base.text) && callee.childForFieldName("operand")?.equals(base))) continue;
    const field = callee.childForFieldName("field");
    if (field && !GO_BUILTIN_METHODS.has(field.text) && !defined.has(field.text)) wanted.push({ name: field.text, line: field.startPosition.row + 1 });
  }
  return { syntaxErrors: [], wanted };
}

/** A name in a position that references nothing to resolve: a qualified type's name, a composite literal's key. */
function isNotReference(n: Node): boolean {
  const p = n.parent;
  if (!p) return false;
  if (p.type === "qualified_type" && p.childForFieldName("name")?.equals(n) === true) return true;
  // `Calculator{Rate: 0.2}`: the key is a field name (or a map key expression, left unchecked).
  const el = p.type === "literal_element" ? p : null;
  return !!el && el.parent?.type === "keyed_element" && el.parent.namedChildren[0]?.equals(el) === true;
}
