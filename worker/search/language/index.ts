/**
 * @module worker/search/language
 *
 * The language reader: a query written mostly in another language becomes English code-search
 * words (docs/multilingual.md). `readQueryLanguage` is the pure offline reader (glossary),
 * `readQuery` adds the configured model; `describeReading` is what a search reports about it.
 */
export { detectLanguage, type QueryLanguage } from "./detect";
export { GLOSSARY_LANGUAGES, glossaryStats } from "./glossary";
export { readQueryLanguage, type LanguageReading, type MappedTerm } from "./read";
export { describeReading } from "./report";
export { readQuery, type QueryReading, type TranslateDeps } from "./translate";
