/**
 * @module kernel/job-status
 *
 * The statuses of a repo's index job: the one list the coordinator's state machine, D1
 * `repos.status`, the API's schemas, the web page and the CLI all use.
 */

/** Status of a repo's index job, mirrored into D1 `repos.status` and shown by the API. */
export const JOB_STATUSES = ["queued", "fetching", "indexing", "ready", "failed"] as const;

/** One of `JOB_STATUSES`. */
export type JobStatus = (typeof JOB_STATUSES)[number];
