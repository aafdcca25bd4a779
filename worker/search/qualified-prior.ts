/**
 * @module worker/search/qualified-prior
 *
 * A question that writes a member with its container (`JsonReader.skipValue`,
 * `LineBuffer::fill`, `Base#compile!`, ParsedQuery.qualified) gives an exact address: the
 * definition of that name in that container is what it asks for, so its chunks get a prior over
 * the same name elsewhere and over chunks that merely share the words. Reports are left alone:
 * a pasted trace qualifies every frame (`ReflectiveTypeAdapterFactory$Adapter.read`), and the
 * trace prior already weighs those. Pure.
 */
import { containerName } from "./channels/symbol";
import { applyPrior } from "./prior";
import type { QualifiedName } from "./query";

/** Multiplier of the scores of the chunks defining a qualified name the question writes. */
export const QUALIFIED_PRIOR = 2;

/**
 * Multiplies by QUALIFIED_PRIOR the scores of candidates whose `symbol` is the member of one of
 * `qualified` (case-sensitive) and whose container's last segment is its container
 * (case-insensitive, containerName), and re-sorts best first (ties: input order). Returns the
 * input when `qualified` is empty.
 */
export function applyQualifiedPrior<T extends { score: number; symbol: string | null; container: string | null }>(candidates: T[], qualified: QualifiedName[]): T[] {
  if (!qualified.length) return candidates;
  const wanted = new Set(qualified.map((q) => `${q.container.toLowerCase()}\0${q.name}`));
  return applyPrior(candidates, (c) => (c.symbol !== null && wanted.has(`${containerName(c.container)}\0${c.symbol}`) ? QUALIFIED_PRIOR : 1));
}
