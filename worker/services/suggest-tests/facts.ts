/**
 * @module worker/services/suggest-tests/facts
 *
 * Facts about one function or method, from plain data (the file's text, symbol rows and import
 * lines as the index holds them): signature, parameters and return type from the symbol table;
 * collaborators from the enclosing class's fields and constructor, or the imports the body
 * calls; errors the body throws (`throw new X`), raises (`raise X`) or returns (Go); early
 * returns. Each fact carries its `path:line`. Line-based on purpose: the body is already
 * delimited by the chunker's symbol row.
 */
import type { TestFact } from "../suggest-tests-schema";
import { parseSignature } from "./signature";
import type { GatheredFacts, Param, SourceFile, SymbolLite, ThrownError } from "./types";

/** Language families the renderers know. */
export type Family = "ts" | "python" | "go" | "java";

/** The family of a detectLanguage name, or null when no renderer exists. */
export function familyOf(language: string): Family | null {
  if (["typescript", "tsx", "javascript"].includes(language)) return "ts";
  if (language === "python") return "python";
  if (language === "go") return "go";
  if (language === "java") return "java";
  return null;
}

const COMMENT = /^\s*(\/\/|#|\*|\/\*)/;

/** Gathers the facts for `target` (a function, method or constructor row of `file`). */
export function gatherFacts(file: SourceFile, target: SymbolLite): GatheredFacts {
  const lines = file.text.split("\n");
  const fact = (kind: TestFact["kind"], text: string, line: number): TestFact => ({ kind, text, path: file.path, line });
  const { params, returnType, isAsync } = parseSignature(target.signature, target.name, file.language);
  const facts: TestFact[] = [fact("signature", target.signature ?? target.name, target.startLine)];
  for (const p of params) facts.push(fact("param", `${p.name}${p.type ? `: ${p.type}` : ""}`, target.startLine));
  if (returnType) facts.push(fact("returns", returnType, target.startLine));

  const body: { n: number; text: string }[] = [];
  for (let n = target.startLine; n <= target.endLine && n <= lines.length; n++) if (!COMMENT.test(lines[n - 1])) body.push({ n, text: lines[n - 1] });

  const ctorParams = constructorParams(file, target, facts);
  const calledImports = importsCalled(file, body, facts);
  const throws = thrown(file.language, body);
  for (const t of throws) facts.push(fact("throws", t.type, t.line));
  const errorLines = new Set(throws.map((t) => t.line));
  const returns = body.filter((b) => /(^|[^\w.])return\b/.test(b.text) && !errorLines.has(b.n)).map((b) => b.n);
  // Every return but the last is an early exit (lambdas inside the body can add false ones).
  const earlyReturns = returns.slice(0, -1);
  for (const n of earlyReturns) facts.push(fact("early_return", lines[n - 1].trim(), n));
  return { file, target, params, returnType, isAsync, ctorParams, throws, earlyReturns, calledImports, facts };
}

/** Fields of the enclosing class and its constructor's parameters (facts), or the Go receiver's struct. */
function constructorParams(file: SourceFile, target: SymbolLite, facts: TestFact[]): Param[] {
  if (!target.container || target.kind === "constructor") return [];
  const owner = file.symbols.find((s) => s.name === target.container && s.container === null && s.kind !== "method");
  for (const s of file.symbols) {
    if (s.container === target.container && s.kind === "field")
      facts.push({ kind: "collaborator", text: s.signature ?? s.name, path: file.path, line: s.startLine });
  }
  if (file.language === "go") {
    if (owner) facts.push({ kind: "collaborator", text: `receiver ${owner.signature ?? owner.name}`, path: file.path, line: owner.startLine });
    return [];
  }
  const ctor = file.symbols.find((s) => s.container === target.container && s.kind === "constructor");
  if (!ctor) return [];
  const name = file.language === "python" ? "__init__" : ctor.name;
  const { params } = parseSignature(ctor.signature, name, file.language);
  for (const p of params)
    facts.push({ kind: "collaborator", text: `constructor ${p.name}${p.type ? `: ${p.type}` : ""}`, path: file.path, line: ctor.startLine });
  return params;
}

/** Local names each import line binds, with the module specifier. */
export function importBindings(line: string, language: string): { locals: string[]; specifier: string | null } {
  const spec = /["']([^"']+)["']/.exec(line)?.[1] ?? null;
  if (language === "python") {
    const from = /^\s*from\s+([\w.]+)\s+import\s+(.+)$/.exec(line);
    if (from)
      return {
        locals: from[2]
          .replace(/[()]/g, "")
          .split(",")
          .map(
            (x) =>
              x
                .trim()
                .split(/\s+as\s+/)
                .pop() ?? "",
          ),
        specifier: from[1],
      };
    const imp = /^\s*import\s+(.+)$/.exec(line);
    return {
      locals: imp
        ? imp[1].split(",").map(
            (x) =>
              (
                x
                  .trim()
                  .split(/\s+as\s+/)
                  .pop() ?? ""
              ).split(".")[0],
          )
        : [],
      specifier: imp?.[1].trim() ?? null,
    };
  }
  if (language === "go") {
    const alias = /^\s*(?:import\s+)?(\w+)\s+"/.exec(line)?.[1];
    return { locals: spec ? [alias ?? spec.split("/").pop() ?? spec] : [], specifier: spec };
  }
  const locals: string[] = [];
  const named = /\{([^}]*)\}/.exec(line);
  if (named)
    for (const x of named[1].split(","))
      if (x.trim())
        locals.push(
          x
            .trim()
            .split(/\s+as\s+/)
            .pop() ?? "",
        );
  const ns = /\*\s+as\s+(\w+)/.exec(line);
  if (ns) locals.push(ns[1]);
  const def = /^\s*import\s+(?:type\s+)?(\w+)\s*(?:,|from)/.exec(line);
  if (def) locals.push(def[1]);
  return { locals: locals.filter(Boolean), specifier: spec };
}

/** Imports whose local name the body calls or dereferences. */
function importsCalled(file: SourceFile, body: { n: number; text: string }[], facts: TestFact[]): GatheredFacts["calledImports"] {
  const out: GatheredFacts["calledImports"] = [];
  const lines = file.text.split("\n");
  for (const imp of file.imports) {
    const { locals, specifier } = importBindings(imp, file.language);
    for (const local of locals) {
      const use = new RegExp(`(^|[^\\w$.])${local.replace(/\$/g, "\\$")}\\s*[.(]`);
      const at = body.find((b) => use.test(b.text));
      if (!at) continue;
      const importAt = lines.findIndex((l) => l.includes(imp.trim().split("\n")[0])) + 1;
      out.push({ local, importLine: imp, specifier });
      facts.push({ kind: "collaborator", text: `calls ${local} (${imp.trim()})`, path: file.path, line: at.n });
      if (importAt > 0) facts.push({ kind: "collaborator", text: `import ${imp.trim()}`, path: file.path, line: importAt });
    }
  }
  return out;
}

/** Errors thrown, raised or (Go) returned in the body, first occurrence of each type. */
export function thrown(language: string, body: { n: number; text: string }[]): ThrownError[] {
  const out: ThrownError[] = [];
  const add = (type: string, line: number) => {
    if (!out.some((t) => t.type === type)) out.push({ type, line });
  };
  for (const b of body) {
    if (language === "python") {
      const m = /(?:^|\s)raise\s+([A-Za-z_][\w.]*)/.exec(b.text);
      if (m) add(m[1], b.n);
    } else if (language === "go") {
      const m = /(?:^|[^\w.])return\s+(.+)$/.exec(b.text);
      if (!m) continue;
      const last = m[1].trim().split(/,\s*/).pop() ?? "";
      if (/^errors\.New\(/.test(last) || /^fmt\.Errorf\(/.test(last)) add(last.replace(/\s*\/\/.*$/, ""), b.n);
      else if (/^(\w+\.)?Err\w*$/.test(last) || /^&?\w+Error\{/.test(last)) add(last.replace(/\{.*$/, ""), b.n);
    } else {
      const m = /\bthrow\s+new\s+([A-Za-z_$][\w$.]*)/.exec(b.text);
      if (m) add(m[1], b.n);
    }
  }
  return out;
}
