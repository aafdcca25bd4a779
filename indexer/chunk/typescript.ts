/**
 * @module indexer/chunk/typescript
 *
 * Chunking rules for TypeScript, TSX and JavaScript (with JSX): one spec serves all three
 * grammars, whose node names agree. `const f = () => {}` counts as a function; `export`
 * wrappers and decorators stay with the declaration. Enum members are `constant` symbols
 * inside the enum's chunk.
 *
 * Pre-class JavaScript defines by assignment, and those statements count too (module level
 * only; the chunker never enters function bodies): `View.prototype.lookup = function` is method
 * `lookup` of `View`, `app.render = function` method `render` of `app`, `exports.f = () => {}`
 * function `f`, `module.exports = function createApplication` function `createApplication`,
 * `X.prototype = { a() {}, b: function () {} }` a class body of `X`, and a named function
 * passed to a top-level call (`defineGetter(req, 'ip', function ip() {})`) function `ip`.
 */
import type { Node } from "web-tree-sitter";
import { fieldText, type Definition, type LanguageSpec, type ScopeContext } from "./spec";

const FUNCTION_VALUES = new Set(["arrow_function", "function_expression", "function", "generator_function"]);
const CLASS_VALUES = new Set(["class", "class_expression"]);
const REQUIRE_RE = /^\s*(?:const|let|var)\s+[^=]+=\s*require\s*\(/;
/** Objects that stand for the module itself at module level: what is assigned to them has no container. */
const MODULE_OBJECTS = new Set(["exports", "module.exports", "this"]);
/** A container worth naming: a dotted identifier path (`app`, `View`, `a.b`), not a call or a cast. */
const CONTAINER_RE = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/;

/** The value at the end of an assignment chain (`a.x = b.x = function () {}` -> the function). */
function assignedValue(node: Node | null): Node | null {
  while (node?.type === "assignment_expression") node = node.childForFieldName("right");
  return node;
}

/** True for an object literal with a method or a function-valued property. */
function hasFunctionMember(object: Node): boolean {
  return object.namedChildren.some(
    (c) => c?.type === "method_definition" || (c?.type === "pair" && FUNCTION_VALUES.has(c.childForFieldName("value")?.type ?? "")),
  );
}

/** Name and owner (the object, `.prototype` dropped) of an assignment target `owner.name`, or null. */
function target(left: Node): { name: string; owner: string } | null {
  const object = left.childForFieldName("object");
  const key =
    left.type === "member_expression" ? left.childForFieldName("property") : left.type === "subscript_expression" ? left.childForFieldName("index") : null;
  if (!object || (key?.type !== "property_identifier" && key?.type !== "string")) return null;
  return { name: key.type === "string" ? key.text.slice(1, -1) : key.text, owner: object.text.replace(/\.prototype$/, "") };
}

/**
 * What `obj.name = value` defines, for a function, class or (after `X.prototype` or
 * `module.exports`) an object literal with function members. Named after the last property;
 * the container is the object with `.prototype` dropped, none for `exports` / `module.exports`.
 * `module.exports = function f` and `exports.default = function f` take the value's own name
 * (unnamed: a chunk without symbol). The other targets of a chain with the same owner
 * (`res.contentType = res.type = function`) and a function's own name, when they differ, are
 * aliases.
 */
function assignment(node: Node, assign: Node): Definition | null {
  const left = assign.childForFieldName("left");
  const value = assignedValue(assign.childForFieldName("right"));
  if (!left || !value) return null;
  const own = fieldText(value);
  let name = own;
  let container: string | undefined;
  const aliases = new Set<string>();
  if (left.text !== "module.exports") {
    const first = target(left);
    if (!first) return null;
    if (first.name !== "default") name = first.name; // `exports.default = function f` is `f`
    if (!MODULE_OBJECTS.has(first.owner) && CONTAINER_RE.test(first.owner)) container = first.owner;
    for (let next = assign.childForFieldName("right"); next?.type === "assignment_expression"; next = next.childForFieldName("right")) {
      const more = next.childForFieldName("left");
      const t = more ? target(more) : null;
      if (t && t.owner === first.owner && t.name !== "default") aliases.add(t.name);
    }
  }
  const prototype = left.type === "member_expression" && fieldText(left, "property") === "prototype";
  if (own) aliases.add(own);
  aliases.delete(name);
  const alias = aliases.size ? { aliases: [...aliases] } : {};
  if (!prototype && FUNCTION_VALUES.has(value.type)) return { kind: container ? "method" : "function", name, node, container, ...alias };
  if (!prototype && CLASS_VALUES.has(value.type)) return { kind: "class", name, node, members: value.childForFieldName("body"), container, ...alias };
  if (value.type !== "object" || !hasFunctionMember(value)) return null;
  // A prototype object is the class body of its constructor, which has its own symbol.
  if (prototype && container) return { kind: "class", name: container, node, members: value, noSymbol: true };
  if (left.text === "module.exports") return { kind: "module", name: "", node, members: value, noSymbol: true };
  return null;
}

/** `definer(obj, "key", function key() {})` at module level: the one named function among the arguments. */
function passedFunction(node: Node, call: Node): Definition | null {
  const args = call.childForFieldName("arguments")?.namedChildren ?? [];
  const named = args.filter((a) => a && (a.type === "function_expression" || a.type === "generator_function") && a.childForFieldName("name"));
  return named.length === 1 ? { kind: "function", name: fieldText(named[0]!), node } : null;
}

/** A property of an object literal taken as a class body: `a: function () {}` is method `a`. */
function pair(node: Node, ctx: ScopeContext): Definition | null {
  const key = node.childForFieldName("key");
  if (!ctx.inClass || !key || !FUNCTION_VALUES.has(node.childForFieldName("value")?.type ?? "")) return null;
  return { kind: "method", name: key.type === "string" ? key.text.slice(1, -1) : key.text, node };
}

function variable(node: Node, ctx: ScopeContext): Definition | null {
  const declarators = node.namedChildren.filter((c) => c?.type === "variable_declarator") as Node[];
  const first = declarators[0];
  if (!first) return null;
  const name = fieldText(first);
  // `var proto = module.exports = function () {}` defines `proto`.
  const value = assignedValue(first.childForFieldName("value"));
  if (value && declarators.length === 1 && FUNCTION_VALUES.has(value.type)) return { kind: "function", name, node, members: null };
  if (value && declarators.length === 1 && CLASS_VALUES.has(value.type)) return { kind: "class", name, node, members: value.childForFieldName("body") };
  if (ctx.inClass) return null;
  return { kind: node.text.startsWith("const") ? "constant" : "variable", name, node };
}

/** An enum member (`Red`, `Green = "g"`, `"dark-blue" = 3`) as a constant; computed names are skipped. */
function enumMember(node: Node): Definition | null {
  const key = node.type === "enum_assignment" ? node.childForFieldName("name") : node;
  if (key?.type === "property_identifier") return { kind: "constant", name: key.text, node, inHeader: true };
  if (key?.type === "string") return { kind: "constant", name: key.text.slice(1, -1), node, inHeader: true };
  return null;
}

function define(node: Node, ctx: ScopeContext): Definition | null {
  switch (node.type) {
    case "export_statement": {
      const inner = node.childForFieldName("declaration");
      const def = inner ? define(inner, ctx) : null;
      return def ? { ...def, outer: node } : null;
    }
    case "ambient_declaration": {
      const inner = node.namedChildren.find((c) => c && c.type !== "comment");
      const def = inner ? define(inner, ctx) : null;
      return def ? { ...def, outer: node } : null;
    }
    case "expression_statement": {
      const inner = node.namedChild(0);
      if (inner && (inner.type === "internal_module" || inner.type === "module")) return define(inner, ctx);
      if (inner?.type === "assignment_expression") return assignment(node, inner);
      if (inner?.type === "call_expression" && !ctx.inClass) return passedFunction(node, inner);
      return null;
    }
    case "pair":
      return pair(node, ctx);
    case "internal_module":
    case "module":
      return { kind: "module", name: fieldText(node), node, members: node.childForFieldName("body"), transparent: true };
    case "function_declaration":
    case "generator_function_declaration":
    case "function_signature":
      return { kind: "function", name: fieldText(node), node };
    case "class_declaration":
    case "abstract_class_declaration":
    case "class":
      return { kind: "class", name: fieldText(node), node, members: node.childForFieldName("body") };
    case "interface_declaration":
      return { kind: "interface", name: fieldText(node), node };
    case "type_alias_declaration":
      return { kind: "type", name: fieldText(node), node };
    case "enum_declaration":
      return { kind: "enum", name: fieldText(node), node, members: node.childForFieldName("body"), keepWhole: true };
    case "property_identifier":
    case "enum_assignment":
      return node.parent?.type === "enum_body" ? enumMember(node) : null;
    case "method_definition":
    case "method_signature":
    case "abstract_method_signature":
      return { kind: "method", name: fieldText(node), node };
    case "public_field_definition":
    case "field_definition": {
      const value = node.childForFieldName("value");
      const name = fieldText(node) || fieldText(node, "property");
      if (value && FUNCTION_VALUES.has(value.type)) return { kind: "method", name, node };
      return { kind: "field", name, node };
    }
    case "lexical_declaration":
    case "variable_declaration":
      return variable(node, ctx);
    default:
      return null;
  }
}

/** TypeScript, TSX and JavaScript. */
export const typescriptSpec: LanguageSpec = {
  define,
  isImport: (node) =>
    node.type === "import_statement" || ((node.type === "lexical_declaration" || node.type === "variable_declaration") && REQUIRE_RE.test(node.text)),
  comments: new Set(["comment", "html_comment"]),
  // `/** ... */` documents what follows even after a blank line, unless it describes the file.
  detachedDoc: /^\/\*\*(?![\s\S]*@(?:module|file|fileoverview|overview|license|preserve|packageDocumentation)\b)/,
  attributes: new Set(["decorator"]),
};
