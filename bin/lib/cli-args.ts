/**
 * Command line of `npm start`: parsing with commander (a bad option gives the usage line, not a
 * stack trace) and the hints printed when a server already runs. Pure.
 */
import { Command, CommanderError } from "commander";

/** The one-line usage, printed by `--help` and after any argument error. */
export const USAGE = "Usage: npm start [-- <git-url-or-local-path>] [--port 8787] [--name <repo-id>] [--ref <branch|tag|commit>]";

/** Parsed options of `npm start`. `port` is still a string: the caller checks the range. */
export interface CliArgs {
  port: string;
  name?: string;
  ref?: string;
  help: boolean;
  source?: string;
}

/**
 * Parses `argv` (without node and the script). `defaultPort` is `PORT` or 8787.
 * @returns the options, or `{error}` with a one-line message for an unknown option, a missing
 *   value or a second positional argument.
 */
export function parseCliArgs(argv: string[], defaultPort: string): CliArgs | { error: string } {
  let error: string | undefined;
  const program = new Command("npm start")
    .argument("[source]")
    .option("--port <port>", "TCP port", defaultPort)
    .option("--name <id>")
    .option("--ref <ref>")
    .option("-h, --help")
    .helpOption(false)
    .exitOverride()
    .configureOutput({ writeOut: () => {}, writeErr: () => {}, outputError: (m) => (error = m.trim().replace(/^error: /, "")) });
  try {
    program.parse(argv, { from: "user" });
  } catch (err) {
    if (err instanceof CommanderError) return { error: error ?? err.message };
    throw err;
  }
  const o = program.opts<{ port: string; name?: string; ref?: string; help?: boolean }>();
  return { port: o.port, name: o.name, ref: o.ref, help: o.help ?? false, source: program.args[0] };
}

/** Quotes a string for a POSIX shell. */
export function shellQuote(s: string): string {
  return /^[\w./:@%+=,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * Shell commands that add a folder (as repo `id`) or a git URL to a server already running on
 * `base`, through the CLI at `cli` (bin/codebase-copilot.mjs, which any Node starts). The CLI
 * sends what `git ls-files` lists (never `.git/` or ignored folders such as node_modules, which
 * a plain tar of the folder would send, past the 64 MiB upload limit) and finds the server
 * through the URL `npm start` recorded.
 */
export function addToRunningServer(cli: string, target: { dir: string; id: string } | { url: string } | null): string[] {
  const run = `node ${shellQuote(cli)} index`;
  const folder = target && "dir" in target ? `${shellQuote(target.dir)} --name ${target.id}` : "<folder>";
  const url = target && "url" in target ? shellQuote(target.url) : "<git-url>";
  return [`${run} ${folder} --wait`, `${run} ${url} --wait`];
}
