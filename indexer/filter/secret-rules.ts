/**
 * Provider token formats and credential shapes that secretlint's recommended preset misses,
 * kept as data: each rule names its `source`, the upstream rule it follows (`gitleaks:<id>`
 * from gitleaks' `config/gitleaks.toml`, `trufflehog:<detector>`), or the vendor's documented
 * format where neither has one. No maintained JavaScript package carries gitleaks-style rules
 * (the npm `gitleaks*` packages wrap the Go binary), so the rules are ported here; a port keeps
 * gitleaks' shape (keywords that gate a rule, a capture group for the secret, a minimum Shannon
 * entropy for generic values) and gitleaks' allowlist ideas (placeholders, `${VAR}` references).
 *
 * Ids are `pattern:<name>`; a recorded id never holds the matched value. The regexes are built
 * from pieces where a literal would match this file itself. Pure.
 */

/** One rule. The text must contain one of `keywords` (lower-cased; gitleaks' pre-filter) for `re` to run. */
export interface SecretRule {
  id: string;
  /** Where the rule comes from (`gitleaks:<rule id>`, `trufflehog:<detector>`, `vendor:<doc>`). */
  source: string;
  keywords: readonly string[];
  /** Group 1, when present, is the secret the entropy and placeholder checks look at. */
  re: RegExp;
  /** Least Shannon entropy (bits per char) of group 1, as gitleaks' `entropy`; generic values need it. */
  entropy?: number;
  /** Only for paths matching this (e.g. YAML files). */
  paths?: RegExp;
}

/**
 * gitleaks' "a named value is assigned" shape: `<name> [ \t\w.-]{0,20} <quote?> (= | : | => | , ...)
 * <quote?> (<value>) <end>`, case-insensitive, as its `utils.GenerateSemiGenericRegex` builds it.
 */
function assigned(name: string, value: string): RegExp {
  return new RegExp(`(?:${name})(?:[ \\t\\w.-]{0,20})[\\s'"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\`'"\\s=]{0,5}(${value})(?:[\`'"\\s;]|\\\\[nr]|$)`, "im");
}

/** A value that is a reference or a placeholder, not a secret (gitleaks allowlists `${...}`-style references too). */
const PLACEHOLDER =
  /^(\$\{|\$[A-Z_]|%[A-Z_(]|\{\{|<|\*{3}|x{4,}$|(?:your|my|some|example|changeme|change_me|password|passwd|secret|placeholder|dummy|redacted|test)[\w-]*$)/i;

/** Shannon entropy in bits per character (gitleaks' `shannonEntropy`). */
export function shannonEntropy(s: string): number {
  if (!s) return 0;
  const counts = new Map<string, number>();
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

/** The rules, each once. Order only decides which id is recorded when several match. */
export const SECRET_RULES: readonly SecretRule[] = [
  { id: "pattern:digitalocean-token", source: "gitleaks:digitalocean-pat", keywords: ["_v1_"], re: /\bdo[opr]_v1_[a-f0-9]{64}\b/ },
  { id: "pattern:huggingface-token", source: "gitleaks:huggingface-access-token", keywords: ["hf_", "api_org_"], re: /\b(?:hf|api_org)_[A-Za-z0-9]{34,40}\b/ },
  // sq0idp- is the public application id; EAAA access tokens are left out: base64 of binary data starts with EAAA too.
  { id: "pattern:square-secret", source: "gitleaks:square-access-token", keywords: ["sq0"], re: /\bsq0(?:csp|atp)-[\w-]{22,60}/ },
  { id: "pattern:atlassian-token", source: "gitleaks:atlassian-api-token", keywords: ["atatt3"], re: /\bATATT3[A-Za-z0-9_\-=]{186}/ },
  {
    id: "pattern:doppler-token",
    source: "trufflehog:doppler",
    keywords: ["dp."],
    re: /\bdp\.(?:pt|st|sa|ct|scim|audit)\.(?:[a-z0-9_-]{2,35}\.)?[A-Za-z0-9]{40,44}\b/,
  },
  {
    id: "pattern:telegram-bot-token",
    source: "gitleaks:telegram-bot-api-token",
    keywords: ["telegr", "/bot"],
    re: /\b[0-9]{5,16}:A[A-Za-z0-9_-]{34}(?![A-Za-z0-9_-])/,
  },
  {
    id: "pattern:discord-webhook",
    source: "trufflehog:discordwebhook",
    keywords: ["/api/webhooks/"],
    re: /\bdiscord(?:app)?\.com\/api\/webhooks\/[0-9]{17,20}\/[A-Za-z0-9_-]{60,68}/,
  },
  { id: "pattern:twilio-api-key", source: "gitleaks:twilio-api-key", keywords: ["sk"], re: /\bSK[0-9a-fA-F]{32}\b/ },
  {
    id: "pattern:twilio-auth-token",
    source: "vendor:twilio-auth-token (32 hex, named)",
    keywords: ["twilio"],
    re: assigned("twilio[\\w.-]{0,20}(?:auth|token|secret)", "[a-f0-9]{32}"),
  },
  { id: "pattern:mailgun-key", source: "gitleaks:mailgun-private-api-token", keywords: ["mailgun"], re: /\b(?:key|pubkey)-[a-f0-9]{32}\b/ },
  {
    id: "pattern:azure-ad-client-secret",
    source: "gitleaks:azure-ad-client-secret",
    keywords: ["q~"],
    re: /(?:^|[\\'"`\s>=:(,)])([a-zA-Z0-9_~.]{3}\dQ~[a-zA-Z0-9_~.-]{31,34})(?:$|[\\'"`\s<),])/m,
    entropy: 3,
  },
  {
    id: "pattern:azure-sas-token",
    source: "vendor:azure-storage-sas (sv= ... sig=)",
    keywords: ["sig="],
    re: /\bsv=\d{4}-\d\d-\d\d&[^\s"'`<>]{0,400}?\bsig=([A-Za-z0-9%+/]{30,}(?:%3D|=){0,2})/,
  },
  {
    id: "pattern:docker-config-auth",
    source: "vendor:docker-config.json (auths.*.auth)",
    keywords: ['"auths"'],
    re: /"auths"\s*:\s*\{[\s\S]{0,500}?"auth"\s*:\s*"([A-Za-z0-9+/]{8,}={0,2})"/,
  },
  { id: "pattern:heroku-api-key", source: "gitleaks:heroku-api-key", keywords: ["heroku"], re: assigned("heroku", UUID) },
  { id: "pattern:heroku-api-key-v2", source: "gitleaks:heroku-api-key-v2", keywords: ["hrku-aa"], re: /\bHRKU-AA[0-9a-zA-Z_-]{58}\b/ },
  {
    id: "pattern:datadog-key",
    source: "gitleaks:datadog-access-token (also DD_API_KEY / DD_APP_KEY and 32-hex API keys)",
    keywords: ["datadog", "dd_"],
    re: assigned("datadog|\\bdd_(?:api|app|application|client)", "[a-f0-9]{40}|[a-f0-9]{32}"),
    entropy: 3,
  },
  {
    id: "pattern:cloudflare-key",
    source: "gitleaks:cloudflare-api-key, gitleaks:cloudflare-global-api-key (also CF_API_*)",
    keywords: ["cloudflare", "cf_"],
    re: assigned("cloudflare|\\bcf_(?:api|auth)", "[a-z0-9_-]{40}|[a-f0-9]{37}"),
    entropy: 3,
  },
  {
    id: "pattern:jdbc-password",
    source: "vendor:jdbc-url (password= / pwd= property)",
    keywords: ["jdbc:"],
    re: /\bjdbc:[a-z0-9]+:[^\s"'`<>]*?[?&;](?:password|pwd)=([^\s&;"'`<>]{4,})/i,
  },
  {
    id: "pattern:yaml-password",
    source: "gitleaks:generic-api-key (password keys in YAML, with its entropy floor)",
    keywords: ["pass", "pwd"],
    re: /^[ \t]*-?[ \t]*[\w.-]*(?:password|passwd|pwd)[ \t]*:[ \t]*["']?([^\s"'#]{8,})["']?[ \t]*(?:#.*)?$/im,
    entropy: 3,
    paths: /\.ya?ml$/i,
  },
  {
    id: "pattern:kubernetes-secret",
    source: "gitleaks:kubernetes-secret-yaml",
    keywords: ["secret"],
    re: /^kind:[ \t]*["']?Secret["']?[ \t]*$[\s\S]{0,400}?^(?:data|stringData):[ \t]*\n(?:[ \t]+#.*\n)*[ \t]+[\w.-]+:[ \t]*["']?(?!\{\{)([A-Za-z0-9+/_.-]{8,}={0,3})["']?[ \t]*$/m,
  },
  {
    id: "pattern:url-basic-auth",
    source: "gitleaks:curl-auth-user (credentials in a URL)",
    keywords: ["://"],
    // Documentation hosts (localhost, example.*, *.test) and placeholder passwords are allowed.
    re: /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:@/"'`<>]{1,64}:([^\s:@/"'`<>]{6,128})@(?!localhost\b|127\.|0\.0\.0\.0|\[::1\]|(?:[\w-]+\.)*example\.(?:com|org|net)\b|[\w.-]+\.(?:test|invalid)\b)[a-z0-9-]+(?:\.[a-z0-9-]+)+/i,
    entropy: 3,
  },
];

/** Whether a captured value passes the rule's checks: no placeholder, enough entropy. */
function isSecretValue(rule: SecretRule, value: string | undefined): boolean {
  if (value === undefined) return true;
  if (PLACEHOLDER.test(value)) return false;
  return rule.entropy === undefined || shannonEntropy(value) >= rule.entropy;
}

/**
 * The id of the first rule that finds a secret in `text` (as file `path`), or null. Every match
 * of a rule is tried, so a placeholder before a real value does not hide it.
 */
export function secretRuleMatch(text: string, path = ""): string | null {
  const lower = text.toLowerCase();
  for (const [i, rule] of SECRET_RULES.entries()) {
    if (rule.paths && !rule.paths.test(path)) continue;
    if (!rule.keywords.some((k) => lower.includes(k))) continue;
    for (const m of text.matchAll(GLOBAL[i])) if (isSecretValue(rule, m[1])) return rule.id;
  }
  return null;
}

/** Each rule's regex with the `g` flag, for `matchAll` (compiled once). */
const GLOBAL: readonly RegExp[] = SECRET_RULES.map((r) => new RegExp(r.re.source, r.re.flags.includes("g") ? r.re.flags : `${r.re.flags}g`));
