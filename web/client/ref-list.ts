/**
 * The tracked refs of a repo on the repositories page: each ref's name, commit and state, from
 * the `refs` GET /api/repos already returns (words in repo-status.ts `refLines`).
 */
import { el } from "./dom";
import { refLines, type RepoStatusView } from "./repo-status";

/** The tracked refs with their commit and state (from GET /api/repos); null for archives. */
export function refList(r: RepoStatusView): HTMLElement | null {
  const lines = refLines(r);
  if (!lines.length) return null;
  return el(
    "ul",
    { className: "ref-list", "aria-label": `Tracked refs of ${r.id}` },
    lines.map((l) =>
      el("li", {}, [
        el("span", { text: l.name }),
        " ",
        l.commit ? el("code", { text: l.commit }) : el("span", { className: "help", text: "no snapshot yet" }),
        " ",
        el("span", { className: l.failed ? "error-text" : "help", text: l.state }),
      ]),
    ),
  );
}
