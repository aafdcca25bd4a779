/**
 * @module worker/ask/verify
 *
 * Citation verification. A citation is verified when it names an evidence item the model was
 * given, in the same repo and file, with lines inside that item's lines, and the repo's active
 * snapshot is still the one the evidence was read from. Every other citation is rejected with a
 * reason and its inline marker is removed from the answer text, so nothing unverified is shown
 * as a citation. Pure: the active snapshots are passed in.
 */
import { inlineCitations, type ModelCitation } from "./answer-format";
import type { EvidenceItem } from "./evidence";

/** Why a citation was rejected. */
export type RejectReason = "unknown_evidence" | "repo_mismatch" | "path_mismatch" | "invalid_range" | "outside_evidence" | "snapshot_changed";

/** A citation that passed. */
export interface VerifiedCitation {
  evidence: string;
  repo: string;
  path: string;
  startLine: number;
  endLine: number;
  verified: true;
}

/** A citation that did not pass, as the model wrote it, with the reason. */
export interface RejectedCitation {
  evidence: string;
  repo: string | null;
  path: string;
  startLine: number;
  endLine: number;
  reason: RejectReason;
  detail: string;
}

/** A citation to check; `repo` is null for an inline marker (which names no repo). */
export type CitationClaim = Omit<ModelCitation, "repo"> & { repo: string | null };

/** Checks one citation. `snapshots` maps repo -> {atEvidence, now} commits. */
export function checkCitation(
  c: CitationClaim,
  evidence: readonly EvidenceItem[],
  snapshots: ReadonlyMap<string, { atEvidence: string; now: string | null }>,
): { ok: true } | { ok: false; reason: RejectReason; detail: string } {
  const e = evidence.find((x) => x.label === c.evidence);
  if (!e)
    return {
      ok: false,
      reason: "unknown_evidence",
      detail: `${c.evidence} is not one of the evidence items (${evidence.map((x) => x.label).join(", ") || "none"})`,
    };
  if (c.repo !== null && c.repo !== e.repo) return { ok: false, reason: "repo_mismatch", detail: `${c.evidence} is from repo ${e.repo}, not ${c.repo}` };
  if (c.path !== e.path) return { ok: false, reason: "path_mismatch", detail: `${c.evidence} is ${e.path}, not ${c.path}` };
  if (c.startLine > c.endLine) return { ok: false, reason: "invalid_range", detail: `lines ${c.startLine}-${c.endLine} are reversed` };
  if (c.startLine < e.startLine || c.endLine > e.endLine)
    return {
      ok: false,
      reason: "outside_evidence",
      detail: `lines ${c.startLine}-${c.endLine} are not inside ${c.evidence}'s lines ${e.startLine}-${e.endLine}`,
    };
  const snap = snapshots.get(e.repo);
  if (!snap || snap.now !== snap.atEvidence)
    return { ok: false, reason: "snapshot_changed", detail: `repo ${e.repo}'s active snapshot changed after the evidence was read` };
  return { ok: true };
}

/** Result of verifying an answer. */
export interface Verification {
  /** The answer with every unverified inline marker removed. */
  answer: string;
  citations: VerifiedCitation[];
  rejected: RejectedCitation[];
}

const key = (c: { evidence: string; path: string; startLine: number; endLine: number }) => `${c.evidence}\0${c.path}\0${c.startLine}\0${c.endLine}`;

/**
 * Verifies the listed citations and the inline markers of `answer` (their union, once each)
 * and removes the markers that fail from the text.
 */
export function verifyAnswer(
  answer: string,
  listed: readonly ModelCitation[],
  evidence: readonly EvidenceItem[],
  snapshots: ReadonlyMap<string, { atEvidence: string; now: string | null }>,
): Verification {
  const verified = new Map<string, VerifiedCitation>();
  const rejected = new Map<string, RejectedCitation>();
  const consider = (c: CitationClaim) => {
    const k = key(c);
    if (verified.has(k) || rejected.has(k)) return;
    const r = checkCitation(c, evidence, snapshots);
    if (r.ok) {
      const e = evidence.find((x) => x.label === c.evidence)!;
      verified.set(k, { evidence: c.evidence, repo: e.repo, path: c.path, startLine: c.startLine, endLine: c.endLine, verified: true });
    } else
      rejected.set(k, { evidence: c.evidence, repo: c.repo, path: c.path, startLine: c.startLine, endLine: c.endLine, reason: r.reason, detail: r.detail });
  };
  for (const c of listed) consider(c);
  const markers = inlineCitations(answer);
  for (const m of markers) consider({ evidence: m.evidence, repo: null, path: m.path, startLine: m.startLine, endLine: m.endLine });
  // A listed citation of another repo rejects only itself: a marker (no repo) with the same key
  // that the evidence supports stays.
  let text = answer;
  for (const m of [...markers].reverse()) {
    if (!verified.has(key(m))) text = text.slice(0, m.index) + text.slice(m.index + m.match.length);
  }
  text = text.replace(/[ \t]+([.,;:!?)])/g, "$1").replace(/[ \t]{2,}/g, " ");
  return { answer: text.trim(), citations: [...verified.values()], rejected: [...rejected.values()] };
}
