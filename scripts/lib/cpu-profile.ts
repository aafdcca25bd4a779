/**
 * @module scripts/lib/cpu-profile
 *
 * Summaries of a V8 CPU profile (the `Profiler.stop` result of the Chrome DevTools Protocol)
 * recorded in a Worker's isolate: self time by source module and inclusive time of the
 * functions that took most. Used by scripts/profile-index.ts.
 */

/** The parts of a `Profiler.Profile` read here; times in microseconds. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** Where a source module starts in a bundle (0-based line). */
export interface BundleModule {
  line: number;
  module: string;
}

/**
 * The module markers of an unminified esbuild bundle (`// indexer/chunk/parser.ts` before each
 * module's code), in line order.
 */
export function bundleModules(bundle: string): BundleModule[] {
  const out: BundleModule[] = [];
  bundle.split("\n").forEach((text, line) => {
    const m = /^\/\/ ((?:\.\.\/)*[\w@.\-/]+\.(?:ts|js|mjs|cjs|wasm))$/.exec(text);
    if (m) out.push({ line, module: m[1]!.replace(/^(\.\.\/)+/, "").replace(/^.*node_modules\//, "node_modules/") });
  });
  return out;
}

function moduleAt(modules: BundleModule[], line: number): string | null {
  let lo = 0;
  let hi = modules.length - 1;
  let found: string | null = null;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (modules[mid]!.line <= line) {
      found = modules[mid]!.module;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** A short label of a node library's module: its package name. */
function packageOf(module: string): string {
  const m = /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(module);
  return m ? m[1]! : module;
}

const ms = (us: number) => (us / 1000).toFixed(0).padStart(7);

/**
 * A text report: total sampled time, self time by module (node_modules folded to packages;
 * `(garbage collector)`, `(program)` and `(idle)` kept as V8 names them), and inclusive time of
 * the `top` functions (each counted once per sample however deep it recurses).
 */
export function summariseProfile(profile: CpuProfile, modules: BundleModule[], top = 30): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (id: number): { module: string; fn: string } => {
    const f = byId.get(id)!.callFrame;
    if (!f.url) return { module: f.functionName || "(anonymous)", fn: f.functionName };
    const mod = modules.length ? (moduleAt(modules, f.lineNumber) ?? "(bundle)") : f.url;
    return { module: packageOf(mod), fn: `${f.functionName || "(anonymous)"} ${mod.replace(/^node_modules\//, "")}` };
  };
  const selfByModule = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  let idle = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    const leaf = label(id);
    if (leaf.module === "(idle)") {
      idle += dt;
      return;
    }
    total += dt;
    selfByModule.set(leaf.module, (selfByModule.get(leaf.module) ?? 0) + dt);
    const seen = new Set<string>();
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
      const fn = label(n).fn;
      if (!fn || seen.has(fn)) continue;
      seen.add(fn);
      inclusive.set(fn, (inclusive.get(fn) ?? 0) + dt);
    }
  });
  const rows = (m: Map<string, number>) =>
    [...m]
      .sort((x, y) => y[1] - x[1])
      .slice(0, top)
      .map(([k, v]) => `${ms(v)} ms ${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`)
      .join("\n");
  return [
    `profiled (isolate busy) ${ms(total).trim()} ms, idle ${ms(idle).trim()} ms`,
    `self time by module:\n${rows(selfByModule)}`,
    `inclusive time by function:\n${rows(inclusive)}`,
  ].join("\n\n");
}
