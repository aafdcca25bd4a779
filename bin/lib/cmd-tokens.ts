/**
 * `codebase-copilot tokens create|list|revoke`: API tokens (needs an admin token). A new token
 * expires after DEFAULT_TOKEN_DAYS unless `--expires` says otherwise; `--expires never` is the
 * only way to mint one that never expires.
 */
import type { Command } from "commander";
import { client, globals, list, print, UsageError } from "./cli-common.ts";
import { formatTokens } from "./cli-format.ts";

/** Lifetime of a token made by `tokens create` without `--expires`, in days. */
export const DEFAULT_TOKEN_DAYS = 90;

/**
 * Parses `--expires`: a positive whole number of days, or `never`.
 * @throws UsageError for anything else.
 */
export function parseExpires(v: string): number | "never" {
  if (v.trim().toLowerCase() === "never") return "never";
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`--expires must be a number of days or "never"; got "${v}".`);
  return n;
}

/** Adds the `tokens` command and its subcommands to `program`. */
export function addTokenCommands(program: Command): void {
  const tokens = program.command("tokens").description("Create, list and revoke API tokens (needs an admin token)");
  tokens
    .command("create")
    .description("Create a token; its secret is printed once")
    .requiredOption("--name <name>", "what the token is for, e.g. 'ci nightly'")
    .option("--scopes <list>", "comma-separated: search, index, admin", list, ["search"])
    .option("--repos <ids>", "comma-separated repo ids the token may see (default: all the creator may see)", list)
    .option("--expires <days|never>", `lifetime in days, or "never"`, parseExpires, DEFAULT_TOKEN_DAYS)
    .action(async (o: { name: string; scopes: string[]; repos?: string[]; expires: number | "never" }, cmd: Command) => {
      const g = globals(cmd);
      const t = await client(g).createToken({
        name: o.name,
        scopes: o.scopes,
        ...(o.repos ? { repos: o.repos } : {}),
        ...(o.expires === "never" ? {} : { expiresInDays: o.expires }),
      });
      const expiry = t.expiresAt ? `expires ${new Date(t.expiresAt).toISOString().slice(0, 10)}` : "never expires";
      print(
        g,
        t,
        () => `Created token ${t.id} (${t.scopes.join(" ")}${t.repos ? `; repos ${t.repos.join(", ")}` : ""}; ${expiry}). Shown once:\n\n  ${t.token}\n`,
      );
    });
  tokens
    .command("list")
    .description("List tokens (never their secrets)")
    .action(async (_o, cmd: Command) => {
      const g = globals(cmd);
      const all = await client(g).listTokens();
      print(g, { tokens: all }, () => formatTokens(all));
    });
  tokens
    .command("revoke")
    .description("Revoke a token by id")
    .argument("<id>", "token id from `tokens list`")
    .action(async (id: string, _o, cmd: Command) => {
      const g = globals(cmd);
      const t = await client(g).revokeToken(id);
      print(g, t, () => `Revoked token ${t.id} (${t.name}).`);
    });
}
