/**
 * @module durable-objects/batch-lease
 *
 * When the coordinator sends a queued batch again, as pure decisions over its ledger rows
 * (`now` passed in). A consumer takes a batch by asking for its files and then renews a short
 * lease with a heartbeat while it works (`BATCH_HEARTBEAT_MS`, kernel/coordinator.ts); the
 * coordinator's alarm sends a batch again when its lease runs out, when nobody took it for a
 * long time, or at once when it was sent before the coordinator restarted and nobody took it.
 */
import { BATCH_HEARTBEAT_MS } from "../kernel/coordinator";

/**
 * A batch a consumer took (asked for its files) and whose lease was not renewed for this long
 * is sent again (ms). Consumers renew it every `BATCH_HEARTBEAT_MS` (5 s) while they work, so
 * a slow batch (well over a minute under load) keeps its lease, and one whose consumer died
 * (a crash, a killed runtime) is sent again after about 20 s: four missed heartbeats, so one
 * late beat under load does not cause a duplicate. A duplicate delivery is harmless (writes
 * are upserts, acks are idempotent) but adds load.
 */
export const BATCH_LEASE_MS = 20_000;
/**
 * A heartbeat counts as missed this long after the last one (ms; one interval plus 2 s of
 * timer slack): from then on the status says the job is waiting for that batch.
 */
export const BATCH_BEAT_MISSED_MS = BATCH_HEARTBEAT_MS + 2_000;
/**
 * A batch this coordinator instance sent this long ago and not yet taken by any consumer is
 * sent again (ms): the message may have been lost. Counted from the send, not from the job's
 * start, so a long queue (2,000 files in 100 batches) waits without being re-sent: re-sending
 * waiting batches only lengthens the queue (the congestion collapse seen before the lease:
 * batches failed after 4 sends at 45 s each while they were still queued). A batch sent by an
 * earlier instance (before a restart) is not waited for: see `BatchSendState.sentByThisInstance`.
 */
export const BATCH_QUEUE_WAIT_MS = 10 * 60_000;
/** Sends of one batch before its files are given up on as `index_failed`. */
export const BATCH_MAX_SENDS = 4;
/** How often a running job checks for stalled batches (ms); well under `BATCH_LEASE_MS`. */
export const STALL_CHECK_MS = 5_000;

/** The ledger fields `stallStep` reads, and whether this coordinator instance sent the batch. */
export interface BatchSendState {
  batchId: number;
  state: "pending" | "enqueued" | "done" | "failed";
  attempts: number;
  /** Last send (ms). */
  enqueuedAt: number;
  /** Last time a consumer took it or renewed its lease since that send (ms; 0: not taken). */
  startedAt: number;
  /**
   * The last send was made by the running coordinator instance. False after the coordinator
   * restarted: locally the whole runtime restarted with it and the queue's messages, which live
   * in memory, are gone, so an untaken batch is sent again at once rather than after
   * `BATCH_QUEUE_WAIT_MS`. On Cloudflare, where the queue keeps its messages, this costs one
   * duplicate per waiting batch after a restart, which the ledger then ignores.
   */
  sentByThisInstance: boolean;
}

/** When an enqueued batch is due to be sent again (ms); `now` for one sent before a restart. */
export function resendAt(b: BatchSendState, now: number): number {
  if (b.startedAt > 0) return b.startedAt + BATCH_LEASE_MS;
  return b.sentByThisInstance ? b.enqueuedAt + BATCH_QUEUE_WAIT_MS : now;
}

/**
 * Whether an enqueued batch is overdue at `now`: its lease ran out (no heartbeat for
 * `BATCH_LEASE_MS`), nobody took it in time, or it was sent before a restart and not taken since.
 */
export function isOverdue(b: BatchSendState, now: number): boolean {
  if (b.state !== "enqueued") return false;
  if (b.startedAt === 0 && !b.sentByThisInstance) return true;
  return now > resendAt(b, now);
}

/** Whether an enqueued batch is late at `now`: overdue, or taken and a heartbeat missed. */
export function isLate(b: BatchSendState, now: number): boolean {
  if (b.state !== "enqueued") return false;
  return isOverdue(b, now) || (b.startedAt > 0 && now - b.startedAt > BATCH_BEAT_MISSED_MS);
}

/** Which unsettled batches to send again and which to give up on at `now` (ms). */
export function stallStep(batches: readonly BatchSendState[], now: number): { resend: number[]; giveUp: BatchSendState[] } {
  const stalled = batches.filter((b) => b.state === "pending" || isOverdue(b, now));
  return {
    resend: stalled.filter((b) => b.attempts < BATCH_MAX_SENDS).map((b) => b.batchId),
    giveUp: stalled.filter((b) => b.attempts >= BATCH_MAX_SENDS),
  };
}
