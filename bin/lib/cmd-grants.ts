/**
 * `codebase-copilot grants list|revoke --user <id>`: a person's sign-ins (OAuth grants), listed and
 * revoked by an admin (needs an admin token). `revoke <id>` ends one, `revoke --all` every one of
 * the person's; their clients must sign in again. Over `GET/DELETE /api/grants`.
 */
import type { Command } from "commander";
import { client, globals, print, UsageError } from "./cli-common.ts";

/** Adds the `grants` command and its subcommands to `program`. */
export function addGrantCommands(program: Command): void {
  const grants = program.command("grants").description("List and revoke people's sign-ins (needs an admin token)");
  grants
    .command("list")
    .description("List a person's sign-ins (never their tokens)")
    .requiredOption("--user <id>", "the user id: github-<numeric id>, or local-admin (GET /api/audit?event=sign_in names them)")
    .action(async (o: { user: string }, cmd: Command) => {
      const g = globals(cmd);
      const all = await client(g).listGrants(o.user);
      print(g, { grants: all }, () =>
        all.length
          ? all
              .map(
                (x) => `${x.id}  ${x.login ?? x.user}  client ${x.clientId}  ${x.scopes.join(" ")}  since ${new Date(x.createdAt).toISOString().slice(0, 10)}`,
              )
              .join("\n")
          : `No sign-ins for ${o.user}.`,
      );
    });
  grants
    .command("revoke")
    .description("Revoke one sign-in by id, or every one of the person's with --all")
    .argument("[id]", "grant id from `grants list`")
    .requiredOption("--user <id>", "the user id the grant belongs to")
    .option("--all", "revoke every sign-in of the person")
    .action(async (id: string | undefined, o: { user: string; all?: boolean }, cmd: Command) => {
      if (!id && !o.all) throw new UsageError("Pass a grant id (from `grants list`) or --all.");
      if (id && o.all) throw new UsageError("Pass a grant id or --all, not both.");
      const g = globals(cmd);
      const revoked = await client(g).revokeGrants(o.user, id);
      print(g, { revoked }, () =>
        revoked.length ? `Revoked ${revoked.length} sign-in(s) of ${o.user}: ${revoked.join(", ")}.` : `${o.user} had no sign-ins.`,
      );
    });
}
