/**
 * @module evals/lib/git-export
 *
 * Writes the tree of one commit of a bare repository into a folder (Node only). The fast path is
 * `git archive | tar -x`. Stored mirrors may lack some blobs (large data files left out of a
 * snapshot), which makes `git archive` fail as a whole; then the tree is written file by file
 * from `git ls-tree` and `git cat-file --batch`, skipping the missing blobs and naming them.
 */
import { execFileSync, execSync } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** What `exportTree` wrote. */
export interface ExportResult {
  /** `archive` (git archive) or `blobs` (file by file, after git archive failed). */
  method: "archive" | "blobs";
  /** Paths left out because their blob is not in the repository. */
  missing: string[];
}

/**
 * Exports `commit` of the repository at `gitDir` into `folder` (created; emptied first when the
 * fast path failed half-way). Throws when the commit itself cannot be read.
 */
export function exportTree(gitDir: string, commit: string, folder: string): ExportResult {
  mkdirSync(folder, { recursive: true });
  try {
    execSync(`git --git-dir=${JSON.stringify(gitDir)} archive ${commit} | tar -x -C ${JSON.stringify(folder)}`, {
      stdio: ["ignore", "ignore", "pipe"],
      shell: "/bin/bash",
      env: { ...process.env, SHELLOPTS: "pipefail" },
    });
    return { method: "archive", missing: [] };
  } catch {
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
  }
  const listing = execFileSync("git", [`--git-dir=${gitDir}`, "ls-tree", "-r", "-z", commit], { maxBuffer: 2 ** 30 }).toString("utf8");
  // Regular files and symlinks; submodules (`commit` entries) have no content here.
  const entries = listing
    .split("\0")
    .filter(Boolean)
    .map((line) => {
      const tab = line.indexOf("\t");
      const [mode, type, sha] = line.slice(0, tab).split(" ");
      return { mode, type, sha, path: line.slice(tab + 1) };
    })
    .filter((e) => e.type === "blob");
  const out = execFileSync("git", [`--git-dir=${gitDir}`, "cat-file", "--batch"], {
    input: entries.map((e) => e.sha).join("\n") + "\n",
    maxBuffer: 2 ** 31,
  });
  const missing: string[] = [];
  let pos = 0;
  for (const e of entries) {
    const nl = out.indexOf(10, pos);
    const header = out.subarray(pos, nl).toString("utf8");
    pos = nl + 1;
    if (header.endsWith(" missing")) {
      missing.push(e.path);
      continue;
    }
    const size = Number(header.split(" ")[2]);
    const body = out.subarray(pos, pos + size);
    pos += size + 1; // the blob is followed by a newline
    const target = join(folder, e.path);
    mkdirSync(dirname(target), { recursive: true });
    if (e.mode === "120000") symlinkSync(body.toString("utf8"), target);
    else writeFileSync(target, body, { mode: e.mode === "100755" ? 0o755 : 0o644 });
  }
  return { method: "blobs", missing };
}
