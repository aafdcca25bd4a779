/**
 * @module indexer/filter/secret-names
 *
 * File names that hold credentials (`.env`, `.env.*` but not its templates, `env.<stage>`,
 * `credentials.json`, key stores, SSH keys, kubeconfigs, OAuth client secrets), decided by the
 * name alone; path-rules.ts applies them after the folder rules. Pure.
 */

/** Exact file names (lower-cased) that hold credentials. */
const SECRET_NAMES: ReadonlySet<string> = new Set([
  ".env",
  ".envrc",
  "kubeconfig",
  "kubeconfig.yaml",
  "kubeconfig.yml",
  "kubeconfig.json",
  "credentials.json",
  "client_secret.json",
  "service-account.json",
  ".npmrc",
  ".yarnrc.yml",
  ".netrc",
  "_netrc",
  ".pypirc",
  ".pgpass",
  ".htpasswd",
  ".git-credentials",
  ".dockercfg",
  "secrets.yml",
  "secrets.yaml",
  "secrets.json",
  "terraform.tfstate",
  "terraform.tfstate.backup",
]);

/** `.env.<suffix>` files that are templates, not secrets. */
const ENV_TEMPLATES: ReadonlySet<string> = new Set([".env.example", ".env.sample", ".env.template", ".env.dist", ".env.defaults"]);

/** Extensions (lower-cased, with the dot) of key stores and private keys. */
const SECRET_EXTENSIONS: ReadonlySet<string> = new Set([
  ".pem",
  ".key",
  ".p12",
  ".pfx",
  ".jks",
  ".keystore",
  ".p8",
  ".ppk",
  ".kdbx",
  ".gpg",
  ".tfvars",
  ".ovpn",
  ".mobileprovision",
]);

/** `env.<stage>` files without the leading dot: stage names only, so `env.ts` stays code. */
const DOTLESS_ENV = /^env\.(local|dev|development|prod|production|stage|staging|test|testing|qa|uat|preview|ci|live|secret|secrets)(\..+)?$/i;

/** OAuth client secrets as Google Cloud downloads them: `client_secret_<id>.apps.googleusercontent.com.json`. */
const CLIENT_SECRET_JSON = /^client_secrets?[^/]*\.json$/i;

/** `*.kubeconfig`, `kubeconfig-<cluster>.yaml`. */
const KUBECONFIG_NAME = /(^kubeconfig[._-].*|\.kubeconfig)$/i;

/** SSH private keys and their public halves (same names, kept out together for simplicity). */
const SSH_KEY = /^id_(rsa|dsa|ecdsa|ed25519)(\..*)?$/i;

/** Lower-cased extension of a file name, with the dot, or "" (".bashrc" has none). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot).toLowerCase() : "";
}

/** The rule that makes a file name (no directory) a credential file, or null. */
export function secretNameRule(name: string): string | null {
  const lower = name.toLowerCase();
  if (SECRET_NAMES.has(lower)) return `name:${lower}`;
  if (lower.startsWith(".env.")) return ENV_TEMPLATES.has(lower) ? null : "name:.env.*";
  if (DOTLESS_ENV.test(name)) return ENV_TEMPLATES.has(`.${lower}`) ? null : "name:env.*";
  if (CLIENT_SECRET_JSON.test(name)) return "name:client_secret*.json";
  if (KUBECONFIG_NAME.test(name)) return "name:kubeconfig";
  if (SSH_KEY.test(name)) return "name:ssh-key";
  const ext = extensionOf(name);
  return SECRET_EXTENSIONS.has(ext) ? `ext:${ext}` : null;
}

/** Whether a file name (no directory) names a credential file. */
export function isSecretName(name: string): boolean {
  return secretNameRule(name) !== null;
}
