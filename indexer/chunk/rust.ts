/**
 * @module indexer/chunk/rust
 *
 * Chunking rules for Rust: `impl` blocks are always split into their functions (container =
 * the implementing type), `mod { }` blocks into their items; `#[..]` attributes and `///`
 * comments stay with the item below. Enum variants are `constant` symbols inside the enum's
 * chunk.
 */
import type { Node } from "web-tree-sitter";
import { fieldText, type Definition, type LanguageSpec } from "./spec";

function define(node: Node): Definition | null {
  switch (node.type) {
    case "function_item":
    case "function_signature_item":
      return { kind: "function", name: fieldText(node), node };
    case "struct_item":
    case "union_item":
      return { kind: "struct", name: fieldText(node), node };
    case "enum_item":
      return { kind: "enum", name: fieldText(node), node, members: node.childForFieldName("body"), keepWhole: true };
    case "enum_variant":
      return { kind: "constant", name: fieldText(node), node, inHeader: true };
    case "trait_item":
      return { kind: "trait", name: fieldText(node), node, members: node.childForFieldName("body") };
    case "type_item":
      return { kind: "type", name: fieldText(node), node };
    case "const_item":
    case "static_item":
      return { kind: "constant", name: fieldText(node), node };
    case "macro_definition":
      return { kind: "function", name: fieldText(node), node };
    case "impl_item": {
      const type = node.childForFieldName("type")?.text.replace(/<.*$/s, "") ?? "";
      return { kind: "class", name: type, node, members: node.childForFieldName("body"), transparent: true, noSymbol: true };
    }
    case "mod_item": {
      const body = node.childForFieldName("body");
      return body ? { kind: "module", name: fieldText(node), node, members: body, transparent: true } : null;
    }
    default:
      return null;
  }
}

/** Rust. */
export const rustSpec: LanguageSpec = {
  define,
  isImport: (node) => node.type === "use_declaration" || node.type === "extern_crate_declaration",
  comments: new Set(["line_comment", "block_comment"]),
  attributes: new Set(["attribute_item"]),
};
