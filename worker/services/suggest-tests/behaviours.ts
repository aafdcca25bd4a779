/**
 * @module worker/services/suggest-tests/behaviours
 *
 * The behaviours one skeleton tests: the normal return, each thrown error, each early return.
 */
import type { GatheredFacts } from "./types";

/** One behaviour: what to test and the line it was found at. */
export interface Behaviour {
  kind: "returns" | "throws" | "early_return";
  /** Error type for `throws`, the return statement for `early_return`. */
  detail: string;
  line: number;
  /** A word-safe suffix for test names (e.g. "throws_RangeError"). */
  slug: string;
}

/** Behaviours of `f`, the normal return first. */
export function behavioursOf(f: GatheredFacts): Behaviour[] {
  const lines = f.file.text.split("\n");
  const out: Behaviour[] = [{ kind: "returns", detail: f.returnType ?? "result", line: f.target.startLine, slug: "returns" }];
  for (const t of f.throws) out.push({ kind: "throws", detail: t.type, line: t.line, slug: `throws_${t.type.replace(/\W+/g, "_").replace(/_+$/, "")}` });
  f.earlyReturns.forEach((n, i) => out.push({ kind: "early_return", detail: lines[n - 1].trim(), line: n, slug: `early_return_${i + 1}` }));
  return out;
}

/** A test description for the behaviour, citing its line. */
export function describeBehaviour(b: Behaviour, path: string): string {
  const at = `${path}:${b.line}`;
  if (b.kind === "returns") return `returns ${b.detail} (${at})`;
  if (b.kind === "throws") return `fails with ${b.detail} (${at})`;
  return `returns early: ${b.detail} (${at})`;
}
