/**
 * @module indexer/chunk/php
 *
 * Chunking rules for PHP: `namespace X { }` is looked through, `use` and `require` are imports,
 * `#[Attributes]` are part of the declaration, `__construct` is a constructor; an enum's
 * `case`s are `constant` symbols that stay in its header chunk.
 */
import type { Node } from "web-tree-sitter";
import { fieldText, type Definition, type LanguageSpec } from "./spec";

const REQUIRE_TYPES = new Set(["require_expression", "require_once_expression", "include_expression", "include_once_expression"]);

function define(node: Node): Definition | null {
  const name = fieldText(node);
  const members = node.childForFieldName("body");
  switch (node.type) {
    case "function_definition":
      return { kind: "function", name, node };
    case "class_declaration":
      return { kind: "class", name, node, members };
    case "interface_declaration":
      return { kind: "interface", name, node, members };
    case "trait_declaration":
      return { kind: "trait", name, node, members };
    case "enum_declaration":
      return { kind: "enum", name, node, members };
    case "enum_case":
      return { kind: "constant", name, node, inHeader: true };
    case "method_declaration":
      return { kind: "method", name, node };
    case "property_declaration": {
      const el = node.namedChildren.find((c) => c?.type === "property_element");
      return { kind: "field", name: el?.namedChild(0)?.text.replace(/^\$/, "") ?? "", node };
    }
    case "const_declaration": {
      const el = node.namedChildren.find((c) => c?.type === "const_element");
      return { kind: "constant", name: el?.namedChild(0)?.text ?? "", node };
    }
    case "namespace_definition":
      return members ? { kind: "module", name, node, members, transparent: true } : null;
    default:
      return null;
  }
}

/** PHP. */
export const phpSpec: LanguageSpec = {
  define,
  isImport: (node) => node.type === "namespace_use_declaration" || (node.type === "expression_statement" && REQUIRE_TYPES.has(node.namedChild(0)?.type ?? "")),
  comments: new Set(["comment"]),
};
