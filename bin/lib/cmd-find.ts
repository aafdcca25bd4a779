/**
 * `codebase-copilot search|grep|ask`: the commands that find things, and their exit codes
 * (bin/lib/exit-codes.ts): 0 found, 1 nothing found (or below `--min-confidence`).
 */
import { Option, type Command } from "commander";
import { client, globals, list, positiveInt, print, repoFields } from "./cli-common.ts";
import { formatAnswer, formatGrep, formatSearch } from "./cli-format.ts";
import { EXIT } from "./exit-codes.ts";
import { grepPattern } from "./grep-options.ts";
import { CONFIDENCE_LEVELS, meetsConfidence, SEARCH_MODES, searchRequest, type SearchFlags } from "./search-options.ts";

const REPO_HELP = "comma-separated repo ids (default: every repo the token may see)";
const REF_HELP = 'branch or tag to read in each repo, e.g. "feature" or "v2.1" (default: each repo\'s default branch)';

/** Adds `search`, `ask` and `grep` to `program`. */
export function addFindCommands(program: Command): void {
  program
    .command("search")
    .description("Ranked hybrid search (BM25 + vectors + symbols + paths); exit 1 when nothing is found")
    .argument("<query...>", "what to look for, in words or identifiers")
    .option("--repo <ids>", REPO_HELP, list)
    .option("--ref <ref>", REF_HELP)
    .option("--k <n>", "number of results (at most 50; default 10)", positiveInt("--k"))
    .addOption(new Option("--mode <mode>", "hybrid fuses all channels (default); the others run one channel").choices(SEARCH_MODES))
    .option("--language <lang>", 'only chunks of this language, e.g. "typescript"')
    .option("--path-prefix <prefix-or-glob>", 'only paths starting with this ("src/router/") or matching a glob ("src/**/*.ts")')
    .option("--include-tests", "include test files (default: only when the query mentions tests)")
    .option("--no-include-tests", "leave test files out even when the query mentions tests")
    .option("--explain", "show why each result ranks where it does (channel ranks, fused score, stage factors)")
    .addOption(new Option("--min-confidence <level>", "exit 1 unless the answer's confidence is at least this (for CI)").choices(CONFIDENCE_LEVELS))
    .action(async (words: string[], o: SearchFlags, cmd: Command) => {
      const g = globals(cmd);
      const res = await client(g).search(searchRequest(words.join(" "), o));
      print(g, res, () => formatSearch(res));
      if (!meetsConfidence(res, o.minConfidence)) {
        if (res.results.length && !g.json) console.error(`confidence ${res.confidence?.level ?? "unknown"} is below --min-confidence ${o.minConfidence}`);
        process.exitCode = EXIT.noMatch;
      }
    });

  program
    .command("ask")
    .description("Answer a question from the index with a language model; every citation is checked (spends model tokens)")
    .argument("<question...>", "the question, in words")
    .option("--repo <ids>", REPO_HELP, list)
    .option("--ref <ref>", REF_HELP)
    .option("--k <n>", "search results to draw evidence from (at most 20)", positiveInt("--k"))
    .action(async (words: string[], o: { repo?: string[]; ref?: string; k?: number }, cmd: Command) => {
      const g = globals(cmd);
      const a = await client(g).ask({ question: words.join(" "), ...repoFields(o.repo), ...(o.ref ? { ref: o.ref } : {}), ...(o.k ? { k: o.k } : {}) });
      print(g, a, () => formatAnswer(a));
      if (a.status !== "answered") process.exitCode = EXIT.noMatch;
    });

  program
    .command("grep")
    .description("Exact or regex search: every matching line, in repo/path/line order; exit 1 when no line matches, as grep")
    .argument("[pattern]", "literal text (or an RE2 regex with -E)")
    .option("-e, --regexp <pattern>", "the pattern, as grep's -e (for a pattern that starts with -)")
    .option("-E, --regex", "treat the pattern as an RE2 regular expression (grep's -E)")
    .option("-i, --ignore-case", "match case-insensitively")
    .option("-w, --word", "whole words only")
    .option("--repo <ids>", REPO_HELP, list)
    .option("--ref <ref>", REF_HELP)
    .option("--path <prefix-or-glob>", 'only these paths, e.g. "src/" or "**/*.proto"')
    .option("--language <lang>", "only files of this language")
    .option("--no-tests", "leave test files out")
    .option("--limit <n>", "matching lines per page (at most 500)", positiveInt("--limit"))
    .option("--cursor <c>", "next page: the cursor the previous page printed")
    .action(async (argument: string | undefined, o: GrepFlags, cmd: Command) => {
      const g = globals(cmd);
      const pattern = grepPattern(argument, o.regexp);
      const page = await client(g).grep({
        pattern,
        regex: o.regex ?? false,
        case_sensitive: !o.ignoreCase,
        whole_word: o.word ?? false,
        ...repoFields(o.repo),
        ...(o.ref ? { ref: o.ref } : {}),
        ...(o.path ? { path: o.path } : {}),
        ...(o.language ? { language: o.language } : {}),
        include_tests: o.tests,
        ...(o.limit ? { limit: o.limit } : {}),
        ...(o.cursor ? { cursor: o.cursor } : {}),
      });
      print(g, page, () => formatGrep(page));
      if (page.total_count === 0) process.exitCode = EXIT.noMatch;
    });
}

/** Parsed options of `grep`. */
interface GrepFlags {
  regexp?: string;
  regex?: boolean;
  ignoreCase?: boolean;
  word?: boolean;
  repo?: string[];
  ref?: string;
  path?: string;
  language?: string;
  tests: boolean;
  limit?: number;
  cursor?: string;
}
