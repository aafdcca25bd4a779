/**
 * @module worker/services/references-scope
 *
 * What a file says about the names it uses, read from its text: the modules it imports (by
 * alias and by imported name) and the declared type of a variable or field. Regular
 * expressions per language family, enough to tell `formatter.format` (a field typed
 * `InvoiceFormatter`) from `audit.format` or `loyalty.applyDiscount` (a module import).
 * Heuristic on purpose: a miss leaves the occurrence unresolved, never wrongly attributed
 * beyond what the text declares.
 */

/** Imports of one file: `aliases` name a module (`import * as x`, `from pkg import mod`, Go import); `names` map an imported name to its module. */
export interface FileImports {
  aliases: Map<string, string>;
  names: Map<string, string>;
}

function pairs(list: string): [string, string][] {
  return list
    .split(",")
    .map((s) => s.trim().replace(/^type\s+/, ""))
    .filter(Boolean)
    .map((s) => {
      const [name, alias] = s.split(/\s+as\s+/);
      return [name.trim(), (alias ?? name).trim()];
    });
}

/** The imports of `text` in `language` (TypeScript/JavaScript, Python, Go, Java; others: none). */
export function fileImports(language: string, text: string): FileImports {
  const aliases = new Map<string, string>();
  const names = new Map<string, string>();
  if (["typescript", "tsx", "javascript"].includes(language)) {
    for (const m of text.matchAll(/import\s+\*\s+as\s+([\w$]+)\s+from\s+["']([^"']+)["']/g)) aliases.set(m[1], m[2]);
    for (const m of text.matchAll(/import\s+(?:type\s+)?(?:([\w$]+)\s*,\s*)?\{([^}]*)\}\s*from\s+["']([^"']+)["']/g)) {
      for (const [name, alias] of pairs(m[2])) names.set(alias, `${m[3]}#${name}`);
      if (m[1]) names.set(m[1], `${m[3]}#default`);
    }
    for (const m of text.matchAll(/import\s+([\w$]+)\s+from\s+["']([^"']+)["']/g)) names.set(m[1], `${m[2]}#default`);
  } else if (language === "python") {
    for (const m of text.matchAll(/^[ \t]*from\s+([\w.]+)\s+import\s+\(?([^)\n#]+)/gm)) {
      for (const [name, alias] of pairs(m[2])) {
        names.set(alias, `${m[1]}#${name}`);
        aliases.set(alias, `${m[1]}.${name}`); // may be a submodule: from billing import parser
      }
    }
    for (const m of text.matchAll(/^[ \t]*import\s+([\w.]+)(?:\s+as\s+(\w+))?/gm)) aliases.set(m[2] ?? m[1].split(".")[0], m[1]);
  } else if (language === "go") {
    const block = /import\s*\(([^)]*)\)|import\s+((?:\w+\s+)?"[^"]+")/g;
    for (const b of text.matchAll(block)) {
      for (const m of (b[1] ?? b[2]).matchAll(/(?:([\w.]+)\s+)?"([^"]+)"/g)) aliases.set(m[1] ?? m[2].split("/").pop()!, m[2]);
    }
  } else if (language === "java") {
    for (const m of text.matchAll(/import\s+static\s+([\w.]+)\.(\w+)\s*;/g)) names.set(m[2], `${m[1]}#${m[2]}`);
  }
  return { aliases, names };
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The declared type of variable or field `name` in `text`: `Type name` (Java, C#),
 * `name: Type` (TypeScript, Python), `name = new Type(` / `name = Type(` / `name := &pkg.Type{`,
 * and Go's `name *Type` (receivers, parameters). Only capitalised type names count (the
 * convention that tells a type from a value). Null when none is declared.
 */
export function declaredType(language: string, text: string, name: string): string | null {
  const n = escape(name);
  const patterns = [
    new RegExp(`\\b${n}\\s*:?=\\s*(?:new\\s+|&)?(?:[\\w]+\\.)*([A-Z][\\w]*)\\s*(?:<[^<>;]*>)?\\s*[({]`),
    new RegExp(`\\b${n}\\s*[?!]?:\\s*(?:[\\w]+\\.)*([A-Z][\\w]*)`),
  ];
  if (language === "go") patterns.push(new RegExp(`\\b${n}\\s+\\*?(?:\\w+\\.)?([A-Z]\\w*)`));
  else patterns.push(new RegExp(`\\b([A-Z][\\w]*)(?:<[^<>;]*>)?(?:\\[\\])?\\??\\s+${n}\\b\\s*[;=,)]`));
  for (const re of patterns) {
    const m = re.exec(text);
    if (m) return m[1];
  }
  return null;
}

/**
 * True when `defPath` (a definition's file) is the module `spec` imported from `fromPath`:
 * a relative TypeScript specifier resolved against `fromPath`'s directory, a dotted Python
 * module, or a Go import path (same last directory). Extensions and `/index` are ignored.
 */
export function moduleIs(spec: string, fromPath: string, defPath: string): boolean {
  const bare = defPath.replace(/\.[^./]+$/, "").replace(/\/(index|__init__)$/, "");
  if (spec.startsWith(".")) {
    const parts = fromPath.split("/").slice(0, -1);
    for (const seg of spec.split("/")) {
      if (seg === "..") parts.pop();
      else if (seg !== ".") parts.push(seg);
    }
    return bare === parts.join("/").replace(/\.[^./]+$/, "");
  }
  if (spec.includes("/")) {
    // Go: the package is the definition's directory.
    const dir = defPath.split("/").slice(0, -1).join("/");
    return `/${dir}`.endsWith(`/${spec.split("/").pop()}`);
  }
  const asPath = spec.replace(/\./g, "/");
  return bare === asPath || bare.endsWith(`/${asPath}`);
}
