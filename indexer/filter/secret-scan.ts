/**
 * Secret detection by secretlint's recommended preset (`@secretlint/secretlint-rule-preset-recommend`,
 * which tracks provider token formats: AWS, GCP, GitHub, GitLab, Slack, Stripe, OpenAI,
 * Anthropic, npm, private keys, basic auth and database URLs, ...). Runs in workerd: the preset
 * and `@secretlint/core` are plain ESM whose only platform import is `node:path`
 * (`nodejs_compat`).
 *
 * Only the rule id of the first finding leaves this module, never the matched value or
 * secretlint's message (which quotes it).
 *
 * Speed: one `lintSource` call costs ~1-2 ms before it reads a byte (measured in Node on hono's
 * files), more than scanning a typical 4 KB source file. `scanManyWithSecretlint` therefore
 * joins many files into one source, separated by a NUL line (no rule's pattern crosses a NUL:
 * token character classes and `\s` exclude it), and maps each finding back to its file by
 * offset. `secretlint-disable` directives are neutralised first (same length, so offsets
 * hold): one file's comment must not silence the files after it, and a file cannot exempt
 * itself from being kept out of the index.
 */
import { lintSource } from "@secretlint/core";
import { creator as recommended } from "@secretlint/secretlint-rule-preset-recommend";
import type { SecretLintCoreConfig } from "@secretlint/types";

const CONFIG: SecretLintCoreConfig = {
  rules: [{ id: "@secretlint/secretlint-rule-preset-recommend", rule: recommended }],
};

/** Prefix removed from secretlint's rule ids in what we record (`secretlint/aws`). */
const RULE_PREFIX = "@secretlint/secretlint-rule-";

/** Joins files into one secretlint source. */
const FILE_SEPARATOR = "\n\u0000\n";

/** Same-length neutralisation of secretlint's inline directives. */
function neutraliseDirectives(text: string): string {
  return text.includes("secretlint-") ? text.replace(/secretlint-(disable|enable)/g, "secretlint_$1") : text;
}

function ruleIdOf(ruleId: string): string {
  return `secretlint/${ruleId.startsWith(RULE_PREFIX) ? ruleId.slice(RULE_PREFIX.length) : ruleId}`;
}

/**
 * Runs the preset over many files in one pass (see the module note).
 * @returns per file, in order, the first finding's rule id (`secretlint/<rule>`) or null.
 */
export async function scanManyWithSecretlint(files: readonly { path: string; text: string }[]): Promise<(string | null)[]> {
  const found: (string | null)[] = files.map(() => null);
  if (files.length === 0) return found;
  const starts: number[] = [];
  let at = 0;
  for (const f of files) {
    starts.push(at);
    at += f.text.length + FILE_SEPARATOR.length;
  }
  const content = files.map((f) => neutraliseDirectives(f.text)).join(FILE_SEPARATOR);
  const result = await lintSource({
    source: { content, filePath: `/${files[0].path}`, contentType: "text" },
    options: { config: CONFIG, maskSecrets: true },
  });
  for (const m of result.messages) {
    if (m.type !== "message") continue;
    // The file whose span holds the finding's start: the last start at or before it.
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= m.range[0]) lo = mid;
      else hi = mid - 1;
    }
    found[lo] ??= ruleIdOf(m.ruleId);
  }
  return found;
}

/**
 * Runs the recommended preset over `text` (as file `path`, whose extension some rules use).
 * @returns the id of the first rule that reported, as `secretlint/<rule>` (e.g.
 *   `secretlint/aws`), or null when none did.
 */
export async function scanWithSecretlint(path: string, text: string): Promise<string | null> {
  return (await scanManyWithSecretlint([{ path, text }]))[0];
}
