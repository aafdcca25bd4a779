/**
 * Packs a local folder into a tar.gz for `POST /api/repos/{id}/archive`.
 *
 * In a git work tree the files are `git ls-files -co --exclude-standard` (tracked plus untracked
 * files that no ignore rule excludes), so ignored build output never leaves the machine.
 * Git has then applied the ignore rules as git does (to untracked files only), so the upload
 * says so (`?gitignore=applied`) and the server does not apply `.gitignore` to tracked files.
 * Elsewhere every file is sent, except `.git/` and `node_modules/` folders (these would be
 * skipped as vendored by the server anyway, and can be huge). The server applies all filters.
 */
import { execFileSync } from "node:child_process";
import { lstatSync, readdirSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { Writable } from "node:stream";
import { packTar } from "modern-tar/fs";

/** Folders never walked outside git. */
const WALK_SKIP_DIRS = new Set([".git", "node_modules"]);

/** Files of `dir` as `/`-separated relative paths, and how they were listed. */
export function listFolderFiles(dir: string): { files: string[]; via: "git" | "walk" } {
  if (isGitWorkTree(dir)) {
    const out = execFileSync("git", ["ls-files", "-z", "-co", "--exclude-standard"], { cwd: dir, maxBuffer: 1 << 30 });
    const listed = [...new Set(out.toString("utf8").split("\0").filter(Boolean))];
    // -c lists files deleted in the work tree too, and submodules as folders: keep files and links.
    const files = listed.filter((p) => {
      try {
        const st = lstatSync(join(dir, p));
        return st.isFile() || st.isSymbolicLink();
      } catch {
        return false;
      }
    });
    return { files, via: "git" };
  }
  const files: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const full = join(d, e.name);
      if (e.isDirectory()) {
        if (!WALK_SKIP_DIRS.has(e.name)) walk(full);
      } else if (e.isFile() || e.isSymbolicLink()) {
        files.push(relative(dir, full).split(sep).join("/"));
      }
    }
  };
  walk(dir);
  return { files, via: "walk" };
}

function isGitWorkTree(dir: string): boolean {
  try {
    return (
      execFileSync("git", ["rev-parse", "--is-inside-work-tree"], { cwd: dir, stdio: ["ignore", "pipe", "ignore"] })
        .toString()
        .trim() === "true"
    );
  } catch {
    return false;
  }
}

/** Packs `files` (relative to `dir`) into a gzip-compressed tar held in memory. Symlinks stay links. */
export async function packFolder(dir: string, files: readonly string[]): Promise<Buffer> {
  const sources = files.map((p) => ({ type: "file" as const, source: join(dir, p), target: p }));
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk);
      done();
    },
  });
  await pipeline(packTar(sources), createGzip({ level: 6 }), sink);
  return Buffer.concat(chunks);
}
