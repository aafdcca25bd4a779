/**
 * @module durable-objects/plan
 *
 * Turns a source snapshot into work: filters every tree entry, lets files whose version is
 * already indexed join the new snapshot as they are, and stages the bytes of new or changed
 * files into batches of the ledger. Content checks (binary, secrets, size) run here, before a
 * file costs a queue message, so a skipped file is never staged nor sent.
 */
import { fileId } from "../indexer/store/contract";
import { createFileFilter, escapeUnsafePath, type IgnoreFile, type Skip } from "../indexer/filter";
import type { SourceSnapshot } from "../indexer/source/snapshot";
import type { JobEvent } from "./job-state";
import { addBatch, addMember, addSkipped, stageFile } from "./ledger";

/** Most files per batch: one consumer call chunks, embeds and writes them in one go. */
export const BATCH_MAX_FILES = 40;
/** Most staged bytes per batch: bounds consumer memory and the RPC that hands the batch over. */
export const BATCH_MAX_BYTES = 2 * 1024 * 1024;

/** Files, and bytes, whose content is checked together (one secretlint pass; bounds memory). */
const CONTENT_GROUP_FILES = 64;
const CONTENT_GROUP_BYTES = 1024 * 1024;

/** Inputs of `planSnapshot`. */
export interface PlanOptions {
  repo: string;
  jobId: string;
  maxFileBytes: number;
  /** File ids already in D1; empty to re-index everything (e.g. the embedding model changed). */
  known: Set<string>;
}

/** Counts for the `planned` job event (its payload, without `type`). */
export type PlanResult = Omit<Extract<JobEvent, { type: "planned" }>, "type">;

function basename(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/**
 * Plans a job over `snapshot`, writing staged files, ledger rows (state `pending`) and the
 * members that need no work into the coordinator's SQLite. Returns the counts.
 */
export async function planSnapshot(sql: SqlStorage, snapshot: SourceSnapshot, o: PlanOptions): Promise<PlanResult> {
  const decoder = new TextDecoder();
  const ignoreFiles: IgnoreFile[] = [];
  // Git ignores untracked files only: in a tree of tracked files no .gitignore applies.
  for (const e of snapshot.tracked ? [] : snapshot.entries) {
    if (basename(e.path) === ".gitignore" && (e.mode === "100644" || e.mode === "100755")) {
      ignoreFiles.push({ path: e.path, content: decoder.decode(await snapshot.readBlob(e.blobSha)) });
    }
  }
  const filter = createFileFilter({ maxFileBytes: o.maxFileBytes, ignoreFiles, paths: snapshot.entries.map((e) => e.path) });
  const skipped: Record<string, number> = {};
  const skip = (path: string, s: Skip) => {
    skipped[s.reason] = (skipped[s.reason] ?? 0) + 1;
    // A path with a newline, ESC or bidi override is recorded escaped (path-safety.ts).
    addSkipped(sql, o.jobId, { path: escapeUnsafePath(path), reason: s.reason, rule: s.rule });
  };
  const encoder = new TextEncoder();
  let unchanged = 0;
  let queued = 0;
  let batchId = 0;
  let batchFiles = 0;
  let batchBytes = 0;
  const closeBatch = () => {
    if (batchFiles === 0) return;
    addBatch(sql, o.jobId, batchId, batchFiles, batchBytes);
    batchId += 1;
    batchFiles = 0;
    batchBytes = 0;
  };
  // Content checks run over groups of files: secretlint scans a group in one pass (secret-scan.ts).
  let group: { path: string; blobSha: string; id: string; raw: Uint8Array }[] = [];
  let groupBytes = 0;
  const flushGroup = async () => {
    const verdicts = await filter.checkContents(group.map((g) => ({ path: g.path, bytes: g.raw })));
    group.forEach((g, i) => {
      const verdict = verdicts[i];
      if ("skip" in verdict) return skip(g.path, verdict.skip);
      // The consumer decodes staged bytes as UTF-8: hand it the decoded text (BOM gone, UTF-16
      // and legacy encodings converted); plain UTF-8 files go as they are.
      const plain = verdict.encoding === "utf-8" && !(g.raw[0] === 0xef && g.raw[1] === 0xbb && g.raw[2] === 0xbf);
      const bytes = plain ? g.raw : encoder.encode(verdict.text);
      if (batchFiles > 0 && (batchFiles >= BATCH_MAX_FILES || batchBytes + bytes.byteLength > BATCH_MAX_BYTES)) closeBatch();
      stageFile(sql, o.jobId, batchId, { path: g.path, blobSha: g.blobSha, fileId: g.id, bytes });
      batchFiles += 1;
      batchBytes += bytes.byteLength;
      queued += 1;
    });
    group = [];
    groupBytes = 0;
  };
  for (const e of snapshot.entries) {
    const byEntry = filter.checkEntry({ path: e.path, mode: e.mode, size: e.size ?? 0 });
    if (byEntry) {
      skip(e.path, byEntry);
      continue;
    }
    const id = await fileId(o.repo, e.path, e.blobSha);
    if (o.known.has(id)) {
      addMember(sql, o.jobId, e.path, id);
      unchanged += 1;
      continue;
    }
    const raw = await snapshot.readBlob(e.blobSha);
    group.push({ path: e.path, blobSha: e.blobSha, id, raw });
    groupBytes += raw.byteLength;
    if (group.length >= CONTENT_GROUP_FILES || groupBytes >= CONTENT_GROUP_BYTES) await flushGroup();
  }
  await flushGroup();
  closeBatch();
  return { commit: snapshot.commit, filesTotal: snapshot.entries.length, filesQueued: queued, unchanged, batches: batchId, skipped };
}
