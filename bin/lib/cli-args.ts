/**
 * Command line of `npm start`: parsing (a bad option gives the usage line, not a stack trace)
 * and the hints printed when a server already runs. Pure.
 */
import { parseArgs } from "node:util";

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
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        port: { type: "string", default: defaultPort },
        name: { type: "string" },
        ref: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (err) {
    // parseArgs' messages ("Unknown option '--bogus'. To specify a positional argument ...") are clear enough.
    return { error: err instanceof Error ? err.message.split("\n")[0] : String(err) };
  }
  const { values, positionals } = parsed;
  if (positionals.length > 1) return { error: `Expected one git URL or folder, got ${positionals.length}: ${positionals.join(" ")}` };
  return { port: values.port, name: values.name, ref: values.ref, help: values.help ?? false, source: positionals[0] };
}

/** Quotes a string for a POSIX shell. */
export function shellQuote(s: string): string {
  return /^[\w./:@%+=,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * Shell commands that add a folder (as repo `id`) or a git URL to a server already running on
 * `base`, using the admin token file. The folder is sent as `tar czf - -C <dir> .`; `strip=0`
 * keeps its paths exactly as they are in the folder.
 */
export function addToRunningServer(base: string, tokenFile: string, target: { dir: string; id: string } | { url: string } | null): string[] {
  const auth = `-H "Authorization: Bearer $(cat ${shellQuote(tokenFile)})"`;
  const folder = target && "dir" in target ? target : { dir: "<folder>", id: "<repo-id>" };
  const lines = [
    `tar czf - -C ${folder.dir === "<folder>" ? folder.dir : shellQuote(folder.dir)} . | curl -s ${auth} --data-binary @- '${base}/api/repos/${folder.id}/archive?strip=0'`,
  ];
  const url = target && "url" in target ? target.url : "<git-url>";
  lines.push(`curl -s ${auth} -H 'content-type: application/json' -d '{"url": "${url}"}' ${base}/api/repos`);
  return lines;
}
