/**
 * The D1 bindings of a wrangler.toml's top level (the local configuration): the catalog `DB` and
 * the shards (docs/storage.md, "Shards"). `npm start`, the snapshot servers and the e2e servers
 * apply migrations/ to each of them, since every shard has the whole schema.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "smol-toml";

/** Binding names of `[[d1_databases]]` in `<root>/wrangler.toml`, in file order (`["DB"]` when it lists none). */
export function localD1Bindings(root: string): string[] {
  const config = parse(readFileSync(join(root, "wrangler.toml"), "utf8")) as { d1_databases?: { binding?: unknown }[] };
  const names = (config.d1_databases ?? []).map((d) => d.binding).filter((b): b is string => typeof b === "string");
  return names.length ? names : ["DB"];
}
