/**
 * The search page's branch-or-tag filter (issue #49): shown only when the chosen repository has
 * more than one ref with an indexed snapshot (GET /api/repos lists each repo's tracked refs as
 * `refs`; older servers send none, and the filter stays hidden). The value is the full ref name;
 * the label its short name.
 */
import { el } from "./dom";

/** A tracked ref as GET /api/repos lists it (worker/services/repo-status-schema.ts `refs`). */
export interface RefSummary {
  name: string;
  default: boolean;
  commit: string | null;
}

/** `refs/heads/main` -> `main`, `refs/tags/v2` -> `v2`. */
export function shortRef(name: string): string {
  return name.replace(/^refs\/(heads|tags)\//, "");
}

/** The refs a search can read (those with a snapshot), the default first. */
export function readableRefs(refs: readonly RefSummary[] | undefined): RefSummary[] {
  return (refs ?? []).filter((r) => r.commit !== null).sort((a, b) => Number(b.default) - Number(a.default));
}

/**
 * Fills `select` with `refs` (the default as "", labelled with its name) and shows `field` only
 * for more than one; selects `wanted` (a full or short name) when listed, else the default.
 */
export function showRefs(field: HTMLElement, select: HTMLSelectElement, refs: readonly RefSummary[], wanted: string): void {
  const readable = readableRefs(refs);
  field.hidden = readable.length < 2;
  const options = readable.map((r) =>
    el("option", {
      value: r.default ? "" : r.name,
      text: r.default ? `${shortRef(r.name)} (default)` : `${shortRef(r.name)}${r.name.startsWith("refs/tags/") ? " (tag)" : ""}`,
    }),
  );
  select.replaceChildren(...(options.length ? options : [el("option", { value: "", text: "Default branch" })]));
  const match = readable.find((r) => !r.default && (r.name === wanted || shortRef(r.name) === wanted));
  select.value = match ? match.name : "";
}
