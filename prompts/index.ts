/**
 * @module prompts
 *
 * The prompt registry and loader. Prompt files (`<id>.v<version>.md`, conventions in
 * prompts/README.md) are bundled as text; `loadPrompt(id)` returns the highest version of an id
 * unless a version is pinned, with its front matter parsed and the sha256 of its body, which
 * every answer records.
 */
import answerSystemV1 from "./answer.system.v1.md";
import reviewSystemV1 from "./review.system.v1.md";
import reviewTaskV1 from "./review.task.v1.md";
import suggestTestsFillV1 from "./suggest-tests.fill.v1.md";
import translateQuerySystemV1 from "./translate-query.system.v1.md";

/** Every prompt file, by file name. Add new versions here. */
export const PROMPT_FILES: Record<string, string> = {
  "answer.system.v1.md": answerSystemV1,
  "review.system.v1.md": reviewSystemV1,
  "review.task.v1.md": reviewTaskV1,
  "suggest-tests.fill.v1.md": suggestTestsFillV1,
  "translate-query.system.v1.md": translateQuerySystemV1,
};

/** A loaded prompt. */
export interface Prompt {
  id: string;
  version: number;
  purpose: string;
  /** The text after the front matter, trimmed. */
  text: string;
  /** Hex sha256 of `text` (UTF-8). */
  sha256: string;
}

/** What an answer records about the prompt that produced it. */
export interface PromptRef {
  id: string;
  version: number;
  sha256: string;
}

/**
 * Parses a prompt file: front matter (`---` lines around `key: value` lines holding exactly id,
 * version and purpose), then the body. Throws Error naming the file and the problem.
 */
export function parsePromptFile(fileName: string, raw: string): Omit<Prompt, "sha256"> {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n([\s\S]*)$/.exec(raw);
  if (!m) throw new Error(`${fileName}: missing front matter (--- id/version/purpose ---)`);
  const fields: Record<string, string> = {};
  for (const line of m[1].split(/\r?\n/)) {
    const kv = /^([a-z]+):\s*(.*)$/.exec(line);
    if (!kv) throw new Error(`${fileName}: front matter line "${line}" is not "key: value"`);
    fields[kv[1]] = kv[2].trim();
  }
  const keys = Object.keys(fields).sort().join(",");
  if (keys !== "id,purpose,version") throw new Error(`${fileName}: front matter must hold exactly id, version, purpose; got ${keys}`);
  const version = Number(fields.version);
  if (!Number.isInteger(version) || version < 1) throw new Error(`${fileName}: version must be a positive integer; got "${fields.version}"`);
  if (fileName !== `${fields.id}.v${version}.md`)
    throw new Error(`${fileName}: file name must be ${fields.id}.v${version}.md (id and version of its front matter)`);
  const text = m[2].trim();
  if (!text) throw new Error(`${fileName}: empty body`);
  return { id: fields.id, version, purpose: fields.purpose, text };
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const loaded = new Map<string, Promise<Prompt>>();

/**
 * The prompt `id`: the pinned `version`, or the highest one in `files`. Cached per isolate.
 * Throws Error when the id (or the pinned version) does not exist, naming the versions that do.
 */
export function loadPrompt(id: string, version?: number, files: Record<string, string> = PROMPT_FILES): Promise<Prompt> {
  const key = `${id}@${version ?? "latest"}`;
  const cached = files === PROMPT_FILES ? loaded.get(key) : undefined;
  if (cached) return cached;
  const versions = Object.entries(files)
    .map(([name, raw]) => parsePromptFile(name, raw))
    .filter((p) => p.id === id)
    .sort((a, b) => b.version - a.version);
  const chosen = version === undefined ? versions[0] : versions.find((p) => p.version === version);
  if (!chosen) {
    const have = versions.map((p) => p.version).join(", ") || "none";
    return Promise.reject(new Error(`prompt ${id}${version === undefined ? "" : ` v${version}`} not found (versions: ${have})`));
  }
  const prompt = sha256Hex(chosen.text).then((sha256) => ({ ...chosen, sha256 }));
  if (files === PROMPT_FILES) loaded.set(key, prompt);
  return prompt;
}
