/**
 * @module indexer/chunk/grammars-workerd
 *
 * The grammar loader for workerd (wrangler and the vitest plugin): each `.wasm` import becomes
 * a precompiled `WebAssembly.Module`. Dynamic `import()` keeps each grammar out of the start-up
 * path until a file of that language is chunked (C# alone is 5 MB of wasm).
 */
import type { GrammarLoader } from "./parser";

/** Loads web-tree-sitter's runtime and each grammar as wasm modules bundled with the Worker. */
export const workerdGrammarLoader: GrammarLoader = async (name) => {
  switch (name) {
    case "runtime":
      return (await import("web-tree-sitter/web-tree-sitter.wasm")).default;
    case "typescript":
      return (await import("tree-sitter-typescript/tree-sitter-typescript.wasm")).default;
    case "tsx":
      return (await import("tree-sitter-typescript/tree-sitter-tsx.wasm")).default;
    case "javascript":
      return (await import("tree-sitter-javascript/tree-sitter-javascript.wasm")).default;
    case "python":
      return (await import("tree-sitter-python/tree-sitter-python.wasm")).default;
    case "go":
      return (await import("tree-sitter-go/tree-sitter-go.wasm")).default;
    case "rust":
      return (await import("tree-sitter-rust/tree-sitter-rust.wasm")).default;
    case "java":
      return (await import("tree-sitter-java/tree-sitter-java.wasm")).default;
    case "c":
      return (await import("tree-sitter-c/tree-sitter-c.wasm")).default;
    case "cpp":
      return (await import("tree-sitter-cpp/tree-sitter-cpp.wasm")).default;
    case "csharp":
      return (await import("tree-sitter-c-sharp/tree-sitter-c_sharp.wasm")).default;
    case "ruby":
      return (await import("tree-sitter-ruby/tree-sitter-ruby.wasm")).default;
    case "php":
      return (await import("tree-sitter-php/tree-sitter-php.wasm")).default;
  }
};
