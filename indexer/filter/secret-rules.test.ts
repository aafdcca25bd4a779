/**
 * secret-rules.ts: ordinary code that names the same providers, variables and shapes is not a
 * secret (the positive forms are in test/fixtures/planted-secrets.ts). Values are assembled
 * from pieces so this file matches no rule itself.
 */
import { describe, expect, it } from "vitest";
import { SECRET_RULES, secretRuleMatch, shannonEntropy } from "./secret-rules";

const j = (...parts: string[]) => parts.join("");

describe("secret rules: negatives", () => {
  it.each([
    ["references, not values", "config/database.yml", "production:\n  password: ${DB_PASSWORD}\n  other_password: <%= ENV['X'] %>\n"],
    ["a placeholder YAML password", "docker-compose.yml", "services:\n  db:\n    environment:\n      POSTGRES_PASSWORD: changeme123\n"],
    ["a low-entropy YAML password", "config/test.yml", "test:\n  password: aaaaaaaaaaaa\n"],
    ["a password key outside YAML", "src/a.ts", "const password: string = getPasswordFromVault();\n"],
    [
      "a templated Kubernetes Secret",
      "chart/templates/secret.yaml",
      "kind: Secret\nmetadata:\n  name: db\ndata:\n  password: {{ .Values.password | b64enc }}\n",
    ],
    ["a Kubernetes Secret without data", "k8s/empty.yaml", "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ntype: Opaque\n"],
    [
      "documentation URLs with credentials",
      "README.md",
      j("postgres://user:", "password@localhost:5432/db\nhttps://alice:", "s3cr3tPassw0rd@example.com/x\nredis://:", "hunter2hunter2@cache.test:6379\n"),
    ],
    ["a URL with a port, not a password", "src/api.ts", 'fetch("https://api.acme-corp.io:8443/v1/users");\n'],
    ["a Discord webhook built from variables", "src/discord.ts", j("const url = `https://discord.com/api/", "webhooks/${id}/${token}`;\n")],
    ["Hugging Face hub calls", "train.py", "from huggingface_hub import hf_hub_download\nhf_hub_download(repo_id='gpt2', filename='config.json')\n"],
    ["a cache key with a hash", "src/cache.ts", j("const k = `key-", "${md5(path)}`; // mailgun-like key- prefix, no mailgun here\n")],
    [
      "a JDBC URL without a password",
      "application.properties",
      "spring.datasource.url=jdbc:postgresql://db:5432/app\nspring.datasource.password=${DB_PASSWORD}\n",
    ],
    ["an empty Docker auths", ".docker/config.json", '{"auths": {}, "credsStore": "desktop"}\n'],
    ["a Heroku app name", "app.json", '{"name": "heroku-app", "env": {"HEROKU_API_KEY": {"required": true}}}\n'],
    ["a Datadog site setting", "datadog.yaml", "DD_SITE: datadoghq.eu\nDD_API_KEY: ${DD_API_KEY}\n"],
    ["an SAS doc without a signature", "docs/sas.md", "Append `?sv=2022-11-02&sp=r&sig=<signature>` to the blob URL.\n"],
    ["a Telegram chat id", "bot.py", "TELEGRAM_CHAT_ID = -1001234567890\n"],
    [
      "an ordinary TypeScript module",
      "src/users.ts",
      "export async function getUserById(id: string) {\n  return db.prepare('SELECT * FROM users WHERE id = ?').bind(id).first();\n}\n",
    ],
  ])("%s", (_name, path, text) => {
    expect(secretRuleMatch(text, path)).toBeNull();
  });
});

describe("secret rules: data", () => {
  it("every rule has an id, a source and a keyword, each id once", () => {
    const ids = SECRET_RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of SECRET_RULES) {
      expect(r.id).toMatch(/^pattern:[a-z0-9-]+$/);
      expect(r.source).toMatch(/^(gitleaks|trufflehog|vendor):/);
      expect(r.keywords.length).toBeGreaterThan(0);
    }
  });
  it("shannonEntropy: bits per character", () => {
    expect(shannonEntropy("aaaa")).toBe(0);
    expect(shannonEntropy("abcd")).toBe(2);
  });
});
