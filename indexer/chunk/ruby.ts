/**
 * @module indexer/chunk/ruby
 *
 * Chunking rules for Ruby: `module` blocks are looked through (container = module name),
 * `def self.x` is a method, `initialize` a constructor, `require` calls are imports.
 * `class << self` is looked through too: its defs are methods of the enclosing class.
 */
import type { Node } from "web-tree-sitter";
import { fieldText, type Definition, type LanguageSpec, type ScopeContext } from "./spec";

const REQUIRE_METHODS = new Set(["require", "require_relative", "load", "autoload"]);

function define(node: Node, ctx: ScopeContext): Definition | null {
  switch (node.type) {
    case "method":
      return { kind: "function", name: fieldText(node), node };
    case "singleton_method":
      return { kind: "method", name: fieldText(node), node };
    case "class":
      return { kind: "class", name: fieldText(node), node, members: node.childForFieldName("body") };
    case "module":
      return { kind: "module", name: fieldText(node), node, members: node.childForFieldName("body"), transparent: true };
    case "singleton_class":
      // No name of its own, so its members keep the enclosing class as container, like `def self.x`.
      return { kind: "class", name: "", node, members: node.childForFieldName("body"), transparent: true, noSymbol: true };
    case "assignment": {
      const left = node.childForFieldName("left");
      if (left?.type !== "constant") return null;
      return { kind: ctx.inClass ? "field" : "constant", name: left.text, node };
    }
    default:
      return null;
  }
}

/** Ruby. */
export const rubySpec: LanguageSpec = {
  define,
  isImport: (node) => node.type === "call" && !node.childForFieldName("receiver") && REQUIRE_METHODS.has(fieldText(node, "method")),
  comments: new Set(["comment"]),
};
