/**
 * Indexing a source from the command line, shared by `npm start` and `codebase-copilot index`:
 * a git URL is registered (`POST /api/repos`), a local folder is packed and uploaded
 * (`POST /api/repos/{id}/archive`), then the status is followed until ready or failed.
 */
import { existsSync, statSync } from "node:fs";
import type { ApiClient, RegisterOutcome, RepoStatus } from "./api-client.ts";
import { UsageError } from "./cli-common.ts";
import { listFolderFiles, packFolder } from "./pack-folder.ts";
import { createProgressPrinter } from "./progress.ts";
import { isGitUrl, repoIdForFolder, toRepoId } from "./repo-id.ts";

/** Status poll interval while indexing. */
export const POLL_MS = 500;

/** What to index: a git URL or an absolute folder path, with an optional repo id and ref. */
export interface IndexRequest {
  source: string;
  name?: string;
  ref?: string;
}

/**
 * Why `source` (a git URL or a folder path, as the user typed it) cannot be indexed, in words
 * that say what to give instead; null when it is a git URL or an existing folder. `dir` is the
 * folder it names (npm start resolves it against the caller's folder). A host/path without a
 * scheme (`github.com/owner/repo`) gets the https URL it probably means.
 */
export function sourceProblem(source: string, dir = source): string | null {
  if (isGitUrl(source) || (existsSync(dir) && statSync(dir).isDirectory())) return null;
  const hint = /^[\w-]+(\.[\w-]+)+\/[^\s]+$/.test(source) ? ` (a git URL needs its scheme: https://${source.replace(/\.git$/, "")}.git)` : "";
  return `"${source}" is neither a git URL nor an existing folder${hint}. Give a folder path, or a git URL such as https://github.com/owner/repo.git.`;
}

/**
 * Starts indexing `req.source`. Folders are listed by `git ls-files` in a work tree (tracked and
 * unignored untracked files), else walked. `log` receives one human line about what is sent.
 * @returns the status the API answered with; its `id` is the repo id.
 * @throws UsageError (exit 2) when a non-URL source is not an existing folder; ApiError from the API.
 */
export async function startIndexing(api: ApiClient, req: IndexRequest, log: (line: string) => void): Promise<RegisterOutcome> {
  if (isGitUrl(req.source)) {
    const id = toRepoId(req.name ?? req.source);
    // With --ref, a repo that exists already gets the ref added beside its default branch (register-url.ts): say so.
    const existing = req.ref !== undefined ? await api.status(id).catch(() => null) : null;
    log(existing ? `Adding ref ${req.ref} to the existing repo "${existing.id}" (${req.source}) ...` : `Registering ${req.source} ...`);
    const started = await api.registerUrl(req.source, { ref: req.ref, name: req.name });
    return { ...started, id: started.id ?? id };
  }
  const problem = sourceProblem(req.source);
  if (problem) throw new UsageError(problem);
  const id = req.name ?? repoIdForFolder(req.source);
  const { files, via } = listFolderFiles(req.source);
  const tarGz = await packFolder(req.source, files);
  log(
    `Uploading ${files.length} files of ${req.source} (listed by ${via === "git" ? "git ls-files" : "walking the folder"}, ${(tarGz.length / 1048576).toFixed(1)} MiB tar.gz) as repo "${id}" ...`,
  );
  // Listed by git: git applied .gitignore to untracked files only, so the server must not apply it again.
  const started = await api.uploadArchive(id, tarGz, { listedByGit: via === "git" });
  return { ...started, id: started.id ?? id };
}

/**
 * Polls the repo status, drawing progress on `out` (a bar on a TTY, changed lines otherwise),
 * until the job is ready or failed.
 */
export async function followProgress(api: ApiClient, id: string, out: NodeJS.WriteStream, pollMs = POLL_MS): Promise<RepoStatus> {
  const printer = createProgressPrinter(out);
  for (;;) {
    const s = await api.status(id);
    printer.update(s);
    if (s.status === "ready" || s.status === "failed") {
      printer.done();
      return s;
    }
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

/** The last error of a status as one line. */
export function errorText(s: RepoStatus): string {
  return typeof s.lastError === "string" ? s.lastError : (s.lastError?.message ?? s.lastError?.code ?? "unknown error");
}

/**
 * Polls the repo status until each ref `--ref` tracks (`tracked`) is indexed at the commit the
 * remote had (`ready`) or its job failed. Returns the last status and the refs that failed.
 */
export async function followTracked(
  api: ApiClient,
  id: string,
  tracked: NonNullable<RegisterOutcome["tracked"]>,
  pollMs = POLL_MS,
): Promise<{ status: RepoStatus; failed: { name: string; error: string }[] }> {
  for (;;) {
    const s = await api.status(id);
    const rows = tracked.map((t) => ({ t, row: s.refs?.find((r) => r.name === t.name) }));
    const failed = rows.filter(({ row }) => row?.status === "failed").map(({ t, row }) => ({ name: t.name, error: row?.lastError ?? "unknown error" }));
    const pending = rows.filter(({ t, row }) => row?.status !== "failed" && !(row?.status === "ready" && row.commit === t.commit));
    // A ref untracked meanwhile (no row) counts as failed: it was not indexed.
    const gone = rows.filter(({ row }) => !row).map(({ t }) => ({ name: t.name, error: "no longer tracked" }));
    if (gone.length) return { status: s, failed: [...failed, ...gone] };
    if (pending.length === 0) return { status: s, failed };
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
