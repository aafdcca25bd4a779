/**
 * @module durable-objects/archive-intake
 *
 * An archive upload's first step in the coordinator: read the body (bounded), check the whole
 * archive, then claim the repo id as an archive repo. Nothing is created before the archive
 * proved valid. Errors come back as values, since RPC keeps only an error's message.
 */
import { archiveSnapshot } from "../indexer/source/archive-snapshot";
import type { StripOption } from "../indexer/source/archive-paths";
import type { SourceSnapshot } from "../indexer/source/snapshot";
import { claimArchiveRepo } from "../indexer/store/d1/snapshots";
import { BodyTooLargeError, readBounded } from "../kernel/bounded-body";
import type { CoordinatorError } from "../kernel/coordinator";
import { loadConfig, type Env } from "../kernel/env";
import { CodeSearchError } from "../kernel/errors";

async function readLimited(body: ReadableStream<Uint8Array>, maxBytes: number): Promise<Uint8Array> {
  try {
    return await readBounded(body, maxBytes);
  } catch (err) {
    if (!(err instanceof BodyTooLargeError)) throw err;
    throw new CodeSearchError(
      "payload_too_large",
      `The archive is larger than ${maxBytes} bytes; leave build output and dependencies out, or raise the limit.`,
    );
  }
}

/**
 * Reads and checks an uploaded archive for `repo` and creates its `repos` row when absent.
 * Returns the snapshot, or `payload_too_large`, `archive_invalid`, `invalid_input` (the id is a
 * git repo) as a value.
 */
export async function takeArchive(
  env: Env,
  repo: string,
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  strip: StripOption,
  tracked: boolean,
  now: number,
): Promise<SourceSnapshot | CoordinatorError> {
  try {
    const bytes = await readLimited(body, maxBytes);
    const snapshot = { ...(await archiveSnapshot(bytes, { maxFileBytes: loadConfig(env).maxFileBytes }, strip)), tracked };
    const kind = await claimArchiveRepo(env.DB, repo, now);
    if (kind !== "archive") {
      return {
        error: { code: "invalid_input", message: `Repo "${repo}" is a git repo; use POST /api/repos/${repo}/refresh, or upload under another id.` },
      };
    }
    return snapshot;
  } catch (err) {
    if (err instanceof CodeSearchError) return { error: { code: err.code, message: err.message } };
    throw err;
  }
}
