/**
 * The highlight.js language definitions, each its own chunk (scripts/build-web.ts bundles with
 * splitting), imported on demand and at most once. Apart from highlight.js core (highlight.ts),
 * so the search page can start fetching the languages of its results the moment the answer
 * arrives, beside core rather than after it, while it draws the results plain.
 */
import type { LanguageFn } from "highlight.js";
import { highlightLanguage } from "./highlight-languages";

/** highlight.js language -> its definition's chunk. */
const LOADERS: Record<string, () => Promise<{ default: LanguageFn }>> = {
  bash: () => import("highlight.js/lib/languages/bash"),
  c: () => import("highlight.js/lib/languages/c"),
  cmake: () => import("highlight.js/lib/languages/cmake"),
  cpp: () => import("highlight.js/lib/languages/cpp"),
  csharp: () => import("highlight.js/lib/languages/csharp"),
  css: () => import("highlight.js/lib/languages/css"),
  dockerfile: () => import("highlight.js/lib/languages/dockerfile"),
  go: () => import("highlight.js/lib/languages/go"),
  graphql: () => import("highlight.js/lib/languages/graphql"),
  ini: () => import("highlight.js/lib/languages/ini"),
  java: () => import("highlight.js/lib/languages/java"),
  javascript: () => import("highlight.js/lib/languages/javascript"),
  json: () => import("highlight.js/lib/languages/json"),
  kotlin: () => import("highlight.js/lib/languages/kotlin"),
  lua: () => import("highlight.js/lib/languages/lua"),
  makefile: () => import("highlight.js/lib/languages/makefile"),
  markdown: () => import("highlight.js/lib/languages/markdown"),
  php: () => import("highlight.js/lib/languages/php"),
  protobuf: () => import("highlight.js/lib/languages/protobuf"),
  python: () => import("highlight.js/lib/languages/python"),
  ruby: () => import("highlight.js/lib/languages/ruby"),
  rust: () => import("highlight.js/lib/languages/rust"),
  scala: () => import("highlight.js/lib/languages/scala"),
  sql: () => import("highlight.js/lib/languages/sql"),
  swift: () => import("highlight.js/lib/languages/swift"),
  typescript: () => import("highlight.js/lib/languages/typescript"),
  xml: () => import("highlight.js/lib/languages/xml"),
  yaml: () => import("highlight.js/lib/languages/yaml"),
};

const loading = new Map<string, Promise<LanguageFn | null>>();

/**
 * The definition of highlight.js language `name` (e.g. "typescript"), imported once; null for
 * an unknown name or a failed load (that code stays plain; the next call tries again). Never rejects.
 */
export function importLanguage(name: string): Promise<LanguageFn | null> {
  if (!Object.hasOwn(LOADERS, name)) return Promise.resolve(null);
  let p = loading.get(name);
  if (!p) {
    p = LOADERS[name]().then(
      (m) => m.default,
      () => {
        loading.delete(name);
        return null;
      },
    );
    loading.set(name, p);
  }
  return p;
}

/** Starts importing the definitions of these index languages (unknown ones are skipped); returns at once. */
export function prefetchLanguages(indexLanguages: Iterable<string | undefined>): void {
  for (const l of indexLanguages) {
    const name = highlightLanguage(l);
    if (name) void importLanguage(name);
  }
}
