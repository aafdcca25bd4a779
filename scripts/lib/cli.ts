/**
 * @module scripts/lib/cli
 *
 * Command-line options of the evaluation and benchmark scripts: `node:util` `parseArgs` in
 * strict mode, plus `--help`/`-h`. Usage goes to stdout on `--help` (exit 0); an unknown option,
 * a missing value or a stray positional prints a one-line error and the usage to stderr (exit 2)
 * instead of a stack trace.
 */
import { parseArgs, type ParseArgsOptionsConfig } from "node:util";

/** The parsed `values` of `options` (plus `help`). */
type Values<O extends ParseArgsOptionsConfig> = ReturnType<typeof parseArgs<{ options: O; strict: true; allowPositionals: false }>>["values"];

/**
 * Parses `argv` (default: `process.argv` without node and the script) against `options`.
 * Exits the process on `--help` (status 0) and on bad input (status 2), as described above.
 */
export function parseCli<const O extends ParseArgsOptionsConfig>(usage: string, options: O, argv: string[] = process.argv.slice(2)): Values<O> {
  const text = usage.endsWith("\n") ? usage : `${usage}\n`;
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(text);
    process.exit(0);
  }
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values as Values<O>;
  } catch (err) {
    // parseArgs' first line says what is wrong ("Unknown option '--bogus'"); the rest is advice for positionals.
    process.stderr.write(`error: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}\n\n${text}`);
    process.exit(2);
  }
}
