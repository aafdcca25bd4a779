/**
 * @module worker/services/suggest-tests/fill-verify-java
 *
 * The Java half of fill-verify.ts: from a parsed JUnit 5 + Mockito file (in the package of the
 * code under test), the names it defines (types, methods, fields, parameters, locals, catch/for/
 * lambda/resource variables) and the references that must be symbols of the index: every other
 * simple name (same-package types need no import), each name imported from an in-repo class
 * (`inRepo(qualifiedName)`), and a method called on a chain rooted at a local or in-repo name
 * unless it is a JDK/Mockito method (names-java.ts). java.lang and outside imports are trusted.
 */
import type { Node } from "web-tree-sitter";
import { JAVA_BUILTIN_METHODS, JAVA_LANG, JAVA_WILDCARD_NAMES } from "./names-java";
import type { Wanted } from "./fill-verify-python";

const NAMED = new Set([
  "class_declaration",
  "interface_declaration",
  "enum_declaration",
  "record_declaration",
  "method_declaration",
  "constructor_declaration",
  "formal_parameter",
  "spread_parameter",
  "catch_formal_parameter",
  "enhanced_for_statement",
  "variable_declarator",
  "resource",
  "type_parameter",
  "enum_constant",
]);

/** The identifier a call chain starts at (`s` of `s.a().b()`, `Foo` of `new Foo().x()`), or null. */
function chainRoot(n: Node | null): Node | null {
  while (n) {
    if (n.type === "identifier" || n.type === "type_identifier") return n;
    if (n.type === "field_access" || n.type === "method_invocation") n = n.childForFieldName("object");
    else if (n.type === "object_creation_expression") n = n.childForFieldName("type");
    else if (n.type === "parenthesized_expression" || n.type === "cast_expression") n = n.namedChildren.at(-1) ?? null;
    else return null;
  }
  return null;
}

/**
 * Collects syntax-error lines and wanted names of the Java file rooted at `root`;
 * `inRepo(qualifiedName)` tells a class (or package) of this repo from an outside one.
 */
export function collectJava(root: Node, inRepo: (qualifiedName: string) => boolean): { syntaxErrors: number[]; wanted: Wanted[] } {
  const defined = new Set<string>();
  const outside = new Set<string>();
  const wanted: Wanted[] = [];
  const syntaxErrors: number[] = [];
  const calls: Node[] = [];
  const visit = (n: Node) => {
    if (n.type === "ERROR" || n.isMissing) syntaxErrors.push(n.startPosition.row + 1);
    if (NAMED.has(n.type)) {
      const name = n.childForFieldName("name") ?? (n.type === "type_parameter" ? n.namedChildren[0] : null);
      if (name) defined.add(name.text);
    }
    if (n.type === "lambda_expression") {
      const ps = n.childForFieldName("parameters");
      for (const id of ps?.type === "identifier" ? [ps] : (ps?.descendantsOfType("identifier") ?? [])) if (id) defined.add(id.text);
    }
    if (n.type === "import_declaration") {
      const q = n.namedChildren.find((c) => c?.type === "scoped_identifier" || c?.type === "identifier");
      const wildcard = n.namedChildren.some((c) => c?.type === "asterisk");
      const name = q?.text ?? "";
      if (inRepo(name)) {
        // An in-repo import: the class or static member it names must be a symbol (a wildcard: the names stay checked).
        if (!wildcard && q) wanted.push({ name: name.split(".").at(-1) ?? name, line: q.startPosition.row + 1 });
        if (!wildcard) defined.add(name.split(".").at(-1) ?? name);
      } else if (wildcard) for (const w of JAVA_WILDCARD_NAMES) outside.add(w);
      else outside.add(name.split(".").at(-1) ?? name);
      return;
    }
    if (n.type === "package_declaration") return;
    if (n.type === "method_invocation") calls.push(n);
    for (const c of n.children) if (c) visit(c);
  };
  visit(root);
  if (syntaxErrors.length) return { syntaxErrors: [...new Set(syntaxErrors)], wanted: [] };
  const known = (name: string) => defined.has(name) || outside.has(name) || JAVA_LANG.has(name);
  // `java.util.List.of(1)`: a fully qualified name starts at a package, not at a variable.
  const packageRoot = (id: Node) => !defined.has(id.text) && /^[a-z_]\w*(\.[a-z_]\w*)*\.[A-Z]/.test(chainTop(id).text);
  for (const id of root.descendantsOfType(["identifier", "type_identifier"])) {
    if (!id || isNotReference(id) || insideImport(id) || packageRoot(id)) continue;
    if (!known(id.text)) wanted.push({ name: id.text, line: id.startPosition.row + 1 });
  }
  for (const call of calls) {
    const object = call.childForFieldName("object");
    if (!object) continue; // an unqualified call is a simple name, checked above
    const base = chainRoot(object);
    if (!base || outside.has(base.text) || JAVA_LANG.has(base.text) || packageRoot(base)) continue;
    const name = call.childForFieldName("name");
    if (name && !JAVA_BUILTIN_METHODS.has(name.text) && !defined.has(name.text)) wanted.push({ name: name.text, line: name.startPosition.row + 1 });
  }
  return { syntaxErrors: [], wanted };
}

/** The outermost field access of which `n` is the leftmost object (`n` itself when none). */
function chainTop(n: Node): Node {
  while (n.parent?.type === "field_access" && n.parent.childForFieldName("object")?.equals(n)) n = n.parent;
  return n;
}

/** Whether `n` lies in the package or an import declaration (handled by collectJava's visit). */
function insideImport(n: Node): boolean {
  for (let a = n.parent; a; a = a.parent) if (a.type === "import_declaration" || a.type === "package_declaration") return true;
  return false;
}

/** A name that resolves through something else: a member after a dot, a called method with a receiver, a label or annotation key. */
function isNotReference(n: Node): boolean {
  const p = n.parent;
  if (!p) return false;
  if (p.type === "field_access" && p.childForFieldName("field")?.equals(n) === true) return true;
  if (p.type === "method_invocation" && p.childForFieldName("name")?.equals(n) === true && p.childForFieldName("object")) return true;
  if (p.type === "scoped_type_identifier" && !p.namedChildren[0]?.equals(n)) return true;
  if (p.type === "scoped_identifier" && !p.namedChildren[0]?.equals(n)) return true;
  if (p.type === "element_value_pair" && p.childForFieldName("key")?.equals(n) === true) return true;
  if (["labeled_statement", "break_statement", "continue_statement"].includes(p.type)) return true;
  return p.type === "method_reference" && !p.namedChildren[0]?.equals(n);
}
