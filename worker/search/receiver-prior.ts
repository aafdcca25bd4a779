/**
 * @module worker/search/receiver-prior
 *
 * A report whose title names a class, and whose code constructs one and uses a member of it
 * ("Wrong Derivative kind attribute", `d = Derivative(A, x)`, `d.kind`; ParsedQuery.receivers),
 * is about that class: what it shows is the member's behaviour, or the class's own when the
 * class does not define the member (the bug may be that it lacks it). That definition among the
 * fused head gets RECEIVER_PRIOR. Questions are left alone: their `Type.member` is an address,
 * which the qualified stage weighs. Pure.
 */
import { containerName } from "./channels/symbol";
import { applyPrior } from "./prior";
import type { QualifiedName } from "./query";
import { RECEIVER_PRIOR } from "./ranking/weights";

/** What applyReceiverPrior reads of a candidate. */
export interface ReceiverCandidate {
  score: number;
  chunkId: string;
  repo: string;
  path: string;
  kind: string;
  symbol: string | null;
  container: string | null;
}

/**
 * The chunk ids among `candidates` that define the members of `receivers`: for each, the member
 * in a class of that name (containerName, case-insensitive), else that class's own chunk. A
 * receiver defined in several files names none of them (a class name the repo reuses is no
 * address).
 */
export function receiverChunks(candidates: readonly ReceiverCandidate[], receivers: readonly QualifiedName[]): Set<string> {
  const out = new Set<string>();
  for (const r of receivers) {
    const owner = r.container.toLowerCase();
    const members = candidates.filter((c) => c.symbol === r.name && containerName(c.container) === owner);
    const found = members.length ? members : candidates.filter((c) => c.kind === "class" && c.symbol?.toLowerCase() === owner);
    if (new Set(found.map((c) => `${c.repo}\0${c.path}`)).size === 1) for (const c of found) out.add(c.chunkId);
  }
  return out;
}

/**
 * Multiplies by RECEIVER_PRIOR the scores of the candidates defining a receiver's member
 * (receiverChunks; once each, however many receivers name it) and re-sorts best first (ties:
 * input order). Returns the input when there are no receivers.
 */
export function applyReceiverPrior<T extends ReceiverCandidate>(candidates: T[], receivers: readonly QualifiedName[]): T[] {
  if (!receivers.length) return candidates;
  const ids = receiverChunks(candidates, receivers);
  return ids.size ? applyPrior(candidates, (c) => (ids.has(c.chunkId) ? RECEIVER_PRIOR : 1)) : candidates;
}
