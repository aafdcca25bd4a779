/**
 * @module worker/search/readers/entry-question
 *
 * Whether a question asks where the program starts ("where is the main entry point", "where
 * does the CLI start"): the question reader then plans the entry lookup and the `entry` stage
 * (worker/search/entry-points.ts reads the repos' entries). Pure.
 */

/**
 * Phrases by which a question asks where a program starts. "main" alone is not one ("the main
 * router"), nor is "start" ("the start of the line"); "main function/file/module/entry",
 * "entry point", "bootstrap", "where does X start/begin" and "starting point" are.
 */
const ENTRY_INTENT_RE = new RegExp(
  [
    String.raw`\bentry[\s-]?points?\b`,
    String.raw`\bentry (?:file|module|script)s?\b`,
    String.raw`\bmain (?:entry|function|file|module|program|script|method|executable|binary|package)s?\b`,
    String.raw`\bmain\(\)`,
    String.raw`\bbootstrap(?:s|ped|ping)?\b`,
    String.raw`\bstart(?:ing)? ?points?\b`,
    String.raw`\bwhere (?:does|do|is|are) (?:the )?(?:\w+ ){0,2}(?:start|starts|begin|begins|launched|started|boot|boots)\b`,
    String.raw`\b(?:program|application|app|server|cli|process|execution) (?:starts?|begins?|boots?)\b`,
  ].join("|"),
  "i",
);

/**
 * Python's packaging "entry points" are a plugin registry (`importlib.metadata.entry_points`,
 * setuptools' `entry_points=` groups), not where a program starts: "discover plugins from entry
 * points" asks for that registry.
 */
const PLUGIN_ENTRY_POINTS_RE = /\bplug-?ins?\b|\bentry[_ ]points? groups?\b|\bentry_points\b|importlib/i;

/** Whether a question (not a pasted report) asks where the program starts. */
export function asksForEntryPoint(question: string): boolean {
  return ENTRY_INTENT_RE.test(question) && !PLUGIN_ENTRY_POINTS_RE.test(question);
}
