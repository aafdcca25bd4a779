/**
 * The Vite plugin of the Node test project (vitest.config.mts): it gives plain Node what
 * workerd and Wrangler give the Worker, so pure modules run unchanged.
 *
 * - Text modules: files matching a `type = "Text"` rule of wrangler.toml (prompts/*.md,
 *   SCOWL's word lists, Linguist's vendor.yml, ...) import as their text, as in the Worker.
 * - Grammars: indexer/chunk/index.ts installs the workerd grammar loader (wasm imported as
 *   modules); here `./grammars-workerd` resolves to test/node/grammars-node.ts, which reads
 *   the same wasm files from node_modules (indexer/chunk/grammar-files.ts).
 * - Workerd-only modules: every `cloudflare:` import resolves to test/node/workerd-only.ts,
 *   which throws, so a file that needs workerd but landed here fails loudly.
 */
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import picomatch from "picomatch";
import { parse } from "smol-toml";
import type { Plugin } from "vite";

interface ModuleRule {
  type: string;
  globs: string[];
}

/** The globs of wrangler.toml's Text rules. */
export function textRuleGlobs(root: string): string[] {
  const config = parse(readFileSync(join(root, "wrangler.toml"), "utf8")) as { rules?: ModuleRule[] };
  return (config.rules ?? []).filter((r) => r.type === "Text").flatMap((r) => r.globs);
}

/** The plugin; `root` is the project folder (where wrangler.toml is). */
export function nodeStandIns(root: string): Plugin {
  const isText = picomatch(textRuleGlobs(root), { dot: true });
  const workerdOnly = join(root, "test/node/workerd-only.ts");
  const grammarsNode = join(root, "test/node/grammars-node.ts");
  return {
    name: "codebase-copilot:node-stand-ins",
    enforce: "pre",
    async resolveId(source, importer, options) {
      if (source.startsWith("cloudflare:")) return `${workerdOnly}?module=${encodeURIComponent(source)}`;
      if (source === "./grammars-workerd" && importer?.replace(/\\/g, "/").endsWith("indexer/chunk/index.ts")) return grammarsNode;
      if (source.includes("?")) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (resolved && !resolved.external && isText(relative(root, resolved.id))) return `${resolved.id}?raw`;
      return null;
    },
  };
}
