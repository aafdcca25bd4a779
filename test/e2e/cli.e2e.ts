/**
 * End-to-end test of the `codebase-copilot` CLI (`npm run test:e2e:cli`): starts the service as
 * `npm start` does, then runs every CLI command as a separate process, as a user or a CI job
 * would, and checks its output and exit code. Also runs the README's GitHub Actions steps (an
 * `index`-scoped token uploading a checkout and waiting). Port from E2E_CLI_PORT (default 8797).
 */
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PROJECT_ROOT } from "../../bin/lib/paths.ts";
import { withIndexedServer } from "./server.ts";

const PORT = Number(process.env.E2E_CLI_PORT ?? 8797);
const REPO = "e2e-cli";
// The installed entry (package.json "bin"): the launcher that runs the TypeScript CLI.
const CLI = join(PROJECT_ROOT, "bin", "codebase-copilot.mjs");

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
    // REST's search options, by the same names.
    const filtered = await cli(
      ["search", "invoice", "total", "--repo", REPO, "--mode", "bm25", "--language", "typescript", "--path-prefix", "src/**/*.ts", "--explain"],
      admin,
    );
    assert.equal(filtered.code, 0, filtered.stderr);
    assert.match(filtered.stdout, /why: bm25 #1; fused \d/);
    const explained = JSON.parse((await cli(["search", "invoice", "--repo", REPO, "--mode", "bm25", "--explain", "--json"], admin)).stdout);
    assert.equal(explained.results[0].explain.ranks.bm25, 1);
    assert.equal((await cli(["search", "invoice", "--repo", REPO, "--path-prefix", "lib/**"], admin)).code, 1, "no result: exit 1 (nothing found)");
    assert.equal((await cli(["search", "invoice", "--mode", "fuzzy"], admin)).code, 2, "a mode REST does not know is a usage error");
    assert.equal((await cli(["search", "invoice", "--language", "klingon"], admin)).code, 2, "the server's 400 is a usage error");
    const vague = await cli(["search", "zebra", "quantum", "--repo", REPO, "--min-confidence", "high", "--json"], admin);
    assert.equal(JSON.parse(vague.stdout).confidence.level === "high" ? 0 : 1, vague.code, "--min-confidence high: exit 1 below high");
    assert.equal((await cli(["search", "invoiceTotalCents", "--repo", REPO, "--min-confidence", "low"], admin)).code, 0);

    const grep = await cli(["grep", "reduce((a, l)", "--repo", REPO], admin);
    assert.equal(grep.code, 0, grep.stderr);
    assert.match(grep.stdout, new RegExp(`^${REPO}/src/invoice\\.ts:3:\\d+:.*reduce`, "m"));
    assert.match(grep.stdout, /1 matching line$/m);
    const regex = JSON.parse((await cli(["grep", "-E", "-i", "INVOICE\\w+CENTS", "--json"], admin)).stdout);
    assert.equal(regex.matches[0].path, "src/invoice.ts");
    // -e PATTERN, as grep: the pattern (literal unless -E), even one that starts with -.
    const literal = JSON.parse((await cli(["grep", "-e", "(a, l)", "--json"], admin)).stdout);
    assert.equal(literal.matches[0].line, 3);
    assert.equal((await cli(["grep", "-e", "-Math.abs", "--repo", REPO], admin)).code, 1, "a pattern starting with - is a pattern, and absent here");
    assert.equal((await cli(["grep", "no such text anywhere", "--repo", REPO], admin)).code, 1, "grep exits 1 when nothing matches");
    assert.equal((await cli(["grep", "-E", "(unclosed"], admin)).code, 2, "a regex syntax error is the API's 400: usage");

    // No generation provider on this server: ask says how to configure one, and exits 1.
    const ask = await cli(["ask", "how", "are", "invoices", "totalled?", "--repo", REPO], admin);
    assert.equal(ask.code, 5, "a server error (503) is exit 5, not 1 (nothing found)");
    assert.match(ask.stderr, /503 .*ANTHROPIC_API_KEY/s);

    // Tokens: a search-scoped token works until it is revoked.
    const created = await cli(["tokens", "create", "--name", "cli e2e", "--scopes", "search", "--repos", REPO, "--json"], admin);
    assert.equal(created.code, 0, created.stderr);
    const t = JSON.parse(created.stdout) as { id: string; token: string; scopes: string[]; expiresAt: number | null };
    assert.deepEqual(t.scopes, ["search"]);
    const days = ((t.expiresAt ?? 0) - Date.now()) / 86_400_000;
    assert.ok(days > 89.9 && days <= 90, `a new token expires in 90 days by default: ${days}`);
    const forever = JSON.parse((await cli(["tokens", "create", "--name", "forever", "--expires", "never", "--json"], admin)).stdout);
    assert.equal(forever.expiresAt, null, "never expiring is explicit: --expires never");
    const listed = await cli(["tokens", "list"], admin);
    assert.match(listed.stdout, new RegExp(`${t.id}\\s+"cli e2e"\\s+search\\s+${REPO}`));
    assert.ok(!listed.stdout.includes(t.token), "token list never shows a secret");
    const scoped = { CODEBASE_COPILOT_URL: base, CODEBASE_COPILOT_TOKEN: t.token, XDG_CONFIG_HOME: config };
    assert.equal((await cli(["search", "invoice", "--repo", REPO], scoped)).code, 0);
    const forbidden = await cli(["tokens", "list"], scoped);
    assert.equal(forbidden.code, 4, "a search token cannot manage tokens: exit 4 (auth), not 1 (nothing found)");
    assert.match(forbidden.stderr, /403/);
    assert.equal((await cli(["tokens", "revoke", t.id], admin)).code, 0);
    const revoked = await cli(["search", "invoice"], scoped);
    assert.equal(revoked.code, 4);
    assert.match(revoked.stderr, /401/);

    // login refuses an admin token without --admin, and stores nothing then.
    const file = join(config, "codebase-copilot", "config.json");
    const refused = await cli(["login", "--url", base, "--token", token], { XDG_CONFIG_HOME: config });
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /admin token.*--admin/s);
    assert.ok(!existsSync(file), "a refused login stores nothing");
    // login stores URL and token (mode 600); later commands need neither flag nor variable.
    const login = await cli(["login", "--admin", "--url", base, "--token", token], { XDG_CONFIG_HOME: config });
    assert.equal(login.code, 0, login.stderr);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal((await cli(["status", REPO], { XDG_CONFIG_HOME: config })).code, 0);
    assert.equal((await cli(["login", "--url", base, "--token", "wrong"], { XDG_CONFIG_HOME: config })).code, 4, "login checks the token before storing it");

    // Scheduled work runs under npm start (wrangler's /__scheduled, which its ticker calls) and
    // status shows the last and next tick.
    assert.match((await cli(["status"], admin)).stdout, /scheduled checks: no tick yet/);
    const tick = await fetch(`${base}/__scheduled?cron=${encodeURIComponent("*/5 * * * *")}`);
    assert.equal(tick.status, 200, "wrangler dev serves /__scheduled (--test-scheduled)");
    const ticked = await cli(["status"], admin);
    assert.match(ticked.stdout, /scheduled checks: last tick \S+Z \(.*\), next \S+Z \[\*\/5 \* \* \* \*\]/);
    const scheduleJson = JSON.parse((await cli(["status", "--json"], admin)).stdout).schedule;
    assert.ok(scheduleJson.nextTickAt > Date.now() && scheduleJson.nextTickAt - Date.now() <= 300_000, "next tick within the 5-minute cron");

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
