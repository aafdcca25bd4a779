/**
 * @module worker/services/symbols-references
 *
 * `findReferences`: occurrences of an identifier in the active snapshots. FTS5 finds candidate
 * files cheaply (the tokenizer stores every identifier whole, lowercased), then a case-sensitive
 * whole-word regex over each candidate file's text gives exact lines and columns; the file's
 * syntax tree says what each occurrence is (references-syntax.ts) and, where the code makes it
 * clear, which definition it refers to (references-resolve.ts). `definition` keeps one
 * definition's references. Source first, then tests, then docs. Its schemas are in
 * references-schema.ts, one file's occurrences in references-occurrences.ts.
 */
import { tokenize } from "../../indexer/store/contract";
import { CodeSearchError } from "../../kernel/errors";
import type { ServiceContext } from "./context";
import { compareReferences } from "./references-text";
import type { DefRow } from "./references-resolve";
import { occurrencesIn, referred, type CandidateFile, type SymbolSpan } from "./references-occurrences";
import { REFERENCES_MAX_FILES, type FindReferencesInput, type FindReferencesOutput, type Reference } from "./references-schema";
import { activeSnapshotJoin, reposInScope, snapshotParam } from "./symbols-scope";
import { chooseDefinitions, wordAndDefinition } from "./references-definition";
import { batchAcross } from "../../indexer/store/shards";
import { compareText, readPerShard } from "./shard-reads";

export {
  findReferencesInput,
  findReferencesOutput,
  referenceSchema,
  referredDefinitionSchema,
  REFERENCES_MAX_FILES,
  REFERENCES_MAX_LIMIT,
  type FindReferencesInput,
  type FindReferencesOutput,
  type Reference,
} from "./references-schema";

/** Files whose text is fetched per D1 round trip. */
const FILES_PER_BATCH = 20;
/** Definitions of one name loaded to resolve occurrences against. */
const DEFINITIONS_MAX = 500;

/**
 * Occurrences of `symbol` (or of `definition`'s name, kept to that definition's references),
 * paginated by `limit` (default 20) and `offset`. Throws `invalid_input` when the symbol is not
 * an identifier or neither is given, `not_found` when `definition` names no definition;
 * `repo_not_found` / `index_not_ready` for a named repo.
 */
export async function findReferences(ctx: ServiceContext, input: FindReferencesInput): Promise<FindReferencesOutput> {
  const { word, definition } = wordAndDefinition(input);
  const token = tokenize(word)[0];
  if (!token) throw new CodeSearchError("invalid_input", `"${word}" has no letters or digits; pass an identifier.`);
  const scope = await reposInScope(ctx, input.repo, input.ref);
  const repos = scope.repos;
  const limit = input.limit ?? 20;
  const offset = input.offset ?? 0;
  const defs = await readPerShard(
    ctx,
    repos,
    async (db, part) =>
      (
        await db
          .prepare(
            `SELECT s.repo, s.path, s.name, s.kind, s.container, s.signature, s.start_line, s.end_line FROM symbols s ${activeSnapshotJoin("s", "?1")} AND s.name = ?2
       ORDER BY s.repo, s.path, s.start_line LIMIT ?3`,
          )
          .bind(snapshotParam(scope, part), word, DEFINITIONS_MAX)
          .all<DefRow>()
      ).results,
    { compare: (a, b) => compareText(a.repo, b.repo) || compareText(a.path, b.path) || a.start_line - b.start_line, limit: DEFINITIONS_MAX },
  );
  const chosen = definition === undefined ? null : chooseDefinitions(definition, word, defs);
  const shardOf = new Map<string, D1Database>();
  const candidates = await readPerShard(
    ctx,
    repos,
    async (db, part) => {
      for (const r of part) shardOf.set(r, db);
      return (
        await db
          .prepare(
            `SELECT DISTINCT c.repo, c.file_id, c.path, c.language FROM chunks_fts JOIN chunks c ON c.rowid = chunks_fts.rowid
       ${activeSnapshotJoin("c", "?1")} AND chunks_fts MATCH ?2
       ORDER BY c.repo, c.path LIMIT ?3`,
          )
          .bind(snapshotParam(scope, part), `body : "${token}"`, REFERENCES_MAX_FILES + 1)
          .all<CandidateFile>()
      ).results;
    },
    { compare: (a, b) => compareText(a.repo, b.repo) || compareText(a.path, b.path), limit: REFERENCES_MAX_FILES + 1 },
  );
  const scanCapped = candidates.length > REFERENCES_MAX_FILES;
  const files = candidates.slice(0, REFERENCES_MAX_FILES);
  let all: Reference[] = [];
  for (let i = 0; i < files.length; i += FILES_PER_BATCH) {
    const group = files.slice(i, i + FILES_PER_BATCH);
    const rows = await batchAcross(
      group.flatMap((f) => {
        const db = shardOf.get(f.repo)!;
        return [
          { db, statement: db.prepare("SELECT text FROM files WHERE repo = ?1 AND file_id = ?2").bind(f.repo, f.file_id) },
          {
            db,
            statement: db.prepare("SELECT name, kind, container, start_line, end_line FROM symbols WHERE repo = ?1 AND file_id = ?2").bind(f.repo, f.file_id),
          },
        ];
      }),
    );
    for (const [j, f] of group.entries()) {
      const text = (rows[2 * j].results[0] as { text: string } | undefined)?.text ?? "";
      const spans = rows[2 * j + 1].results as unknown as SymbolSpan[];
      all.push(...(await occurrencesIn(f, scope.commits.get(f.repo)!, text, spans, word, defs)));
    }
  }
  all.sort(compareReferences);
  let unattributed = 0;
  if (chosen) {
    const keys = new Set(chosen.map(defKey));
    const inRepo = (repo: string) => defs.filter((d) => d.repo === repo);
    all = all.filter((r) => {
      if (r.lexical) return false;
      if (r.refersTo) return r.refersTo.some((d) => keys.has(`${r.repo}:${d.path}:${d.line}`));
      // The code does not say; keep it only when the chosen ones are all the word's definitions.
      if (inRepo(r.repo).every((d) => keys.has(defKey(d))) && inRepo(r.repo).length > 0) return true;
      unattributed++;
      return false;
    });
  }
  const page = all.slice(offset, offset + limit);
  const end = offset + page.length;
  return {
    symbol: word,
    definitions: (chosen ?? []).map(referred),
    unattributed,
    references: page,
    total_count: all.length,
    has_more: end < all.length,
    next_offset: end < all.length ? end : null,
    filesScanned: files.length,
    scanCapped,
    ...(scope.withoutRef.length ? { withoutRef: scope.withoutRef } : {}),
  };
}

function defKey(d: DefRow): string {
  return `${d.repo}:${d.path}:${d.start_line}`;
}
