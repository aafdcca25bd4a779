/**
 * The local Cron Trigger of `npm start`. wrangler dev fires no cron by itself ("Scheduled
 * Workers are not automatically triggered during local development"); with `--test-scheduled`
 * it runs the Worker's `scheduled` handler on `GET /__scheduled?cron=...`. This ticker calls that
 * at the times wrangler.toml's `[triggers] crons` name (in UTC, as Cloudflare runs them), so git
 * polling, connection syncs and grace-period removals happen locally as they do when deployed.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Cron } from "croner";
import { parse } from "smol-toml";
import { PROJECT_ROOT } from "./paths.ts";

/** The cron expressions of wrangler.toml's top-level `[triggers]` (what `npm start` runs). */
export function configuredCrons(file = join(PROJECT_ROOT, "wrangler.toml")): string[] {
  const toml = parse(readFileSync(file, "utf8")) as { triggers?: { crons?: unknown } };
  const crons = toml.triggers?.crons;
  return Array.isArray(crons) ? crons.filter((c): c is string => typeof c === "string") : [];
}

/** A running ticker. */
export interface Ticker {
  /** Next time (ms) any of the crons fires; null when none will. */
  next(): number | null;
  /** Stops every cron; no tick starts after this. */
  stop(): void;
}

/**
 * Calls `{base}/__scheduled?cron=<expr>` whenever one of `crons` fires. `log` gets one line per
 * failed tick (a tick's own errors are in the Worker's log). Throws on an invalid expression.
 */
export function startTicker(base: string, crons: string[], log: (line: string) => void): Ticker {
  const jobs = crons.map(
    (cron) =>
      new Cron(cron, { utcOffset: 0, protect: true }, async () => {
        try {
          const res = await fetch(`${base}/__scheduled?cron=${encodeURIComponent(cron)}`, { signal: AbortSignal.timeout(60_000) });
          await res.body?.cancel();
          if (!res.ok) log(`scheduled tick (${cron}) answered ${res.status}; is wrangler dev running with --test-scheduled?`);
        } catch (err) {
          log(`scheduled tick (${cron}) failed: ${err instanceof Error ? err.message : String(err)}`);
        }
      }),
  );
  return {
    next() {
      const times = jobs.map((j) => j.nextRun()?.getTime()).filter((t): t is number => t !== undefined);
      return times.length ? Math.min(...times) : null;
    },
    stop() {
      for (const j of jobs) j.stop();
    },
  };
}
