/**
 * @module indexer/chunk/parser
 *
 * web-tree-sitter set-up, once per isolate: the runtime and each grammar are loaded lazily on
 * first use and cached. workerd forbids compiling WebAssembly from bytes at run time, so the
 * wasm comes precompiled as `WebAssembly.Module`s from an injectable `GrammarLoader`
 * (grammars-workerd.ts imports them as modules; the Node bench reads bytes from node_modules).
 */
import { Language, Parser } from "web-tree-sitter";
import type { GrammarLanguage } from "./languages";

/**
 * Source of wasm for `"runtime"` (web-tree-sitter.wasm) and each grammar. Returns a compiled
 * module (workerd) or bytes (Node, compiled here). Must be set before the first parse.
 */
export type GrammarLoader = (name: GrammarLanguage | "runtime") => Promise<WebAssembly.Module | Uint8Array>;

let loader: GrammarLoader | undefined;
let runtimeReady: Promise<void> | undefined;
const parsers = new Map<GrammarLanguage, Promise<Parser>>();

/** Installs the wasm source. Later calls replace it only for grammars not yet loaded. */
export function setGrammarLoader(fn: GrammarLoader): void {
  loader = fn;
}

async function loadModule(name: GrammarLanguage | "runtime"): Promise<WebAssembly.Module> {
  if (!loader) throw new Error("indexer/chunk: no grammar loader; call setGrammarLoader() first");
  const src = await loader(name);
  // Only Node reaches the compile: workerd loaders hand over compiled modules.
  if (src instanceof WebAssembly.Module) return src;
  return (WebAssembly as unknown as { compile(bytes: Uint8Array): Promise<WebAssembly.Module> }).compile(src);
}

function initRuntime(): Promise<void> {
  runtimeReady ??= (async () => {
    const mod = await loadModule("runtime");
    await Parser.init({
      // Emscripten hook: instantiate the precompiled module instead of fetching a URL.
      instantiateWasm(imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) {
        const instance = new WebAssembly.Instance(mod, imports);
        done(instance, mod);
        return instance.exports;
      },
    } as never);
  })().catch((err) => {
    runtimeReady = undefined;
    throw err;
  });
  return runtimeReady;
}

/** The cached parser for a grammar language (created on first use). */
export function getParser(language: GrammarLanguage): Promise<Parser> {
  let p = parsers.get(language);
  if (!p) {
    p = (async () => {
      await initRuntime();
      const lang = Language.loadSync(await loadModule(language));
      const parser = new Parser();
      parser.setLanguage(lang);
      return parser;
    })();
    p.catch(() => parsers.delete(language));
    parsers.set(language, p);
  }
  return p;
}
