/**
 * @module durable-objects/ref-queue
 *
 * How one RepoCoordinator runs several refs (docs/refs.md): one job at a time, and a queue of
 * the refs waiting for it. A request for the ref whose job runs follows job-state.ts
 * (`requestRefresh`: absorbed, or one `pending` follow-up); a request for another ref joins this
 * queue, once per ref (a newer request for a queued ref keeps its place and takes the newer
 * commit). When a job ends, its own follow-up joins the queue's tail, then the head starts: no
 * ref waits behind another ref's repeated pushes. Pure functions over plain data.
 */

/** A ref waiting for a job. `target`: the extra ref's full name, null for the default ref. */
export interface RefRequest {
  target: string | null;
  /** The commit a push announced, or null for "the ref's tip". */
  commit: string | null;
  /** ms since epoch of the newest request. */
  requestedAt: number;
}

/** The queue with `req` added (or merged into the same ref's entry, which keeps its place). */
export function enqueueRef(queue: readonly RefRequest[], req: RefRequest): RefRequest[] {
  const i = queue.findIndex((q) => q.target === req.target);
  if (i < 0) return [...queue, req];
  const merged = { ...queue[i], commit: req.commit ?? queue[i].commit, requestedAt: Math.max(queue[i].requestedAt, req.requestedAt) };
  return queue.map((q, j) => (j === i ? merged : q));
}

/** The queue without the extra refs in `names` (untracked, or deleted on the remote). */
export function dropRefs(queue: readonly RefRequest[], names: ReadonlySet<string>): RefRequest[] {
  return queue.filter((q) => q.target === null || !names.has(q.target));
}

/** The next request and the rest of the queue ([null, []] when empty). */
export function takeNext(queue: readonly RefRequest[]): [RefRequest | null, RefRequest[]] {
  return queue.length ? [queue[0], queue.slice(1)] : [null, []];
}
