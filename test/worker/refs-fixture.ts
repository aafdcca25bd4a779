/**
 * Two snapshots of one git repo for the ref readers (issue #49), written by the normal test
 * writer (test/worker/search-fixture.ts `indexFixture`: `writeFiles`, embeddings, snapshot
 * statistics) as the indexer writes them: `main` is the active (default) snapshot and
 * `feature`, which adds src/feature.ts, a second snapshot of the same repo that is not active.
 * `repo_refs` rows name them as the refs coordinator records tracked refs
 * (migrations/0029_repo_refs.sql): main (default), feature, tag v1 (= main's commit) and
 * `later`, tracked but not indexed yet. `refs-other` is a git repo tracking only main;
 * `refs-upload` an archive.
 */
import { env } from "cloudflare:test";
import { chunk, indexFixture, type FixtureFile } from "./search-fixture";

export const REPO = "refs-read";
export const MAIN_COMMIT = "a1".repeat(20);
export const FEATURE_COMMIT = "fe".repeat(20);
export const OTHER_COMMIT = "b2".repeat(20);

const RATES = ["export function computeShippingRate(weight: number): number {", "  // flat rate per kilogram", "  return weight * 4;", "}"].join("\n");
const FEATURE = [
  "import { computeShippingRate } from './rates';",
  "",
  "export function expressDeliveryQuote(weight: number): number {",
  "  return computeShippingRate(weight) * 2 + 15;",
  "}",
].join("\n");

const mainFiles: FixtureFile[] = [{ path: "src/rates.ts", chunks: [chunk("function", 1, RATES, "computeShippingRate")] }];
const featureFiles: FixtureFile[] = [
  ...mainFiles,
  {
    path: "src/feature.ts",
    chunks: [
      chunk("module", 1, FEATURE.split("\n").slice(0, 2).join("\n")),
      chunk("function", 3, FEATURE.split("\n").slice(2).join("\n"), "expressDeliveryQuote"),
    ],
  },
];

/** Marks `repo` a git repo tracking `ref` (indexFixture registers archives). */
async function asGit(repo: string, ref: string): Promise<void> {
  await env.DB.prepare("UPDATE repos SET source_kind = 'git', url = ?, ref = ? WHERE id = ?").bind(`https://example.com/${repo}.git`, ref, repo).run();
}

async function trackRef(repo: string, name: string, commit: string | null, isDefault = 0): Promise<void> {
  await env.DB.prepare(
    "INSERT OR REPLACE INTO repo_refs (repo, name, is_default, pattern, commit_sha, indexed_at, status, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
  )
    .bind(repo, name, isDefault, isDefault ? null : name, commit, commit ? Date.now() : null, commit ? "ready" : "indexing", Date.now())
    .run();
}

/** Writes the fixture (see the module note). */
export async function seedRefs(): Promise<void> {
  await indexFixture(REPO, FEATURE_COMMIT, featureFiles, { activate: false });
  await indexFixture(REPO, MAIN_COMMIT, mainFiles);
  await asGit(REPO, "main");
  // The patterns a PATCH stored (the ref_not_found hint repeats them).
  await env.DB.prepare("UPDATE repos SET ref_patterns = ? WHERE id = ?")
    .bind(JSON.stringify(["refs/heads/feature", "refs/tags/v1", "refs/heads/later"]), REPO)
    .run();
  await trackRef(REPO, "refs/heads/main", MAIN_COMMIT, 1);
  await trackRef(REPO, "refs/heads/feature", FEATURE_COMMIT);
  await trackRef(REPO, "refs/tags/v1", MAIN_COMMIT);
  await trackRef(REPO, "refs/heads/later", null);
  await indexFixture("refs-other", OTHER_COMMIT, [{ path: "lib/rates.ts", chunks: [chunk("function", 1, RATES, "computeShippingRate")] }]);
  await asGit("refs-other", "main");
  await trackRef("refs-other", "refs/heads/main", OTHER_COMMIT, 1);
  await indexFixture("refs-upload", "c".repeat(40), [{ path: "notes.ts", chunks: [chunk("function", 1, RATES, "computeShippingRate")] }]);
}
