/**
 * Entry of the search page (`/`, served as /assets/search.js). Reads the whole query from the
 * URL, loads the session and the repo list, runs `GET /api/search`, renders results
 * (results.ts), pages with "More results", and handles the keyboard: `/` focuses the box,
 * `j`/`k` move between results, Enter opens the focused one.
 *
 * The first results are drawn as soon as the answer is in: as plain text with the terms
 * marked where highlight.js has not loaded yet, coloured later without moving a line
 * (snippet-highlighter.ts). highlight.js is not in this entry's bundle; the page preloads it.
 */
import { currentSession, errorText, getJson, loadSession } from "./api";
import { initAsk } from "./ask";
import { afterNextPaint, byId, el, isTyping } from "./dom";
import { MAX_RESULTS, PAGE_SIZE, stateFromParams, stateToApiParams, stateToParams, type SearchModeName, type SearchState } from "./query-state";
import { shortRef, showRefs, type RefSummary } from "./ref-filter";
import { renderResult, snippetLineElements, type WireResult } from "./results";
import { initTabs } from "./tabs";
import { highlightLater, loadHighlighter, startDraw, type SnippetView } from "./snippet-highlighter";
import { markableTerms, queryWords } from "./terms";

interface SearchReply {
  results: WireResult[];
  confidence?: { level: string; reason?: string };
  stats?: { tookMs?: number; queryTerms?: string[]; failedRepos?: { repo: string; error: string }[] };
}

interface RepoSummary {
  id: string;
  status: string;
  /** Tracked refs (issue #49); absent from older servers. */
  refs?: RefSummary[];
}

const form = byId<HTMLFormElement>("search-form");
const qInput = byId<HTMLInputElement>("q");
const repoSelect = byId<HTMLSelectElement>("repo");
const refField = byId("ref-field");
const refSelect = byId<HTMLSelectElement>("ref");
const askRepoSelect = byId<HTMLSelectElement>("ask-repo");
const languageSelect = byId<HTMLSelectElement>("language");
const pathInput = byId<HTMLInputElement>("path");
const testsBox = byId<HTMLInputElement>("tests");
const modeSelect = byId<HTMLSelectElement>("mode");
const statusEl = byId("status");
const resultsEl = byId<HTMLOListElement>("results");
const moreButton = byId<HTMLButtonElement>("more");
/** Results drawn before the page yields: more than a tall window shows. */
const FIRST_SCREEN_RESULTS = 4;
let searchSeq = 0;
let knownRepos: RepoSummary[] | null = null;

function setStatus(text: string, isError = false): void {
  statusEl.textContent = text;
  statusEl.classList.toggle("error", isError);
}

function formState(k = PAGE_SIZE): SearchState {
  return {
    q: qInput.value.trim(),
    repo: repoSelect.value,
    ref: repoSelect.value && !refField.hidden ? refSelect.value : "",
    language: languageSelect.value,
    path: pathInput.value.trim(),
    includeTests: testsBox.checked,
    mode: modeSelect.value as SearchModeName,
    k,
  };
}

function fillForm(s: SearchState): void {
  qInput.value = s.q;
  languageSelect.value = s.language;
  pathInput.value = s.path;
  testsBox.checked = s.includeTests;
  modeSelect.value = s.mode;
}

/** Shows the branch-or-tag filter for the chosen repository (only when it has several refs). */
function updateRefs(wanted: string): void {
  showRefs(refField, refSelect, knownRepos?.find((x) => x.id === repoSelect.value)?.refs ?? [], wanted);
}

async function loadRepos(wanted: string, wantedRef = ""): Promise<void> {
  const r = await getJson<{ repos: RepoSummary[] }>("/api/repos");
  if (!r.ok || !r.body) return;
  knownRepos = r.body.repos;
  // The search form and the ask tab list the same repositories.
  for (const select of [repoSelect, askRepoSelect]) {
    const options = [el("option", { value: "", text: "All repositories" })];
    for (const repo of knownRepos) options.push(el("option", { value: repo.id, text: repo.status === "ready" ? repo.id : `${repo.id} (${repo.status})` }));
    select.replaceChildren(...options);
    select.value = knownRepos.some((x) => x.id === wanted) ? wanted : "";
  }
  updateRefs(wantedRef);
}

/** True (and says so) when the URL names a repo the caller cannot see: never search all instead. */
function refuseUnknownRepo(repo: string): boolean {
  if (!repo || !knownRepos || knownRepos.some((x) => x.id === repo)) return false;
  resultsEl.replaceChildren();
  moreButton.hidden = true;
  setStatus(`There is no repository "${repo}" here, or you cannot see it. Pick one from the list, or search all repositories.`, true);
  return true;
}

async function runSearch(s: SearchState, focusFrom = -1, reposLoaded?: Promise<void>): Promise<void> {
  if (!s.q) {
    setStatus("Type something to search for.", true);
    qInput.focus();
    return;
  }
  if (!reposLoaded && refuseUnknownRepo(s.repo)) return;
  history.replaceState(null, "", `/?${stateToParams(s).toString()}`);
  document.title = `${s.q} · Codebase Copilot search`;
  const seq = ++searchSeq;
  setStatus("Searching…");
  resultsEl.setAttribute("aria-busy", "true");
  const r = await getJson<SearchReply>(`/api/search?${stateToApiParams(s, { explain: true }).toString()}`);
  if (seq !== searchSeq) return; // a newer search started meanwhile
  // highlight.js and the results' languages (a chunk each) load while the results are drawn,
  // and before the link-signing requests queue up; nothing below waits for them.
  if (r.ok && r.body?.results) void loadHighlighter(r.body.results.map((x) => x.language));
  // The API refuses a repo the caller cannot see; say which one, as the page check does.
  if (s.repo && (r.body as { error?: { code?: string } } | null)?.error?.code === "repo_not_found") {
    resultsEl.removeAttribute("aria-busy");
    knownRepos = knownRepos ?? [];
    refuseUnknownRepo(s.repo);
    return;
  }
  resultsEl.removeAttribute("aria-busy");
  resultsEl.replaceChildren();
  moreButton.hidden = true;
  if (r.status === 401) {
    await loadSession();
    setStatus("Sign in to search (link at the top right).", true);
    return;
  }
  if (!r.ok || !r.body) {
    setStatus(errorText(r), true);
    return;
  }
  const { results, confidence, stats } = r.body;
  const took = typeof stats?.tookMs === "number" ? ` in ${Math.round(stats.tookMs)} ms` : "";
  setStatus(
    results.length
      ? `${results.length} ${results.length === 1 ? "result" : "results"}${s.ref ? ` on ${shortRef(s.ref)}` : ""}${took}.`
      : `No results${took}. Try other words, another mode, or fewer filters.`,
  );
  if (results.length && confidence?.level === "low") {
    resultsEl.append(
      el("li", {
        className: "notice",
        text: `Low confidence: ${confidence.reason ?? "the query terms are barely covered"}. Try other words or an identifier.`,
      }),
    );
  }
  for (const f of stats?.failedRepos ?? [])
    resultsEl.append(el("li", { className: "notice", text: `Repository ${f.repo} could not be searched; the results leave it out.` }));
  const terms = markableTerms(stats?.queryTerms?.length ? stats.queryTerms : queryWords(s.q));
  // The first results, which fill the window, are drawn and painted first; the rest after
  // that frame; the colours of snippets drawn plain in idle time after both.
  const current = () => seq === searchSeq;
  const plain: SnippetView[] = [];
  const draw = (batch: WireResult[]) => {
    const pieces = startDraw(terms);
    for (const result of batch) {
      const snippet = pieces(result.chunkId, result.snippet, result.language);
      const item = renderResult(result, snippet.pieces);
      resultsEl.append(item);
      if (!snippet.highlighted) plain.push({ key: result.chunkId, code: result.snippet, language: result.language, lines: snippetLineElements(item) });
    }
  };
  draw(results.slice(0, FIRST_SCREEN_RESULTS));
  if (results.length > FIRST_SCREEN_RESULTS) {
    await afterNextPaint();
    if (!current()) return;
    draw(results.slice(FIRST_SCREEN_RESULTS));
  }
  void highlightLater(plain, terms, current);
  // "More results": the API ranks the top k; asking for more returns the same first ones, then new ones.
  if (results.length >= s.k && s.k < MAX_RESULTS) {
    moreButton.hidden = false;
    moreButton.onclick = () => void runSearch({ ...s, k: Math.min(MAX_RESULTS, s.k + PAGE_SIZE) }, results.length);
  }
  if (focusFrom >= 0) resultLinks()[focusFrom]?.focus();
}

function resultLinks(): HTMLAnchorElement[] {
  return [...resultsEl.querySelectorAll<HTMLAnchorElement>(".result a.source-link")];
}

/** `j`/`k`: focus the next/previous result's link (Enter then opens it, as on any link). */
function moveFocus(step: 1 | -1): void {
  const links = resultLinks();
  if (!links.length) return;
  const at = links.indexOf(document.activeElement as HTMLAnchorElement);
  const next = at < 0 ? (step > 0 ? 0 : links.length - 1) : Math.max(0, Math.min(links.length - 1, at + step));
  links[next].focus();
  links[next].closest(".result")?.scrollIntoView({ block: "nearest" });
}

repoSelect.addEventListener("change", () => updateRefs(""));
form.addEventListener("submit", (event) => {
  event.preventDefault();
  void runSearch(formState());
});
document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey || isTyping(event)) return;
  if (event.key === "/") {
    event.preventDefault();
    qInput.focus();
    qInput.select();
  } else if (event.key === "j" || event.key === "k") {
    event.preventDefault();
    moveFocus(event.key === "j" ? 1 : -1);
  }
});

void (async function init() {
  const initial = stateFromParams(new URLSearchParams(location.search));
  fillForm(initial);
  // The search starts at once, beside the session and repo-list requests: a shared URL shows
  // results after one round trip. An unknown ?repo= is refused by the API (repo_not_found).
  const reposLoaded = loadSession().then(() => (currentSession() ? loadRepos(initial.repo, initial.ref) : undefined));
  initAsk(() => askRepoSelect.value);
  initTabs((tab) => (tab === "ask" ? byId("question") : qInput).focus());
  if (initial.q) await runSearch(initial, -1, reposLoaded);
  else if (new URLSearchParams(location.search).get("tab") === "ask") {
    byId("question").focus();
    await reposLoaded;
  } else {
    qInput.focus();
    await reposLoaded;
  }
})();
