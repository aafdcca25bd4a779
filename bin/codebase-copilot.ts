#!/usr/bin/env node
/**
 * `codebase-copilot`: the command-line client for scripts and CI (Node >= 22.18, which runs
 * TypeScript directly; bin/codebase-copilot.mjs, the installed entry, finds such a Node).
 * `codebase-copilot --help` lists the commands; every command has `--help`.
 *
 * Exit codes (bin/lib/exit-codes.ts): 0 success, 1 nothing found, 2 usage, 3 not found,
 * 4 authentication or permission, 5 any other error.
 * Output is for people by default; `--json` prints the API's JSON for scripts.
 */
import { Command, CommanderError, Option } from "commander";
import { ApiError, createApiClient } from "./lib/api-client.ts";
import { configPath, writeStoredConfig } from "./lib/cli-config.ts";
import { client, globals, print, target, UsageError } from "./lib/cli-common.ts";
import { formatRepoLine, formatRepoStatus, formatReview, formatSchedule } from "./lib/cli-format.ts";
import { addFindCommands } from "./lib/cmd-find.ts";
import { addGrantCommands } from "./lib/cmd-grants.ts";
import { addHistoryCommands } from "./lib/cmd-history.ts";
import { addSuggestTestsCommand } from "./lib/cmd-suggest-tests.ts";
import { addTokenCommands } from "./lib/cmd-tokens.ts";
import { EXIT, exitCodeForStatus } from "./lib/exit-codes.ts";
import { errorText, followProgress, followTracked, startIndexing } from "./lib/index-source.ts";
import { callerCwd } from "./lib/paths.ts";
import { describeTracked } from "./lib/register-url.ts";
import { renderDone } from "./lib/progress.ts";
import { formatDryRun, readDiff, reviewRequest } from "./lib/review-request.ts";

/** Builds the command tree. `run` wraps each action so errors map to exit codes in one place. */
function buildProgram(): Command {
  const program = new Command("codebase-copilot")
    .description("Index repositories and search them on a Codebase Copilot server.")
    .addOption(new Option("--url <url>", "server base URL (default: $CODEBASE_COPILOT_URL, the login config, or a local npm start)"))
    .addOption(new Option("--token <token>", "bearer token (default: $CODEBASE_COPILOT_TOKEN, the login config, or the local admin token)"))
    .option("--json", "print JSON for scripts")
    .showHelpAfterError()
    .exitOverride();

  program
    .command("login")
    .description("Check a server URL and token (--url, --token), then store them (mode 600) for later commands")
    .option("--admin", "store an admin token (one that may manage tokens); refused without this flag")
    .addHelpText("after", "\nExample:\n  codebase-copilot login --url https://copilot.example.com --token <token from `tokens create`>")
    .action(async (l: { admin?: boolean }, cmd: Command) => {
      const o = globals(cmd);
      if (!o.url || !o.token) throw new UsageError("login needs --url <server> and --token <token>.");
      const api = createApiClient(o.url, o.token);
      await api.listRepos();
      if (!l.admin && (await isAdminToken(api)))
        throw new UsageError(
          "this is an admin token: it can mint and revoke tokens and see every repo, so it is not stored for everyday use. " +
            "Log in with a scoped token instead (codebase-copilot tokens create --name me --scopes search), or pass --admin to store this one anyway.",
        );
      const path = configPath(process.env);
      writeStoredConfig(path, { url: o.url.replace(/\/+$/, ""), token: o.token });
      print(o, { url: o.url, config: path }, () => `Logged in to ${o.url}; saved to ${path} (mode 600).`);
    });

  program
    .command("index")
    .description("Index a local folder (uploaded as an archive) or a git URL (fetched by the server)")
    .argument("<source>", "a folder path or a git URL")
    .option("--name <repo-id>", "repo id (default: the folder's name, or derived from the URL)")
    .option("--ref <ref>", "branch, tag or commit of a git URL")
    .option("--wait", "wait until indexing ends, showing progress; exit 5 if it fails")
    .action(async (source: string, o: { name?: string; ref?: string; wait?: boolean }, cmd: Command) => {
      const g = globals(cmd);
      const api = client(g);
      const startedAt = Date.now();
      const started = await startIndexing(api, { source, name: o.name, ref: o.ref }, (line) => process.stderr.write(`${line}\n`));
      if (started.tracked) {
        // --ref on an existing repo: the ref is tracked beside the default branch (docs/refs.md).
        if (!o.wait) return print(g, started, () => `${describeTracked(started)} Follow it with: codebase-copilot status ${started.id}`);
        const { status, failed } = await followTracked(api, started.id, started.tracked);
        print(g, { ...status, tracked: started.tracked, failed }, () =>
          failed.length
            ? `Indexing ${failed.map((f) => `${f.name} of "${started.id}" failed: ${f.error}`).join("; ")}`
            : `Indexed ${started.tracked!.map((t) => `${t.name} at ${t.commit.slice(0, 12)}`).join(", ") || "nothing (no ref matches yet)"} of "${started.id}" in ${((Date.now() - startedAt) / 1000).toFixed(1)} s.`,
        );
        if (failed.length) process.exitCode = EXIT.error;
        return;
      }
      if (!o.wait)
        return print(g, started, () => `Indexing "${started.id}" started (${started.status}). Follow it with: codebase-copilot status ${started.id}`);
      const final = await followProgress(api, started.id, process.stderr);
      print(g, final, () => (final.status === "failed" ? `Indexing "${final.id}" failed: ${errorText(final)}` : renderDone(final, Date.now() - startedAt)));
      if (final.status === "failed") process.exitCode = EXIT.error;
    });

  program
    .command("status")
    .description("Show one repo's index status, or list every repo the token may see")
    .argument("[repo]", "repo id")
    .action(async (repo: string | undefined, _o, cmd: Command) => {
      const g = globals(cmd);
      const api = client(g);
      const schedule = await api.schedule();
      if (repo) {
        const s = await api.status(repo);
        return print(g, s, () => `${formatRepoStatus(s)}\n${formatSchedule(schedule)}`);
      }
      const repos = await api.listRepos();
      print(g, { repos, schedule }, () =>
        [
          repos.length ? repos.map(formatRepoLine).join("\n") : "No repositories yet. Add one with: codebase-copilot index <folder|git-url>",
          formatSchedule(schedule),
        ].join("\n"),
      );
    });

  addFindCommands(program);
  addSuggestTestsCommand(program);
  addHistoryCommands(program);

  program
    .command("review")
    .description("Review a diff with the model: findings pinned to real lines (spends model tokens; needs the index scope)")
    .requiredOption("--repo <id>", "the indexed repo the change belongs to")
    .option("--diff <file>", "a unified diff file, or - for stdin")
    .option("--base <ref>", "review `git diff <ref>...HEAD` of the git checkout in the current folder")
    .option("--ref <ref>", "branch or tag of the repo the review reads (default: its default branch)")
    .option("--dry-run", "print the exact request (token redacted) and exit without calling the server or the model")
    .action(async (o: { repo: string; diff?: string; base?: string; ref?: string; dryRun?: boolean }, cmd: Command) => {
      const g = globals(cmd);
      let diff: string;
      try {
        diff = readDiff({ diff: o.diff, base: o.base });
      } catch (err) {
        throw new UsageError((err as Error).message);
      }
      if (o.dryRun) {
        const t = target(g);
        return console.log(formatDryRun(reviewRequest(t.url, t.token ?? "", o.repo, diff, o.ref)));
      }
      const r = await client(g).review(o.repo, diff, o.ref);
      print(g, r, () => formatReview(r, o.repo));
    });

  addTokenCommands(program);
  addGrantCommands(program);
  return program;
}

/** Whether `api`'s token may manage tokens (`GET /api/tokens` needs the admin scope). */
async function isAdminToken(api: ReturnType<typeof createApiClient>): Promise<boolean> {
  try {
    await api.listTokens();
    return true;
  } catch (err) {
    if (err instanceof ApiError && err.status === 403) return false;
    throw err;
  }
}

/** Maps an error to its exit code and prints one line for it. */
function reportError(err: unknown): number {
  if (err instanceof CommanderError) {
    if (err.code === "commander.helpDisplayed" || err.code === "commander.help" || err.code === "commander.version") return EXIT.ok;
    return EXIT.usage; // commander already printed the message and the help hint
  }
  if (err instanceof UsageError) {
    console.error(`error: ${err.message}`);
    return EXIT.usage;
  }
  if (err instanceof ApiError) {
    console.error(`error: ${err.message}`);
    return exitCodeForStatus(err.status);
  }
  console.error(`error: ${err instanceof Error ? err.message : String(err)}`);
  return EXIT.error;
}

/** Applies `exitOverride` to every subcommand too (commander sets it per command). */
function overrideExits(cmd: Command): void {
  cmd.exitOverride();
  for (const sub of cmd.commands) overrideExits(sub);
}

// Under `npm run cli` (which runs from the project root) a folder, a diff or --write is relative to where the user ran npm.
process.chdir(callerCwd());
const program = buildProgram();
overrideExits(program);
program.parseAsync(process.argv).then(
  () => process.exit(process.exitCode ?? EXIT.ok),
  (err: unknown) => process.exit(reportError(err)),
);
