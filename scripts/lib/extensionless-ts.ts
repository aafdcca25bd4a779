/**
 * Importing this module lets Node resolve the extensionless relative imports of the Worker code
 * (bundler-style, `./parser` for `./parser.ts`), so Node scripts can import indexer/ modules.
 * Import it first, then import those modules dynamically (static imports link before it runs).
 */
import { registerHooks } from "node:module";

registerHooks({
  resolve(specifier, context, next) {
    try {
      return next(specifier, context);
    } catch (err) {
      if (specifier.startsWith(".") && !/\.[a-z]+$/.test(specifier)) return next(`${specifier}.ts`, context);
      throw err;
    }
  },
});
