/**
 * Entry of the source view (served as /assets/source.js). Lands on the range of the
 * fragment (`#L146-L171`, the form of search results and MCP `search`/`fetch` URLs):
 * highlights those lines and scrolls them into view, also on later hash changes; clicking a
 * line number selects it (shift-click extends the range). Highlights the syntax of the whole
 * file, and looks up a symbol (outline entry or a name in the code) through
 * `GET /api/repos/{id}/symbols` and `/references` when the viewer is signed in. For the selected
 * range, a signed-in viewer also sees the last commit that changed it (`GET .../history`,
 * limit 1) and a link to the range's whole history. A page opened at a ref (`?ref=`, the
 * server's `data-ref`) asks all of these at that ref, so they describe the lines shown.
 */
import { currentSession, errorText, getJson, loadSession, signedSourceUrl } from "./api";
import { renderPieces } from "./code-view";
import { byId, el } from "./dom";
import { highlightLines, loadLanguages } from "./highlight";
import { clampLineRange, formatLineRange, parseLineRange, type LineRange } from "./line-range";
import { historyUrl, referencesUrl, symbolsUrl } from "./source-queries";

const code = byId("code");
const repo = code.dataset.repo ?? "";
const path = code.dataset.path ?? "";
// The ref the page shows (full name; "" for the default snapshot): every lookup asks about it.
const ref = code.dataset.ref ?? "";
// An uploaded archive's snapshot (`archive-<sha1>`) has no commit history to ask for.
const hasHistory = !(code.dataset.commit ?? "").startsWith("archive-");
const lineEls = [...code.querySelectorAll<HTMLElement>(".line")];
const rangeStatus = byId("range-status");
const lookup = byId("lookup");
const rangeCommit = byId("range-commit");
let commitAsked = 0;
let current: LineRange | null = null;
const sessionReady = loadSession();

/** Marks the lines of `range` (class `hl`, `aria-current` on the first) and scrolls to them. */
function showRange(range: LineRange | null, scroll: boolean): void {
  for (const l of code.querySelectorAll(".line.hl")) l.classList.remove("hl", "hl-start", "hl-end");
  code.querySelector("[aria-current]")?.removeAttribute("aria-current");
  current = range && clampLineRange(range, lineEls.length);
  if (!current) {
    rangeStatus.textContent = range ? `This file has ${lineEls.length} lines; line ${range.start} is past its end.` : "";
    return;
  }
  for (let n = current.start; n <= current.end; n++) lineEls[n - 1].classList.add("hl");
  const first = lineEls[current.start - 1];
  first.classList.add("hl-start");
  lineEls[current.end - 1].classList.add("hl-end");
  first.setAttribute("aria-current", "location");
  rangeStatus.textContent = current.start === current.end ? `Line ${current.start}` : `Lines ${current.start}-${current.end}`;
  void showLastCommit(current);
  if (scroll) {
    // A range that fits is centred; a longer one starts a little below the top.
    const fits = (current.end - current.start + 1) * first.offsetHeight < window.innerHeight * 0.8;
    first.scrollIntoView({ block: fits ? "center" : "start" });
  }
}

function highlightSyntax(): void {
  const text = lineEls.map((l) => l.querySelector(".c")?.textContent ?? "").join("\n");
  const lines = highlightLines(text, code.dataset.language);
  lines.forEach((pieces, i) => {
    const target = lineEls[i]?.querySelector<HTMLElement>(".c");
    if (target) renderPieces(target, pieces);
  });
}

interface HistoryPage {
  commits: { sha: string; date: string; author: { name: string }; subject: string }[];
}

/** The last commit that changed `range`, and a link to the range's history; nothing without a session or history. */
async function showLastCommit(range: LineRange): Promise<void> {
  const asked = ++commitAsked;
  rangeCommit.replaceChildren();
  await sessionReady;
  if (!currentSession() || !hasHistory) return;
  const url = historyUrl(repo, path, range, ref);
  const reply = await getJson<HistoryPage>(`${url}&limit=1`);
  if (asked !== commitAsked) return; // another range was selected meanwhile
  const last = reply.body?.commits?.[0];
  if (!reply.ok || !last) return; // an archive or shallow source has no history: say nothing here
  rangeCommit.replaceChildren(
    "Last changed in ",
    el("code", { text: last.sha.slice(0, 12) }),
    ` ${last.date.slice(0, 10)} by ${last.author.name}: ${last.subject} · `,
    el("a", { href: url, text: "history of these lines" }),
  );
}

async function linkTo(a: HTMLAnchorElement, hitPath: string, start: number, end: number): Promise<void> {
  const frag = formatLineRange({ start, end });
  if (hitPath === path) a.href = frag;
  else {
    const url = await signedSourceUrl(repo, hitPath, start, end, ref);
    if (url) a.href = url;
  }
}

interface SymbolHit {
  name: string;
  kind: string;
  path: string;
  startLine: number;
  endLine: number;
}
interface ReferenceHit {
  path: string;
  line: number;
  text: string;
}

/** Shows definitions and references of `name` in the side panel. */
async function lookUp(name: string): Promise<void> {
  lookup.hidden = false;
  const close = el("button", { type: "button", className: "linkish", text: "Close", "aria-label": "Close symbol lookup" });
  close.addEventListener("click", () => (lookup.hidden = true));
  const head = el("div", { className: "lookup-head" }, [el("h2", {}, ["Symbol ", el("code", { text: name })]), close]);
  lookup.replaceChildren(head, el("p", { className: "status", text: "Looking up…" }));
  await sessionReady; // a click right after the page loads must not be answered "signed out"
  if (!currentSession()) {
    lookup.replaceChildren(head, el("p", { text: "Sign in (top right) to find where this symbol is defined and used." }));
    return;
  }
  lookup.replaceChildren(head, el("p", { className: "status", text: "Looking up…" }));
  const [defs, refs] = await Promise.all([
    getJson<{ symbols: SymbolHit[] }>(symbolsUrl(repo, name, ref)),
    getJson<{ references: ReferenceHit[] }>(referencesUrl(repo, name, ref)),
  ]);
  const section = (title: string, items: HTMLElement[], empty: string) => [
    el("h3", { text: title }),
    items.length ? el("ul", {}, items) : el("p", { className: "help", text: empty }),
  ];
  const defItems = (defs.body?.symbols ?? []).map((d) => {
    const a = el("a", { text: `${d.path}:${d.startLine}-${d.endLine}` });
    void linkTo(a, d.path, d.startLine, d.endLine);
    return el("li", {}, [el("span", { className: "kind", text: d.kind }), " ", a]);
  });
  const refItems = (refs.body?.references ?? []).map((r) => {
    const a = el("a", { text: `${r.path}:${r.line}` });
    void linkTo(a, r.path, r.line, r.line);
    return el("li", {}, [a, el("code", { className: "ref-text", text: r.text.trim() })]);
  });
  lookup.replaceChildren(
    head,
    ...(defs.ok
      ? section("Definitions", defItems, "No definition found in this repository.")
      : [el("p", { className: "status error", text: errorText(defs) })]),
    ...(refs.ok ? section("References", refItems, "No references found.") : [el("p", { className: "status error", text: errorText(refs) })]),
  );
}

/** A clicked name in the code: highlight.js title/variable tokens, or any identifier-like token. */
const IDENT_RE = /^[A-Za-z_$][\w$]{1,}$/;

code.addEventListener("click", (event) => {
  const target = event.target as HTMLElement;
  const number = target.closest<HTMLAnchorElement>("a.n");
  if (number) {
    const n = Number(number.textContent);
    if (event.shiftKey && current) {
      event.preventDefault();
      const range = { start: Math.min(current.start, n), end: Math.max(current.end, n) };
      history.replaceState(null, "", formatLineRange(range));
      showRange(range, false);
    }
    return; // a plain click follows the #Ln link (hashchange)
  }
  if (window.getSelection()?.toString()) return; // selecting text, not clicking a name
  const token = target.closest<HTMLElement>("[class*='hljs-title'], .hljs-variable, .hljs-type, .hljs-built_in");
  const word = token?.textContent?.trim() ?? "";
  if (token && IDENT_RE.test(word)) void lookUp(word);
});

for (const a of document.querySelectorAll<HTMLAnchorElement>(".outline a[data-symbol]")) {
  a.addEventListener("click", () => void lookUp(a.dataset.symbol ?? ""));
}

window.addEventListener("hashchange", () => showRange(parseLineRange(location.hash), true));

// The range first (plain text is already there), then the colours, which do not move lines
// (the language's chunk is preloaded by the page).
showRange(parseLineRange(location.hash), true);
void loadLanguages([code.dataset.language]).then(highlightSyntax);
