/**
 * End-to-end test of the `codebase-copilot` CLI (`npm run test:e2e:cli`): starts the service as
 * `npm start` does, then runs every CLI command as a separate process, as a user or a CI job
 * would, and checks its output and exit code. Also runs the README's GitHub Actions steps (an
 * `index`-scoped token uploading a checkout and waiting). Port from E2E_CLI_PORT (default 8797).
 */
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PROJECT_ROOT } from "../../bin/lib/paths.ts";
import { withIndexedServer } from "./server.ts";

const PORT = Number(process.env.E2E_CLI_PORT ?? 8797);
const REPO = "e2e-cli";
const CLI = join(PROJECT_ROOT, "bin", "codebase-copilot.ts");

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI with `env` on top of a clean environment (no inherited CODEBASE_COPILOT_*). */
function cli(args: string[], env: Record<string, string>, cwd = PROJECT_ROOT): Promise<Run> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("CODEBASE_COPILOT_")));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...base, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d));
    child.stderr.on("data", (d: Buffer) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

function writeFixture(dir: string): void {
  mkdirSync(join(dir, "src"), { recursive: true });
  writeFileSync(
    join(dir, "src", "invoice.ts"),
    "/** Totals an invoice's lines in cents. */\nexport function invoiceTotalCents(lines: { cents: number }[]): number {\n  return lines.reduce((a, l) => a + l.cents, 0);\n}\n",
  );
}

async function main(): Promise<void> {
  await withIndexedServer(PORT, REPO, writeFixture, async ({ base, token, work }) => {
    const config = mkdtempSync(join(tmpdir(), "ccp-cli-config-"));
    const admin = { CODEBASE_COPILOT_URL: base, CODEBASE_COPILOT_TOKEN: token, XDG_CONFIG_HOME: config };

    for (const cmd of [
      [],
      ["index"],
      ["status"],
      ["search"],
      ["grep"],
      ["ask"],
      ["login"],
      ["tokens"],
      ["tokens", "create"],
      ["tokens", "list"],
      ["tokens", "revoke"],
    ]) {
      const r = await cli([...cmd, "--help"], {});
      assert.equal(r.code, 0, `${cmd.join(" ")} --help exits 0`);
      assert.match(r.stdout, /Usage: codebase-copilot/);
    }
    const usage = await cli(["search"], admin);
    assert.equal(usage.code, 2, "a missing argument is a usage error");
    assert.equal((await cli(["search", "x", "--k", "zero"], admin)).code, 2, "a bad number is a usage error");
    assert.equal(
      (await cli(["status"], { XDG_CONFIG_HOME: config, CODEBASE_COPILOT_URL: base })).code,
      2,
      "no token is a usage error that says how to give one",
    );

    const list = await cli(["status"], admin);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, new RegExp(`^${REPO}\\s+ready`, "m"));
    const one = await cli(["status", REPO, "--json"], admin);
    assert.equal(JSON.parse(one.stdout).status, "ready");
    const missing = await cli(["status", "no-such-repo"], admin);
    assert.equal(missing.code, 3, `an unknown repo exits 3: ${missing.stderr}`);

    const found = await cli(["search", "invoice", "total", "--repo", REPO, "--k", "3"], admin);
    assert.equal(found.code, 0, found.stderr);
    assert.match(found.stdout, new RegExp(`1\\. ${REPO}/src/invoice\\.ts:1-4`));
    const asJson = JSON.parse((await cli(["search", "invoiceTotalCents", "--repo", REPO, "--json"], admin)).stdout);
    assert.equal(asJson.results[0].path, "src/invoice.ts");

    const grep = await cli(["grep", "reduce((a, l)", "--repo", REPO], admin);
    assert.equal(grep.code, 0, grep.stderr);
    assert.match(grep.stdout, new RegExp(`^${REPO}/src/invoice\\.ts:3:\\d+:.*reduce`, "m"));
    assert.match(grep.stdout, /1 matching line$/m);
    const regex = JSON.parse((await cli(["grep", "-e", "-i", "INVOICE\\w+CENTS", "--json"], admin)).stdout);
    assert.equal(regex.matches[0].path, "src/invoice.ts");
    assert.equal((await cli(["grep", "no such text anywhere", "--repo", REPO], admin)).code, 1, "grep exits 1 when nothing matches");
    assert.equal((await cli(["grep", "-e", "(unclosed"], admin)).code, 1, "a regex syntax error is the API's 400");

    // No generation provider on this server: ask says how to configure one, and exits 1.
    const ask = await cli(["ask", "how", "are", "invoices", "totalled?", "--repo", REPO], admin);
    assert.equal(ask.code, 1);
    assert.match(ask.stderr, /503 .*ANTHROPIC_API_KEY/s);

    // Tokens: a search-scoped token works until it is revoked.
    const created = await cli(["tokens", "create", "--name", "cli e2e", "--scopes", "search", "--repos", REPO, "--json"], admin);
    assert.equal(created.code, 0, created.stderr);
    const t = JSON.parse(created.stdout) as { id: string; token: string; scopes: string[] };
    assert.deepEqual(t.scopes, ["search"]);
    const listed = await cli(["tokens", "list"], admin);
    assert.match(listed.stdout, new RegExp(`${t.id}\\s+"cli e2e"\\s+search\\s+${REPO}`));
    assert.ok(!listed.stdout.includes(t.token), "token list never shows a secret");
    const scoped = { CODEBASE_COPILOT_URL: base, CODEBASE_COPILOT_TOKEN: t.token, XDG_CONFIG_HOME: config };
    assert.equal((await cli(["search", "invoice", "--repo", REPO], scoped)).code, 0);
    const forbidden = await cli(["tokens", "list"], scoped);
    assert.equal(forbidden.code, 1, "a search token cannot manage tokens");
    assert.match(forbidden.stderr, /403/);
    assert.equal((await cli(["tokens", "revoke", t.id], admin)).code, 0);
    const revoked = await cli(["search", "invoice"], scoped);
    assert.equal(revoked.code, 1);
    assert.match(revoked.stderr, /401/);

    // login stores URL and token (mode 600); later commands need neither flag nor variable.
    const login = await cli(["login", "--url", base, "--token", token], { XDG_CONFIG_HOME: config });
    assert.equal(login.code, 0, login.stderr);
    const file = join(config, "codebase-copilot", "config.json");
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal((await cli(["status", REPO], { XDG_CONFIG_HOME: config })).code, 0);
    assert.equal((await cli(["login", "--url", base, "--token", "wrong"], { XDG_CONFIG_HOME: config })).code, 1, "login checks the token before storing it");

    // The README's GitHub Actions job: an index-scoped token uploads the checkout and waits.
    const ciToken = JSON.parse((await cli(["tokens", "create", "--name", "ci", "--scopes", "index,search", "--json"], admin)).stdout).token as string;
    const checkout = join(work, "src");
    writeFixture(checkout);
    writeFileSync(join(checkout, "src", "refund.ts"), "export function refundCents(c: number): number {\n  return -Math.abs(c);\n}\n");
    // As actions/checkout leaves it: a git work tree, so the upload lists files with git ls-files.
    const git = (...a: string[]) => execFileSync("git", ["-C", checkout, "-c", "user.email=ci@example.com", "-c", "user.name=ci", ...a]);
    git("init", "-q");
    git("add", "-A");
    git("commit", "-qm", "ci");
    const ci = await cli(
      ["index", "src", "--name", "ci-checkout", "--wait"],
      { CODEBASE_COPILOT_URL: base, CODEBASE_COPILOT_TOKEN: ciToken, XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), "ccp-ci-")) },
      work,
    );
    assert.equal(ci.code, 0, ci.stderr);
    assert.match(ci.stdout, /Indexed "ci-checkout" in [\d.]+ s: 2 files/);
    assert.match(ci.stderr, /listed by git ls-files/);
    assert.match(ci.stderr, /\d+\/2 files/, "progress lines are printed when stderr is not a TTY");
    const refund = JSON.parse((await cli(["search", "refundCents", "--repo", "ci-checkout", "--json"], admin)).stdout);
    assert.equal(refund.results[0].path, "src/refund.ts");
    console.log(`cli e2e: ok (every command against ${base})`);
  });
}

main().catch((err: unknown) => {
  console.error("cli e2e: FAILED\n", err);
  process.exitCode = 1;
});
