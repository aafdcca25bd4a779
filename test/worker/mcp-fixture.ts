/**
 * Test data for the file, symbol and MCP tests: a repo "demo" written through `writeFiles`
 * (indexer/store/d1/write-files.ts) with snapshot rows inserted by hand, an older snapshot whose
 * files must never be served, a second repo "other", and a repo "pending" that has no snapshot.
 */
import { env } from "cloudflare:test";
import { fileId, type ChunkedFile } from "../../indexer/store/contract";
import { snapshotStatisticsStatements } from "../../indexer/store/d1/snapshots";
import { writeFiles, type IndexedFile } from "../../indexer/store/d1/write-files";
import { shardDb } from "../../indexer/store/shards";

export const USERS_TS = `import { db } from "./db";

/** Loads users. */
export class UserService {
  constructor(private readonly prefix: string) {}

  getUserById(id: string) {
    return db.users.find(this.prefix + id);
  }

  listUsers() {
    return db.users.all();
  }
}

export function getUserById(id: string) {
  return new UserService("u:").getUserById(id);
}
`;

export const APP_TS = `import { getUserById } from "./users";

export function handler(req: { id: string }) {
  const user = getUserById(req.id);
  return user ?? null;
}
// getUserByIdentity is another word, and so is my_getUserById.
`;

/** 1,000 lines `export const v<n> = <n>;`, chunked in windows of 100 lines. */
export const BIG_TS = Array.from({ length: 1000 }, (_, i) => `export const v${i + 1} = ${i + 1};`).join("\n") + "\n";

const usersChunked: ChunkedFile = {
  language: "typescript",
  imports: ['import { db } from "./db";'],
  chunks: [
    { startLine: 1, endLine: 1, kind: "module", content: 'import { db } from "./db";' },
    {
      startLine: 3,
      endLine: 5,
      kind: "class",
      symbol: "UserService",
      signature: "export class UserService",
      content: USERS_TS.split("\n").slice(2, 5).join("\n"),
    },
    {
      startLine: 7,
      endLine: 9,
      kind: "method",
      symbol: "getUserById",
      container: "UserService",
      signature: "getUserById(id: string)",
      content: USERS_TS.split("\n").slice(6, 9).join("\n"),
    },
    {
      startLine: 11,
      endLine: 13,
      kind: "method",
      symbol: "listUsers",
      container: "UserService",
      signature: "listUsers()",
      content: USERS_TS.split("\n").slice(10, 13).join("\n"),
    },
    {
      startLine: 16,
      endLine: 18,
      kind: "function",
      symbol: "getUserById",
      signature: "export function getUserById(id: string)",
      content: USERS_TS.split("\n").slice(15, 18).join("\n"),
    },
  ],
  symbols: [
    { name: "UserService", kind: "class", signature: "export class UserService", doc: "Loads users.", startLine: 3, endLine: 14 },
    { name: "constructor", kind: "constructor", container: "UserService", signature: "constructor(private readonly prefix: string)", startLine: 5, endLine: 5 },
    { name: "getUserById", kind: "method", container: "UserService", signature: "getUserById(id: string)", startLine: 7, endLine: 9 },
    { name: "listUsers", kind: "method", container: "UserService", signature: "listUsers()", startLine: 11, endLine: 13 },
    { name: "getUserById", kind: "function", signature: "export function getUserById(id: string)", startLine: 16, endLine: 18 },
  ],
};

const appChunked: ChunkedFile = {
  language: "typescript",
  imports: ['import { getUserById } from "./users";'],
  chunks: [
    { startLine: 1, endLine: 1, kind: "module", content: APP_TS.split("\n")[0] },
    {
      startLine: 3,
      endLine: 6,
      kind: "function",
      symbol: "handler",
      signature: "export function handler(req: { id: string })",
      content: APP_TS.split("\n").slice(2, 6).join("\n"),
    },
    { startLine: 7, endLine: 7, kind: "module", content: APP_TS.split("\n")[6] },
  ],
  symbols: [{ name: "handler", kind: "function", signature: "export function handler(req: { id: string })", startLine: 3, endLine: 6 }],
};

const bigLines = BIG_TS.split("\n");
const bigChunked: ChunkedFile = {
  language: "typescript",
  imports: [],
  chunks: Array.from({ length: 10 }, (_, w) => ({
    startLine: w * 100 + 1,
    endLine: w * 100 + 100,
    kind: "window" as const,
    content: bigLines.slice(w * 100, w * 100 + 100).join("\n"),
  })),
  symbols: Array.from({ length: 1000 }, (_, i) => ({ name: `v${i + 1}`, kind: "constant" as const, startLine: i + 1, endLine: i + 1 })),
};

const oldChunked: ChunkedFile = {
  language: "typescript",
  imports: [],
  chunks: [{ startLine: 1, endLine: 1, kind: "function", symbol: "retiredHelper", content: "export function retiredHelper() { return getUserById('x'); }" }],
  symbols: [{ name: "retiredHelper", kind: "function", startLine: 1, endLine: 1 }],
};

async function version(repo: string, path: string, text: string, chunked: ChunkedFile, blob: string): Promise<IndexedFile> {
  const blobSha = blob.repeat(40).slice(0, 40);
  return { repo, path, blobSha, fileId: await fileId(repo, path, blobSha), text, chunked };
}

/** Writes the fixture repos. Safe to call once per test file (storage is per file). */
export async function seedFixture(): Promise<void> {
  const now = Date.now();
  const demo = [
    await version("demo", "src/users.ts", USERS_TS, usersChunked, "a"),
    await version("demo", "src/app.ts", APP_TS, appChunked, "b"),
    await version("demo", "src/big.ts", BIG_TS, bigChunked, "c"),
  ];
  const old = [await version("demo", "src/users.ts", "export function retiredHelper() { return getUserById('x'); }\n", oldChunked, "d")];
  const other = [await version("other", "lib/users.ts", USERS_TS, usersChunked, "e")];
  // "demo" and "other" sit in different shards (docs/storage.md, "Shards"): the multi-repo reads
  // (symbols, references, search) merge across them. Each shard keeps a mirror row of its repo.
  const snap = (db: D1Database, repo: string, commit: string, files: IndexedFile[]) =>
    files.map((f) => db.prepare("INSERT INTO snapshot_files (repo, commit_sha, path, file_id) VALUES (?, ?, ?, ?)").bind(repo, commit, f.path, f.fileId));
  const repoRow = (db: D1Database, id: string, status: string, commit: string | null, shard: number | null) =>
    db
      .prepare(
        "INSERT INTO repos (id, name, source_kind, url, ref, status, active_commit, active_indexed_at, created_at, updated_at, shard) VALUES (?, ?, 'git', ?, 'main', ?, ?, ?, ?, ?, ?)",
      )
      .bind(id, id, `https://example.com/${id}.git`, status, commit, commit ? now : null, now, now, shard);
  await env.DB.batch([
    repoRow(env.DB, "demo", "ready", "c2", 0),
    repoRow(env.DB, "other", "ready", "o1", 1),
    repoRow(env.DB, "pending", "indexing", null, null),
  ]);
  const demoDb = shardDb(env, 0);
  const otherDb = shardDb(env, 1);
  await writeFiles(demoDb, [...demo, ...old]);
  await writeFiles(otherDb, other);
  await demoDb.batch([
    repoRow(demoDb, "demo", "ready", "c2", 0),
    ...snap(demoDb, "demo", "c1", old),
    ...snap(demoDb, "demo", "c2", demo),
    ...snapshotStatisticsStatements(demoDb, "demo", "c1"),
    ...snapshotStatisticsStatements(demoDb, "demo", "c2"),
  ]);
  await otherDb.batch([
    repoRow(otherDb, "other", "ready", "o1", 1),
    ...snap(otherDb, "other", "o1", other),
    ...snapshotStatisticsStatements(otherDb, "other", "o1"),
  ]);
}
