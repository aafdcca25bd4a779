/**
 * @module worker/search/language/report
 *
 * What a search response says about its query's language (`stats.queryLanguage`): present only
 * when the query was read as another language, so an English search's response is unchanged.
 */
import type { z } from "zod";
import type { queryLanguageSchema } from "../schema";
import type { QueryReading } from "./translate";

/** `stats.queryLanguage` of a search, or undefined for an English query. */
export function describeReading(original: string, r: QueryReading): z.infer<typeof queryLanguageSchema> | undefined {
  if (r.via === "none") return undefined;
  return {
    detected: r.language,
    via: r.via,
    original,
    searchedAs: r.englishText,
    terms: r.terms,
    passthrough: r.passthrough,
    unmapped: r.unmapped,
    ...(r.fallback ? { fallback: r.fallback } : {}),
  };
}
