/**
 * A Vite plugin for the Workers test project that drops Vite's warnings about third-party
 * packages' source maps. The Workers pool transforms every dependency with Vite (the plugin
 * inlines them into workerd), and a few published packages (jschardet, standardwebhooks,
 * structured-source, @modelcontextprotocol/sdk) ship maps that point at missing files; Vite
 * says so on every run, some with a stack, and nothing in this project can fix it. Warnings
 * about the project's own files still print.
 *
 * Vitest installs its own logger in a `config` hook; this plugin runs after it (`post`) and wraps it.
 */
import type { Logger, Plugin } from "vite";

const THIRD_PARTY_SOURCE_MAP = /(Sourcemap for "[^"]*\/node_modules\/[^"]*" points to missing source files|Failed to load source map for \S*\/node_modules\/)/;

/** Whether a Vite warning is about a package's (not this project's) broken source map. */
export function isThirdPartySourceMapWarning(msg: string): boolean {
  return THIRD_PARTY_SOURCE_MAP.test(msg);
}

/** The plugin. */
export function quietThirdPartySourceMaps(): Plugin {
  return {
    name: "codebase-copilot:quiet-third-party-source-maps",
    enforce: "post",
    config(config) {
      const logger = config.customLogger;
      if (!logger) return;
      const quiet: Logger = {
        ...logger,
        warn: (msg, options) => (isThirdPartySourceMapWarning(msg) ? undefined : logger.warn(msg, options)),
        warnOnce: (msg, options) => (isThirdPartySourceMapWarning(msg) ? undefined : logger.warnOnce(msg, options)),
      };
      config.customLogger = quiet;
    },
  };
}
