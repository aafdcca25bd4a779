/**
 * @module indexer/source/memory-fs
 *
 * The smallest in-memory promise file system isomorphic-git needs (`readFile`, `writeFile`,
 * `mkdir`, `rmdir`, `unlink`, `stat`, `lstat`, `readdir`, `readlink`, `symlink`). Workers have
 * no disk, and a shallow fetch only writes a handful of files (config, refs, one packfile and
 * its index), so a Map of path -> bytes is enough. npm's `memfs` pulls in Node streams and
 * event emitters; this is 100 lines with no dependency.
 *
 * Errors carry Node's `code` (`ENOENT`, `EEXIST`, `ENOTDIR`, `ENOTEMPTY`, `EISDIR`), which is
 * how isomorphic-git tells "missing" from "broken".
 */

/** Node's Buffer (global under `nodejs_compat`): isomorphic-git reads pack files with Buffer methods. */
const NodeBuffer = (globalThis as unknown as { Buffer: { from(data: ArrayBufferLike, byteOffset: number, length: number): Uint8Array } }).Buffer;

type Node = { kind: "file"; data: Uint8Array; mtimeMs: number } | { kind: "dir"; mtimeMs: number } | { kind: "symlink"; target: string; mtimeMs: number };

function fsError(code: string, op: string, path: string): Error {
  return Object.assign(new Error(`${code}: ${op} '${path}'`), { code, path });
}

const NO_PATH = Object.assign(new Error("EINVAL: readFile without a path"), { code: "EINVAL" });

function normalize(path: string): string {
  const parts: string[] = [];
  for (const p of path.split("/")) {
    if (p === "" || p === ".") continue;
    if (p === "..") parts.pop();
    else parts.push(p);
  }
  return `/${parts.join("/")}`;
}

function parentOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i <= 0 ? "/" : path.slice(0, i);
}

/** Stat result in the shape isomorphic-git reads (Node's `fs.Stats` subset). */
class MemoryStats {
  readonly dev = 1;
  readonly uid = 1;
  readonly gid = 1;
  readonly ctimeMs: number;
  constructor(
    readonly type: Node["kind"],
    readonly mode: number,
    readonly size: number,
    readonly ino: number,
    readonly mtimeMs: number,
  ) {
    this.ctimeMs = mtimeMs;
  }
  isFile(): boolean {
    return this.type === "file";
  }
  isDirectory(): boolean {
    return this.type === "dir";
  }
  isSymbolicLink(): boolean {
    return this.type === "symlink";
  }
}

/** An in-memory file system for isomorphic-git: pass `{ fs: new MemoryFs() }`. */
export class MemoryFs {
  readonly #nodes = new Map<string, Node>([["/", { kind: "dir", mtimeMs: 0 }]]);
  readonly #inodes = new Map<string, number>();

  /** Total bytes held in files (to report memory use). */
  get byteSize(): number {
    let n = 0;
    for (const node of this.#nodes.values()) if (node.kind === "file") n += node.data.byteLength;
    return n;
  }

  #dirOf(path: string, op: string): void {
    const parent = this.#nodes.get(parentOf(path));
    if (!parent) throw fsError("ENOENT", op, path);
    if (parent.kind !== "dir") throw fsError("ENOTDIR", op, path);
  }

  async readFile(path: string, options?: { encoding?: string } | string): Promise<Uint8Array | string> {
    // isomorphic-git probes every fs it wraps (on every call) with `readFile()`: one shared
    // error, as building one with its stack each time took 6 % of a history extraction
    // (`npm run bench:history`, sympy).
    if (typeof path !== "string") throw NO_PATH;
    const p = normalize(path);
    const node = this.#nodes.get(p);
    if (!node) throw fsError("ENOENT", "open", p);
    if (node.kind === "dir") throw fsError("EISDIR", "read", p);
    if (node.kind === "symlink") return this.readFile(node.target, options);
    const encoding = typeof options === "string" ? options : options?.encoding;
    // A view, not a copy: a history fetch's pack is tens of MB, and isomorphic-git reads it
    // (and never writes into what it read).
    return encoding ? new TextDecoder().decode(node.data) : NodeBuffer.from(node.data.buffer, node.data.byteOffset, node.data.byteLength);
  }

  async writeFile(path: string, data: Uint8Array | string): Promise<void> {
    const p = normalize(path);
    this.#dirOf(p, "open");
    if (this.#nodes.get(p)?.kind === "dir") throw fsError("EISDIR", "open", p);
    // Kept as given (isomorphic-git does not reuse a buffer it wrote): copying the pack would
    // hold it twice.
    const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
    this.#nodes.set(p, { kind: "file", data: bytes, mtimeMs: Date.now() });
  }

  async mkdir(path: string): Promise<void> {
    const p = normalize(path);
    if (this.#nodes.has(p)) throw fsError("EEXIST", "mkdir", p);
    this.#dirOf(p, "mkdir");
    this.#nodes.set(p, { kind: "dir", mtimeMs: Date.now() });
  }

  async rmdir(path: string): Promise<void> {
    const p = normalize(path);
    const node = this.#nodes.get(p);
    if (!node) throw fsError("ENOENT", "rmdir", p);
    if (node.kind !== "dir") throw fsError("ENOTDIR", "rmdir", p);
    if ((await this.readdir(p)).length > 0) throw fsError("ENOTEMPTY", "rmdir", p);
    this.#nodes.delete(p);
  }

  async unlink(path: string): Promise<void> {
    const p = normalize(path);
    const node = this.#nodes.get(p);
    if (!node) throw fsError("ENOENT", "unlink", p);
    if (node.kind === "dir") throw fsError("EISDIR", "unlink", p);
    this.#nodes.delete(p);
  }

  async readdir(path: string): Promise<string[]> {
    const p = normalize(path);
    const node = this.#nodes.get(p);
    if (!node) throw fsError("ENOENT", "scandir", p);
    if (node.kind !== "dir") throw fsError("ENOTDIR", "scandir", p);
    const prefix = p === "/" ? "/" : `${p}/`;
    const names: string[] = [];
    for (const key of this.#nodes.keys()) {
      if (key !== p && key.startsWith(prefix) && !key.slice(prefix.length).includes("/")) names.push(key.slice(prefix.length));
    }
    return names.sort();
  }

  async lstat(path: string): Promise<MemoryStats> {
    const p = normalize(path);
    const node = this.#nodes.get(p);
    if (!node) throw fsError("ENOENT", "lstat", p);
    let ino = this.#inodes.get(p);
    if (ino === undefined) this.#inodes.set(p, (ino = this.#inodes.size + 1));
    const mode = node.kind === "dir" ? 0o40755 : node.kind === "symlink" ? 0o120000 : 0o100644;
    const size = node.kind === "file" ? node.data.byteLength : node.kind === "symlink" ? node.target.length : 0;
    return new MemoryStats(node.kind, mode, size, ino, node.mtimeMs);
  }

  async stat(path: string): Promise<MemoryStats> {
    const p = normalize(path);
    const node = this.#nodes.get(p);
    if (node?.kind === "symlink") return this.stat(node.target);
    return this.lstat(p);
  }

  async readlink(path: string): Promise<string> {
    const p = normalize(path);
    const node = this.#nodes.get(p);
    if (!node) throw fsError("ENOENT", "readlink", p);
    if (node.kind !== "symlink") throw Object.assign(fsError("EINVAL", "readlink", p), { code: "EINVAL" });
    return node.target;
  }

  async symlink(target: string, path: string): Promise<void> {
    const p = normalize(path);
    if (this.#nodes.has(p)) throw fsError("EEXIST", "symlink", p);
    this.#dirOf(p, "symlink");
    this.#nodes.set(p, { kind: "symlink", target, mtimeMs: Date.now() });
  }
}
