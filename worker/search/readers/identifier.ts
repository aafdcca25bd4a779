/**
 * @module worker/search/readers/identifier
 *
 * The identifier reader: a query of names only (`getUserById`, `LineBuffer::fill`, `JsonReader
 * skipValue`, `xarray.core.concat`): at most MAX_IDENTIFIER_WORDS words, each written as code.
 * It plans as a question does (questionPlan): the names it writes are what it asks for. A peer
 * of its own so that an identifier query's plan can change without touching the question's.
 */
import { MAX_IDENTIFIER_WORDS } from "../ranking/weights";
import { isCodeLike } from "./code-marks";
import { questionPlan } from "./question";
import type { QueryReader } from "./reader";

export const identifierReader: QueryReader = {
  name: "identifier",
  accepts: (f) => {
    if (!f.words.length || f.words.length > MAX_IDENTIFIER_WORDS) return false;
    const members = new Set(f.qualified.flatMap((q) => [q.container, q.name]));
    return f.words.every((w) => isCodeLike(w) || w.includes(".") || members.has(w));
  },
  read: (f) => questionPlan(f, "identifier"),
};
