/**
 * `codebase-copilot grep`'s pattern, taken as grep takes it: the first argument, or `-e PATTERN`
 * (`--regexp`); `-E` (`--regex`) makes it an RE2 regular expression, else it is literal text. Pure.
 */
import { UsageError } from "./cli-common.ts";

/**
 * The one pattern of a grep call.
 * @throws UsageError when none is given, or when both the argument and `-e` give one (grep
 *   would read the argument as a file name, and this grep searches the index, not files).
 */
export function grepPattern(argument: string | undefined, regexp: string | undefined): string {
  if (argument !== undefined && regexp !== undefined)
    throw new UsageError(`give the pattern once: as the argument or with -e, not both (got "${regexp}" and "${argument}").`);
  const pattern = regexp ?? argument;
  if (pattern === undefined || pattern === "")
    throw new UsageError("grep needs a pattern: codebase-copilot grep <pattern>, or -e <pattern>; add -E for a regex.");
  return pattern;
}
