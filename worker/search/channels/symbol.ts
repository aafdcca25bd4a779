/**
 * @module worker/search/channels/symbol
 *
 * The symbol channel: definitions in `symbols` whose name matches a candidate name from the
 * query, exact case first, then case-insensitive, then by prefix (for code-like names). Within
 * a tier, names earlier in the query and definition kinds (functions, classes ...) before
 * variables and fields come first. In a pasted bug report, names its title marks as code come
 * first (the title says what is broken), then names with fewer definitions, then the query
 * order: a report's code names many things in passing (`list`, `pop`, `remove`), and a name
 * defined once points at one place while one defined in twenty classes hardly narrows anything
 * (the IDF of a name over the symbol table). A question names few identifiers, each on purpose,
 * so its order stands (rarity first cost the fixture set one R@1 question). A member the query
 * writes with its container (`JsonReader.skipValue`, `LineBuffer::fill`) ranks its definition
 * in that container first within its tier, then definitions whose container the query names
 * apart ("JsonReader skipValue"). Restricted to the active snapshot and the filters.
 */
import { isCodeLike } from "../query";
import { filterSql } from "../filters";
import type { ChannelHit, ChannelResult } from "../types";
import { SNAPSHOT_JOIN } from "../snapshot-sql";
import type { ChannelScope } from "./scope";

/** Prior of a definition kind: lower sorts first. */
export function kindPrior(kind: string): number {
  switch (kind) {
    case "class":
    case "interface":
    case "struct":
    case "trait":
    case "enum":
    case "type":
    case "function":
    case "method":
    case "constructor":
      return 0;
    case "constant":
    case "variable":
      return 1;
    case "field":
      return 2;
    default:
      return 3;
  }
}

/** Prefix lookups per query (each is one indexed range scan). */
const MAX_PREFIX_LOOKUPS = 4;
/** Shortest name looked up by prefix. */
const MIN_PREFIX_LENGTH = 4;

interface SymbolRow {
  id: string;
  name: string;
  name_lower: string;
  kind: string;
  container: string | null;
  path: string;
  start_line: number;
}

/** The last segment of a container, lowercased (`Outer.Inner`, `a::B`, `impl<T> B` are named by `inner`, `b`). */
export const containerName = (c: string | null) =>
  (c ?? "")
    .split(/\.|::|#|\s/)
    .filter(Boolean)
    .at(-1)
    ?.toLowerCase() ?? "";

/** Runs the channel. */
export async function symbolChannel(scope: ChannelScope): Promise<ChannelResult> {
  const names = scope.query.identifiers;
  if (!names.length) return { channel: "symbol", hits: [], skipped: "no identifier-like word in the query" };
  const f = filterSql(scope.filters);
  const base =
    "SELECT s.chunk_id AS id, s.name AS name, s.name_lower AS name_lower, s.kind AS kind, s.container AS container, s.path AS path, s.start_line AS start_line " +
    `FROM symbols s JOIN chunks c ON c.id = s.chunk_id ${SNAPSHOT_JOIN} WHERE s.repo = ? AND c.repo = ?${f.sql}`;
  const lower = [...new Set(names.map((n) => n.toLowerCase()))];
  const statements = [
    scope.db
      .prepare(`${base} AND s.name_lower IN (${lower.map(() => "?").join(", ")}) LIMIT 500`)
      .bind(scope.commit, scope.repo, scope.repo, ...f.params, ...lower),
  ];
  const prefixes = names
    .filter((n) => n.length >= MIN_PREFIX_LENGTH && isCodeLike(n))
    .slice(0, MAX_PREFIX_LOOKUPS)
    .map((n) => n.toLowerCase());
  for (const p of prefixes) {
    statements.push(
      scope.db
        .prepare(`${base} AND s.name_lower > ? AND s.name_lower < ? ORDER BY length(s.name) LIMIT ?`)
        .bind(scope.commit, scope.repo, scope.repo, ...f.params, p, `${p}\u{10FFFF}`, scope.depth),
    );
  }
  const batches = await scope.db.batch<SymbolRow>(statements);
  const rows = batches.flatMap((b) => b.results);
  const position = new Map(names.map((n, i) => [n.toLowerCase(), i]));
  const exact = new Set(names);
  const title = new Set(scope.query.titleNames);
  const definitions = new Map<string, number>();
  for (const r of rows) if (position.has(r.name_lower)) definitions.set(r.name_lower, (definitions.get(r.name_lower) ?? 0) + 1);
  // `JsonReader.skipValue`: the skipValue defined in JsonReader before the others; then a
  // definition whose container the query also names ("JsonReader skipValue").
  const qualified = new Set(scope.query.qualified.map((q) => `${q.container.toLowerCase()}\0${q.name.toLowerCase()}`));
  const keyed = rows.map((r) => {
    const pos = position.get(r.name_lower);
    const tier = exact.has(r.name) ? 0 : pos !== undefined ? 1 : 2;
    const owner = containerName(r.container);
    // A constructor is named after its class: naming the class does not name it.
    const inContainer = tier === 2 ? 2 : qualified.has(`${owner}\0${r.name_lower}`) ? 0 : owner && owner !== r.name_lower && position.has(owner) ? 1 : 2;
    const prefixPos = tier === 2 ? prefixes.findIndex((p) => r.name_lower.startsWith(p)) : 0;
    const count = tier === 2 || !scope.query.fewestDefinitionsFirst ? 0 : definitions.get(r.name_lower)!;
    const inTitle = tier === 2 || title.has(r.name_lower) ? 0 : 1;
    return { r, key: [tier, inContainer, inTitle, count, pos ?? prefixPos, kindPrior(r.kind), tier === 2 ? r.name.length : 0, r.path, r.start_line] as const };
  });
  keyed.sort((a, b) => {
    for (let i = 0; i < a.key.length; i++) {
      if (a.key[i] !== b.key[i]) return a.key[i] < b.key[i] ? -1 : 1;
    }
    return 0;
  });
  const hits: ChannelHit[] = [];
  const seen = new Set<string>();
  for (const { r, key } of keyed) {
    if (seen.has(r.id)) continue;
    seen.add(r.id);
    hits.push({ chunkId: r.id, score: 3 - key[0] });
    if (hits.length >= scope.depth) break;
  }
  return { channel: "symbol", hits };
}
