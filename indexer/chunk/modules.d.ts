/** Wrangler and the vitest plugin turn a `.wasm` import into a compiled `WebAssembly.Module`. */
declare module "*.wasm" {
  const module: WebAssembly.Module;
  export default module;
}
