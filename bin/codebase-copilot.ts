#!/usr/bin/env node
/**
 * `codebase-copilot`: the command-line client for scripts and CI (Node >= 22.18, which runs
 * TypeScript directly). `codebase-copilot --help` lists the commands; every command has `--help`.
 *
 * Exit codes: 0 success, 1 error (API, network, indexing failed), 2 usage, 3 not found.
 * Output is for people by default; `--json` prints the API's JSON for scripts.
 */
import { Command, CommanderError, Option } from "commander";
import { ApiError, createApiClient, type ApiClient } from "./lib/api-client.ts";
import { configPath, localAdminToken, readStoredConfig, resolveTarget, writeStoredConfig, type Target } from "./lib/cli-config.ts";
import { formatAnswer, formatGrep, formatRepoLine, formatRepoStatus, formatReview, formatSearch, formatTokens } from "./lib/cli-format.ts";
import { errorText, followProgress, startIndexing } from "./lib/index-source.ts";
import { renderDone } from "./lib/progress.ts";
import { formatDryRun, readDiff, reviewRequest } from "./lib/review-request.ts";

/** Process exit codes of the CLI. */
const EXIT = { ok: 0, error: 1, usage: 2, notFound: 3 } as const;

/** Options every command accepts. */
interface GlobalOptions {
  url?: string;
  token?: string;
  json?: boolean;
}

/** A usage error found after parsing (a missing token, a bad number): exit 2. */
class UsageError extends Error {
  override name = "UsageError";
}

function target(opts: GlobalOptions): Target {
  return resolveTarget(opts, process.env, readStoredConfig(configPath(process.env)), { token: localAdminToken() });
}

function client(opts: GlobalOptions): ApiClient {
  const t = target(opts);
  if (!t.token)
    throw new UsageError(`No token for ${t.url}. Pass --token, set CODEBASE_COPILOT_TOKEN, or run "codebase-copilot login --url ${t.url} --token <token>".`);
  return createApiClient(t.url, t.token);
}

function print(opts: GlobalOptions, data: unknown, human: () => string): void {
  console.log(opts.json ? JSON.stringify(data, null, 2) : human());
}

function positiveInt(name: string): (v: string) => number {
  return (v) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${name} must be a positive integer; got "${v}".`);
    return n;
  };
}

function list(v: string): string[] {
  return v
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Builds the command tree. `run` wraps each action so errors map to exit codes in one place. */
function buildProgram(): Command {
  const program = new Command("codebase-copilot")
    .description("Index repositories and search them on a Codebase Copilot server.")
    .addOption(new Option("--url <url>", "server base URL (default: $CODEBASE_COPILOT_URL, the login config, or a local npm start)"))
    .addOption(new Option("--token <token>", "bearer token (default: $CODEBASE_COPILOT_TOKEN, the login config, or the local admin token)"))
    .option("--json", "print JSON for scripts")
    .showHelpAfterError()
    .exitOverride();
  const globals = (cmd: Command) => cmd.optsWithGlobals<GlobalOptions>();

  program
    .command("login")
    .description("Check a server URL and token (--url, --token), then store them (mode 600) for later commands")
    .addHelpText("after", "\nExample:\n  codebase-copilot login --url https://copilot.example.com --token <token from `tokens create`>")
    .action(async (_o, cmd: Command) => {
      const o = globals(cmd);
      if (!o.url || !o.token) throw new UsageError("login needs --url <server> and --token <token>.");
      const api = createApiClient(o.url, o.token);
      await api.listRepos();
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
    .option("--wait", "wait until indexing ends, showing progress; exit 1 if it fails")
    .action(async (source: string, o: { name?: string; ref?: string; wait?: boolean }, cmd: Command) => {
      const g = globals(cmd);
      const api = client(g);
      const startedAt = Date.now();
      const started = await startIndexing(api, { source, name: o.name, ref: o.ref }, (line) => process.stderr.write(`${line}\n`));
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
      if (repo) {
        const s = await api.status(repo);
        return print(g, s, () => formatRepoStatus(s));
      }
      const repos = await api.listRepos();
      print(g, { repos }, () =>
        repos.length ? repos.map(formatRepoLine).join("\n") : "No repositories yet. Add one with: codebase-copilot index <folder|git-url>",
      );
    });

  program
    .command("search")
    .description("Ranked hybrid search (BM25 + vectors + symbols + paths)")
    .argument("<query...>", "what to look for, in words or identifiers")
    .option("--repo <ids>", "comma-separated repo ids (default: every repo the token may see)")
    .option("--k <n>", "number of results", positiveInt("--k"))
    .action(async (words: string[], o: { repo?: string; k?: number }, cmd: Command) => {
      const g = globals(cmd);
      const res = await client(g).search(words.join(" "), { repo: o.repo, k: o.k });
      print(g, res, () => formatSearch(res));
    });

  program
    .command("ask")
    .description("Answer a question from the index with a language model; every citation is checked (spends model tokens)")
    .argument("<question...>", "the question, in words")
    .option("--repo <ids>", "comma-separated repo ids (default: every repo the token may see)", list)
    .option("--k <n>", "search results to draw evidence from (at most 20)", positiveInt("--k"))
    .action(async (words: string[], o: { repo?: string[]; k?: number }, cmd: Command) => {
      const g = globals(cmd);
      const a = await client(g).ask({
        question: words.join(" "),
        ...(o.repo?.length === 1 ? { repo: o.repo[0] } : o.repo ? { repos: o.repo } : {}),
        ...(o.k ? { k: o.k } : {}),
      });
      print(g, a, () => formatAnswer(a));
      if (a.status !== "answered") process.exitCode = EXIT.error;
    });

  program
    .command("review")
    .description("Review a diff with the model: findings pinned to real lines (spends model tokens; needs the index scope)")
    .requiredOption("--repo <id>", "the indexed repo the change belongs to")
    .option("--diff <file>", "a unified diff file, or - for stdin")
    .option("--base <ref>", "review `git diff <ref>...HEAD` of the git checkout in the current folder")
    .option("--dry-run", "print the exact request (token redacted) and exit without calling the server or the model")
    .action(async (o: { repo: string; diff?: string; base?: string; dryRun?: boolean }, cmd: Command) => {
      const g = globals(cmd);
      let diff: string;
      try {
        diff = readDiff({ diff: o.diff, base: o.base });
      } catch (err) {
        throw new UsageError((err as Error).message);
      }
      if (o.dryRun) {
        const t = target(g);
        return console.log(formatDryRun(reviewRequest(t.url, t.token ?? "", o.repo, diff)));
      }
      const r = await client(g).review(o.repo, diff);
      print(g, r, () => formatReview(r));
    });

  program
    .command("grep")
    .description("Exact or regex search: every matching line, in repo/path/line order")
    .argument("<pattern>", "literal text, or an RE2 regex with --regex")
    .option("-e, --regex", "treat the pattern as an RE2 regular expression")
    .option("-i, --ignore-case", "match case-insensitively")
    .option("-w, --word", "whole words only")
    .option("--repo <ids>", "comma-separated repo ids (default: every repo the token may see)", list)
    .option("--path <prefix-or-glob>", 'only these paths, e.g. "src/" or "**/*.proto"')
    .option("--language <lang>", "only files of this language")
    .option("--no-tests", "leave test files out")
    .option("--limit <n>", "matching lines per page (at most 500)", positiveInt("--limit"))
    .option("--cursor <c>", "next page: the cursor the previous page printed")
    .action(
      async (
        pattern: string,
        o: {
          regex?: boolean;
          ignoreCase?: boolean;
          word?: boolean;
          repo?: string[];
          path?: string;
          language?: string;
          tests: boolean;
          limit?: number;
          cursor?: string;
        },
        cmd: Command,
      ) => {
        const g = globals(cmd);
        const page = await client(g).grep({
          pattern,
          regex: o.regex ?? false,
          case_sensitive: !o.ignoreCase,
          whole_word: o.word ?? false,
          ...(o.repo?.length === 1 ? { repo: o.repo[0] } : o.repo ? { repos: o.repo } : {}),
          ...(o.path ? { path: o.path } : {}),
          ...(o.language ? { language: o.language } : {}),
          include_tests: o.tests,
          ...(o.limit ? { limit: o.limit } : {}),
          ...(o.cursor ? { cursor: o.cursor } : {}),
        });
        print(g, page, () => formatGrep(page));
        // As grep: exit 1 when nothing matched, so scripts can test for presence.
        if (page.total_count === 0) process.exitCode = EXIT.error;
      },
    );

  const tokens = program.command("tokens").description("Create, list and revoke API tokens (needs an admin token)");
  tokens
    .command("create")
    .description("Create a token; its secret is printed once")
    .requiredOption("--name <name>", "what the token is for, e.g. 'ci nightly'")
    .option("--scopes <list>", "comma-separated: search, index, admin", list, ["search"])
    .option("--repos <ids>", "comma-separated repo ids the token may see (default: all the creator may see)", list)
    .option("--expires-in-days <n>", "lifetime in days", positiveInt("--expires-in-days"))
    .action(async (o: { name: string; scopes: string[]; repos?: string[]; expiresInDays?: number }, cmd: Command) => {
      const g = globals(cmd);
      const t = await client(g).createToken({
        name: o.name,
        scopes: o.scopes,
        ...(o.repos ? { repos: o.repos } : {}),
        ...(o.expiresInDays ? { expiresInDays: o.expiresInDays } : {}),
      });
      print(g, t, () => `Created token ${t.id} (${t.scopes.join(" ")}${t.repos ? `; repos ${t.repos.join(", ")}` : ""}). Shown once:\n\n  ${t.token}\n`);
    });
  tokens
    .command("list")
    .description("List tokens (never their secrets)")
    .action(async (_o, cmd: Command) => {
      const g = globals(cmd);
      const list = await client(g).listTokens();
      print(g, { tokens: list }, () => formatTokens(list));
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
  return program;
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
    return err.status === 404 ? EXIT.notFound : EXIT.error;
  }
  console.error(`error: ${err instanceof Error ? err.message : String(err)}`);
  return EXIT.error;
}

/** Applies `exitOverride` to every subcommand too (commander sets it per command). */
function overrideExits(cmd: Command): void {
  cmd.exitOverride();
  for (const sub of cmd.commands) overrideExits(sub);
}

const program = buildProgram();
overrideExits(program);
program.parseAsync(process.argv).then(
  () => process.exit(process.exitCode ?? EXIT.ok),
  (err: unknown) => process.exit(reportError(err)),
);
