/**
 * Config-time split of the test files between the two vitest projects (vitest.config.mts):
 * a file runs in the Workers pool (workerd) when anything it imports, followed through the
 * project's own files, needs workerd; every other file runs in plain Node.
 *
 * "Needs workerd" means a `cloudflare:` module (`cloudflare:test`, `cloudflare:workers`, ...),
 * a package in WORKERD_PACKAGES, or a workerd-only global in WORKERD_GLOBALS. The scan reads import specifiers with a regular expression
 * and skips `import type` / `export type` (erased before run time). It errs towards workerd:
 * an import or a global named in a comment counts. A miss is loud, not silent: in the Node
 * project every `cloudflare:` module resolves to test/node/workerd-only.ts, which throws on
 * import, and a missing global throws where it is called.
 */
import { existsSync, globSync, readFileSync, statSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";

/** Packages that import `cloudflare:workers` themselves (their code runs only in workerd). */
export const WORKERD_PACKAGES: readonly string[] = ["agents", "@cloudflare/workers-oauth-provider"];

/** Globals that workerd has and Node has not (a non-standard API in the Workers runtime). */
export const WORKERD_GLOBALS: readonly RegExp[] = [
  /\bcrypto\.subtle\.timingSafeEqual\b/,
  /\bHTMLRewriter\b/,
  /\bWebSocketPair\b/,
  /\bcaches\.default\b/,
  /\bDigestStream\b/,
  /\bscheduler\.wait\b/,
];

const IMPORT_RE = /(?:^|[\s;])(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s*)?["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/gm;

/** The module specifiers a source text imports at run time (static, re-export and literal dynamic). */
export function importSpecifiers(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT_RE)) out.push(m[1] ?? m[2]);
  return out;
}

/** Whether a bare specifier names a workerd-only module or package. */
export function isWorkerdSpecifier(specifier: string): boolean {
  if (specifier.startsWith("cloudflare:")) return true;
  return WORKERD_PACKAGES.some((p) => specifier === p || specifier.startsWith(`${p}/`));
}

function resolveLocal(from: string, specifier: string): string | null {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}/index.ts`]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/**
 * The first workerd-only specifier (or `global <name>`) reached from `file` through relative
 * imports of `.ts` files, or null when there is none. `cache` keeps each file's findings
 * across calls.
 */
export function workerdImportOf(file: string, cache = new Map<string, string[]>()): string | null {
  const needs = (text: string): string[] => {
    const global = WORKERD_GLOBALS.find((re) => re.test(text));
    return global ? [`global ${global.source.replace(/\\b|\\/g, "")}`] : [];
  };
  const seen = new Set<string>();
  const stack = [resolve(file)];
  while (stack.length > 0) {
    const path = stack.pop()!;
    if (seen.has(path) || !path.endsWith(".ts")) continue;
    seen.add(path);
    let specifiers = cache.get(path);
    if (!specifiers) {
      const text = readFileSync(path, "utf8");
      cache.set(path, (specifiers = [...needs(text), ...importSpecifiers(text)]));
    }
    for (const specifier of specifiers) {
      if (specifier.startsWith("global ")) return specifier;
      if (!specifier.startsWith(".")) {
        if (isWorkerdSpecifier(specifier)) return specifier;
        continue;
      }
      const local = resolveLocal(path, specifier);
      if (local) stack.push(local);
    }
  }
  return null;
}

/** The test files matched by `include` under `root`, split by whether they need workerd (paths relative to root). */
export function splitTestFiles(root: string, include: string[]): { node: string[]; workers: string[] } {
  const cache = new Map<string, string[]>();
  const node: string[] = [];
  const workers: string[] = [];
  const files = [...new Set(include.flatMap((g) => globSync(g, { cwd: root, exclude: (f) => f.includes("node_modules") })))];
  for (const file of files.sort()) {
    const rel = relative(root, resolve(root, file));
    (workerdImportOf(resolve(root, file), cache) ? workers : node).push(rel);
  }
  return { node, workers };
}
