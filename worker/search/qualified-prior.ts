/**
 * @module worker/search/qualified-prior
 *
 * A question that writes a member with its container (`JsonReader.skipValue`,
 * `LineBuffer::fill`, `Base#compile!`, ParsedQuery.qualified), or names both apart ("JsonReader
 * skipValue"), gives an address: the definition of that name in that container is what it asks
 * for, so its chunks get a prior over the same name elsewhere and over chunks that merely share
 * the words. Reports are left alone:
 * a pasted trace qualifies every frame (`ReflectiveTypeAdapterFactory$Adapter.read`), and the
 * trace prior already weighs those. Pure.
 */
import { containerName } from "./channels/symbol";
import { applyPrior } from "./prior";
import type { QualifiedName } from "./query";
import { QUALIFIED_PRIOR } from "./ranking/weights";

/**
 * Multiplies by QUALIFIED_PRIOR the scores of candidates that define a member the question
 * addresses, and re-sorts best first (ties: input order): their `symbol` is the member of one of
 * `qualified` (case-sensitive) in its container (the container's last segment, case-insensitive,
 * containerName), or is one of `names` (the question's identifiers, case-sensitive) while their
 * container is another of them (a constructor, named after its class, is not addressed by the
 * class name; only when the question writes no qualified name). Returns the input when nothing
 * can match.
 */
export function applyQualifiedPrior<T extends { score: number; symbol: string | null; container: string | null }>(
  candidates: T[],
  qualified: QualifiedName[],
  names: string[] = [],
): T[] {
  if (!qualified.length && names.length < 2) return candidates;
  const wanted = new Set(qualified.map((q) => `${q.container.toLowerCase()}\0${q.name}`));
  // Written qualified, the address is exact: its parts named apart (`compile` of `compile!`) add nothing.
  const named = new Set(qualified.length ? [] : names);
  const namedLower = new Set(names.map((n) => n.toLowerCase()));
  const addressed = (c: T) => {
    if (c.symbol === null) return false;
    const owner = containerName(c.container);
    return wanted.has(`${owner}\0${c.symbol}`) || (named.has(c.symbol) && owner !== "" && owner !== c.symbol.toLowerCase() && namedLower.has(owner));
  };
  return applyPrior(candidates, (c) => (addressed(c) ? QUALIFIED_PRIOR : 1));
}
