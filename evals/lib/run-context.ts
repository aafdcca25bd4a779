/**
 * @module evals/lib/run-context
 *
 * What the evaluation runner (evals/run.ts) hands the set runners (run-retrieval.ts,
 * swe-blocks.ts): the client, the parsed options they read, and the provenance of the run.
 */
import type { ApiClient } from "./client.ts";
import type { SearchVariant } from "./types.ts";

/** A run's JSON output: provenance plus the set's own fields. */
export interface RunOutput {
  set: string;
  date: string;
  commit: string;
  command: string;
  [key: string]: unknown;
}

/** The provenance fields every block ends with. */
export interface RunMeta {
  set: string;
  date: string;
  commit: string;
  command: string;
}

/** The runner's state, as the set runners need it. */
export interface RunContext {
  /** The project checkout. */
  root: string;
  client: ApiClient;
  log: (line: string) => void;
  /** `--set`. */
  setName: string;
  /** The search variants the command line asks for (one, the ablation list, or the rule variants). */
  variants: SearchVariant[];
  /** `--k` as given; undefined: the set's default. */
  k: string | undefined;
  /** `--ablation`. */
  ablation: boolean;
  /** `--corpus-root` as given. */
  corpusRoot: string;
  /** `--repos` as given. */
  repos: string | undefined;
  /** This run's set, date (YYYY-MM-DD), commit and command line, read when called. */
  meta(): RunMeta;
  /** The provenance line's configuration part for `repo` (server and embedding model). */
  serverConfig(repo: string): Promise<string>;
}
