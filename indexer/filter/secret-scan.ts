/**
 * Secret detection by secretlint's recommended preset (`@secretlint/secretlint-rule-preset-recommend`,
 * which tracks provider token formats: AWS, GCP, GitHub, GitLab, Slack, Stripe, OpenAI,
 * Anthropic, npm, private keys, basic auth and database URLs, ...). Runs in workerd: the preset
 * and `@secretlint/core` are plain ESM whose only platform import is `node:path`
 * (`nodejs_compat`).
 *
 * Only the rule id of the first finding leaves this module, never the matched value or
 * secretlint's message (which quotes it).
 */
import { lintSource } from "@secretlint/core";
import { creator as recommended } from "@secretlint/secretlint-rule-preset-recommend";
import type { SecretLintCoreConfig } from "@secretlint/types";

const CONFIG: SecretLintCoreConfig = {
  rules: [{ id: "@secretlint/secretlint-rule-preset-recommend", rule: recommended }],
};

/** Prefix removed from secretlint's rule ids in what we record (`secretlint/aws`). */
const RULE_PREFIX = "@secretlint/secretlint-rule-";

/**
 * Runs the recommended preset over `text` (as file `path`, whose extension some rules use).
 * @returns the id of the first rule that reported, as `secretlint/<rule>` (e.g.
 *   `secretlint/aws`), or null when none did.
 */
export async function scanWithSecretlint(path: string, text: string): Promise<string | null> {
  const result = await lintSource({
    source: { content: text, filePath: `/${path}`, contentType: "text" },
    options: { config: CONFIG, maskSecrets: true },
  });
  const hit = result.messages.find((m) => m.type === "message");
  if (!hit) return null;
  return `secretlint/${hit.ruleId.startsWith(RULE_PREFIX) ? hit.ruleId.slice(RULE_PREFIX.length) : hit.ruleId}`;
}
