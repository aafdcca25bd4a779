/** @module evals/lib/run-usage — the `npm run eval` usage text (evals/run.ts prints it for --help and errors). */

/** Usage of `npm run eval`: the sets and every option. */
export const USAGE = `npm run eval -- --set fixture|hono-50|swebench|multifile|polyglot|reports|unanswerable|multilingual|ask|review [options]
  (multifile: bug fixes spanning 2-5 files, evals/sets/multifile.json; scored as swebench, plus file recall)
  (ask: grounded answers; starts its own server from a clean export of --commit, with the real
  Anthropic API when ANTHROPIC_API_KEY is set, else a scripted one: evals/lib/ask-eval.ts)
  (review: diffs with planted defects, evals/sets/review; same provider rule: evals/lib/review-eval.ts;
  EVAL_PORT / EVAL_SCRIPTED_PORT pin the ports)
  --base-url URL        running instance (default http://127.0.0.1:8787)
  --token T             bearer token (default: .codebase-copilot/admin-token, or $CODEBASE_COPILOT_TOKEN)
  --corpus DIR          index this folder first (fixture: default evals/fixture-repo)
  --corpus-root DIR     swebench, polyglot, reports, unanswerable, multilingual: folder of exported trees <name>-<short commit> (default /tmp/cc-corpora)
  --repo ID             repo id to search (and to index into); defaults per set
  --include R           hono-50 inclusion rule: publisher | whole | both (default both)
  --mode M              hybrid | bm25 | vector | symbol
  --per-file-cap N      results per file (0 = no cap); server default when absent
  --channels a,b        channels to fuse, when the server supports choosing them
  --ablation            run every variant of evals/lib/variants.ts instead of one
  --disable-rule ID     the defaults, then report rules ID[,ID] off (worker/search/rules.ts; admin token);
                        all: each rule off alone in turn; prints the rule table (evals/lib/rule-ablation.ts)
  --k N                 results per query (default 10; swebench 50)
  --repos a/b,c/d       swebench: only these repositories; polyglot, reports, unanswerable: only these sets (gin or gin-gonic/gin)
  --per-repo N          swebench: at most N instances per repository (default 20)
  --instances a,b       swebench: only these instance ids (error analysis; overrides --repos/--per-repo)
  --explain             swebench: keep every result with its explain (channel ranks, stage factors) in --out
  --bench-dir DIR       public sets (default ../shared/bench next to the project)
  --out FILE            JSON output (default evals/out/<set>.json)
  --write-readme        write this run's blocks: full tables in docs/evaluation.md, summary in README.md
  --merge a.json,b.json swebench: one block from saved runs of one commit over disjoint instances
                        (several servers at once), written to --out; with --write-readme, its blocks
  --readme-from FILE    write those blocks from a saved run (the JSON --out wrote; same --set and
                        --ablation) and exit, without running
  --commit SHA          commit the server runs, for the provenance line (default: this checkout's HEAD;
                        scripts/serve-snapshot.ts prints it)`;
