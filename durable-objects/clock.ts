/**
 * @module durable-objects/clock
 *
 * The coordinator's source of time. Every decision the coordinator takes about time (stall
 * checks, retry alarms, timestamps in the job state) reads `clock.now()`, so a test can move
 * time on instead of waiting for it.
 */

/** Milliseconds since the epoch, like `Date.now()`. */
export interface Clock {
  now(): number;
}

/** Wall-clock time. */
export const systemClock: Clock = { now: () => Date.now() };

/** A clock that stands still until moved: `advance(ms)`, `set(ms)`. For tests. */
export class ManualClock implements Clock {
  constructor(private ms: number) {}
  now(): number {
    return this.ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
  set(ms: number): void {
    this.ms = ms;
  }
}
