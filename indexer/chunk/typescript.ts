/**
 * @module indexer/chunk/typescript
 *
 * Chunking rules for TypeScript, TSX and JavaScript (with JSX): one spec serves all three
 * grammars, whose node names agree. `const f = () => {}` counts as a function; `export`
 * wrappers and decorators stay with the declaration. Enum members are `constant` symbols
 * inside the enum's chunk.
 */
import type { Node } from "web-tree-sitter";
import { fieldText, type Definition, type LanguageSpec, type ScopeContext } from "./spec";

const FUNCTION_VALUES = new Set(["arrow_function", "function_expression", "function", "generator_function"]);
const CLASS_VALUES = new Set(["class", "class_expression"]);
const REQUIRE_RE = /^\s*(?:const|let|var)\s+[^=]+=\s*require\s*\(/;

function variable(node: Node, ctx: ScopeContext): Definition | null {
  const declarators = node.namedChildren.filter((c) => c?.type === "variable_declarator") as Node[];
  const first = declarators[0];
  if (!first) return null;
  const name = fieldText(first);
  const value = first.childForFieldName("value");
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
      return inner && (inner.type === "internal_module" || inner.type === "module") ? define(inner, ctx) : null;
    }
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
    node.type === "import_statement" ||
    ((node.type === "lexical_declaration" || node.type === "variable_declaration") && REQUIRE_RE.test(node.text)),
  comments: new Set(["comment", "html_comment"]),
  attributes: new Set(["decorator"]),
};
