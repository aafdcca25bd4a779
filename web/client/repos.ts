/**
 * Entry of the repositories page (`/repos`, served as /assets/repos.js): one row per repo
 * from `GET /api/repos` (status with a live progress bar while indexing, snapshot commit and
 * age, skipped files by reason, last error in words), Refresh (`POST /api/repos/{id}/refresh`,
 * index permission; "Upload again" for uploaded folders), the push webhook setup of a git repo
 * (admin; webhook-setup.ts), Access (who may read it, `PATCH /api/repos/{id}`, admin), Delete (`DELETE /api/repos/{id}`, admin, after a confirmation), and the
 * add forms: a git URL (`POST /api/repos`) or a folder zipped in the browser (fflate) and
 * uploaded to `POST /api/repos/{id}/archive`; for admins, the connections panel (connections.ts).
 * Polls while any repo is busy.
 */
import { zipSync } from "fflate";
import { currentSession, errorText, getJson, hasScope, loadSession, sendJson } from "./api";
import { age, byId, el } from "./dom";
import { refList } from "./ref-list";
import { addedWords, errorWords, isBusy, placementWords, progressShare, skippedWords, statusWords, type RepoStatusView } from "./repo-status";
import { initConnections } from "./connections";
import { openWebhookPanel } from "./webhook-setup";

/** Poll interval while a repo is indexing. */
const POLL_MS = 1000;
/** Folders never uploaded: the server would skip them anyway, and they are large. */
const UPLOAD_SKIP_DIRS = new Set([".git", "node_modules"]);

const statusEl = byId("repos-status");
const tbody = byId("repos").querySelector("tbody") as HTMLTableSectionElement;
const addStatus = byId("add-status");
const addProgress = byId("add-progress");
/** The repo the add forms just added: its progress is shown beside the forms until it is ready or failed. */
let watching: string | null = null;
let pollTimer: ReturnType<typeof setTimeout> | undefined;

function say(target: HTMLElement, text: string, isError = false): void {
  target.textContent = text;
  target.classList.toggle("error", isError);
}

function statusCell(r: RepoStatusView): HTMLElement {
  const share = progressShare(r);
  const busy = isBusy(r.status);
  const bar = busy ? el("progress", { max: 1, ...(share === null ? {} : { value: share }), "aria-label": `Progress of ${r.id}` }) : null;
  const error = r.status === "failed" || r.lastError ? errorWords(r.lastError) : null;
  return el("td", { className: `status-cell s-${r.status}` }, [
    el("span", { className: "badge", text: statusWords(r) }),
    bar,
    error ? el("p", { className: "error-text", text: `Last error: ${error}` }) : null,
  ]);
}

function snapshotCell(r: RepoStatusView): HTMLElement {
  if (!r.snapshot) return el("td", { text: "Not searchable yet" });
  const when = new Date(r.snapshot.indexedAt);
  return el("td", {}, [
    // Uploads have no git commit: their snapshot is named by the archive's content hash.
    el("code", {
      text: r.snapshot.commit.startsWith("archive-") ? `upload ${r.snapshot.commit.slice(8, 16)}` : r.snapshot.commit.slice(0, 12),
      title: r.snapshot.commit,
    }),
    " ",
    el("time", { datetime: when.toISOString(), title: when.toLocaleString(), text: age(r.snapshot.indexedAt) }),
    r.index ? el("div", { className: "help", text: `${r.index.files.toLocaleString("en")} files, ${r.index.chunks.toLocaleString("en")} chunks` }) : null,
    placementWords(r) ? el("div", { className: "help", text: placementWords(r)! }) : null,
    refList(r),
  ]);
}

/** One page of `GET /api/repos/{id}/skipped` (servers that list skipped files). */
interface SkippedPage {
  files: { path: string; reason: string; rule?: string | null }[];
  total: number;
  nextOffset: number | null;
}

/** Most skipped paths listed under one reason; the count says how many there are. */
const SKIPPED_LIST_LIMIT = 50;

/** A reason's count as a disclosure that lists the skipped files, where the server offers the list. */
function skippedReason(repo: string, s: { reason: string; words: string; count: number }): HTMLElement {
  const details = el("details", { className: "skipped-reason" }, [el("summary", { text: `${s.count} ${s.words}` })]);
  let loaded = false;
  details.addEventListener("toggle", async () => {
    if (!details.open || loaded) return;
    loaded = true;
    const res = await getJson<SkippedPage>(`/api/repos/${encodeURIComponent(repo)}/skipped?reason=${encodeURIComponent(s.reason)}&limit=${SKIPPED_LIST_LIMIT}`);
    if (res.status === 404 && (res.body as { error?: { code?: string } } | null)?.error?.code === "not_found") {
      details.append(el("p", { className: "help", text: "This server does not list the skipped files one by one." }));
      return;
    }
    if (!res.ok || !res.body) {
      details.append(el("p", { className: "error-text", text: errorText(res) }));
      return;
    }
    const more = res.body.total - res.body.files.length;
    details.append(
      el(
        "ul",
        { className: "skipped-files" },
        res.body.files.map((f) => el("li", {}, [el("code", { text: f.path }), f.rule ? el("span", { className: "help", text: ` (${f.rule})` }) : null])),
      ),
      ...(more > 0 ? [el("p", { className: "help", text: `and ${more} more` })] : []),
    );
  });
  return el("li", {}, [details]);
}

function skippedCell(r: RepoStatusView): HTMLElement {
  const items = skippedWords(r.skipped ?? {});
  if (!items.length) return el("td", { text: "None" });
  return el("td", {}, [
    el(
      "ul",
      { className: "skipped" },
      items.map((s) => skippedReason(r.id, s)),
    ),
  ]);
}

/**
 * Who may read a repo registered by URL or upload (`PATCH /api/repos/{id}`, admin): empty for
 * everyone signed in, else GitHub logins, `gitlab:<username>`s and `org/team-slug`s, comma-separated.
 * A connection's repo answers that its readers follow the code host (docs/auth.md). The prompt
 * starts from the current list (`GET /api/repos/{id}/access`).
 */
function accessButton(r: RepoStatusView): HTMLElement {
  const button = el("button", { type: "button", className: "secondary", text: "Access", "aria-label": `Access: who may read ${r.id}` });
  button.addEventListener("click", async () => {
    const now = (await getJson<{ access: "everyone" | { users: string[]; teams: string[] } | null }>(`/api/repos/${encodeURIComponent(r.id)}/access`)).body
      ?.access;
    const list = now && now !== "everyone" ? [...now.users.map((u) => u.replace(/^github:/, "")), ...now.teams].join(", ") : "";
    const answer = prompt(`Who may read "${r.id}"? Leave empty for everyone signed in, or list GitHub logins and org/team slugs, comma-separated.`, list);
    if (answer === null) return;
    const names = answer
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    const access = names.length ? { users: names.filter((n) => !n.includes("/")), teams: names.filter((n) => n.includes("/")) } : "everyone";
    const res = await sendJson("PATCH", `/api/repos/${encodeURIComponent(r.id)}`, { access });
    const done = names.length ? `Only ${names.join(", ")} (and admins) may read ${r.id} now.` : `Everyone signed in may read ${r.id} now.`;
    say(statusEl, res.ok ? done : `Could not change who may read ${r.id}: ${errorText(res)}`, !res.ok);
  });
  return button;
}

function actionsCell(r: RepoStatusView): HTMLElement {
  const cell = el("td", { className: "actions" });
  if (hasScope("index") && r.sourceKind === "archive") {
    // An uploaded folder has no remote to fetch again: offer the upload form for it instead.
    const again = el("button", { type: "button", className: "secondary", text: "Upload again", "aria-label": `Upload again: ${r.id}` });
    again.addEventListener("click", () => {
      byId<HTMLInputElement>("folder-name").value = r.id;
      byId<HTMLInputElement>("folder").focus();
    });
    cell.append(again);
  } else if (hasScope("index")) {
    const refresh = el("button", { type: "button", className: "secondary", text: "Refresh", "aria-label": `Refresh ${r.id}`, disabled: isBusy(r.status) });
    refresh.addEventListener("click", async () => {
      refresh.disabled = true;
      const res = await sendJson("POST", `/api/repos/${encodeURIComponent(r.id)}/refresh`, {});
      if (!res.ok) say(statusEl, `Could not refresh ${r.id}: ${errorText(res)}`, true);
      else say(statusEl, `Refreshing ${r.id}…`);
      await load();
    });
    cell.append(refresh);
  }
  if (hasScope("admin") && r.sourceKind === "git") {
    // A push webhook re-indexes on every push; an uploaded folder has no code host to send one.
    const hook = el("button", { type: "button", className: "secondary", text: "Webhook", "aria-label": `Set up the push webhook of ${r.id}` });
    hook.addEventListener("click", () => void openWebhookPanel(r.id));
    cell.append(hook);
  }
  if (hasScope("admin")) cell.append(accessButton(r));
  if (hasScope("admin")) {
    const del = el("button", { type: "button", className: "danger", text: "Delete", "aria-label": `Delete ${r.id}` });
    del.addEventListener("click", async () => {
      if (!confirm(`Delete the repository "${r.id}" and its index? Searches will no longer find it.`)) return;
      const res = await sendJson("DELETE", `/api/repos/${encodeURIComponent(r.id)}`);
      say(statusEl, res.ok ? `Deleted ${r.id}.` : `Could not delete ${r.id}: ${errorText(res)}`, !res.ok);
      await load();
    });
    cell.append(del);
  }
  return cell;
}

function row(r: RepoStatusView): HTMLTableRowElement {
  const source = r.sourceKind === "git" ? `${r.url ?? ""}${r.ref ? ` @ ${r.ref}` : ""}` : "uploaded folder";
  return el("tr", { "data-repo": r.id }, [
    el("th", { scope: "row" }, [
      el("a", { href: `/?repo=${encodeURIComponent(r.id)}`, text: r.id, title: `Search ${r.id}` }),
      el("div", { className: "help", text: source }),
    ]),
    statusCell(r),
    snapshotCell(r),
    skippedCell(r),
    actionsCell(r),
  ]);
}

/**
 * The progress of the repo just added, under the add forms where the person is (the table row
 * is at the top of the page); once it is ready or failed the status line says so, in place of
 * "indexing has started".
 */
function showAdded(r: RepoStatusView | undefined): void {
  if (!watching || !r) return;
  const busy = isBusy(r.status);
  const share = progressShare(r);
  addProgress.hidden = !busy;
  addProgress.replaceChildren(
    ...(busy
      ? [el("span", { text: addedWords(r) }), el("progress", { max: 1, ...(share === null ? {} : { value: share }), "aria-label": `Progress of ${r.id}` })]
      : []),
  );
  if (!busy) {
    say(addStatus, addedWords(r), r.status === "failed");
    watching = null;
  }
}

/** Admins see which shards are past the high-water mark (GET /api/health/shards): new repos go elsewhere. */
async function showShardWarnings(): Promise<void> {
  const target = byId<HTMLElement>("shards-status");
  if (!hasScope("admin")) return;
  const res = await getJson<{ warnings: string[] }>("/api/health/shards");
  const warnings = res.ok && res.body ? res.body.warnings : [];
  target.hidden = warnings.length === 0;
  if (warnings.length) say(target, `Storage: ${warnings.join(" ")}`, true);
}

async function load(): Promise<void> {
  clearTimeout(pollTimer);
  const res = await getJson<{ repos: RepoStatusView[] }>("/api/repos");
  if (res.status === 401) {
    tbody.replaceChildren();
    say(statusEl, "Sign in (top right) to see the repositories.", true);
    return;
  }
  if (!res.ok || !res.body) {
    say(statusEl, errorText(res), true);
    return;
  }
  const repos = res.body.repos;
  showAdded(repos.find((r) => r.id === watching));
  tbody.replaceChildren(...(repos.length ? repos.map(row) : [el("tr", {}, [el("td", { colspan: 5, text: "No repositories yet. Add one below." })])]));
  if (repos.some((r) => isBusy(r.status))) pollTimer = setTimeout(() => void load(), POLL_MS);
}

byId<HTMLFormElement>("add-git").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = event.currentTarget as HTMLFormElement;
  const data = new FormData(form);
  const body: Record<string, string> = {};
  for (const k of ["url", "ref", "name", "token"]) {
    const v = String(data.get(k) ?? "").trim();
    if (v) body[k] = v;
  }
  say(addStatus, "Adding…");
  const res = await sendJson<{ repo: RepoStatusView }>("POST", "/api/repos", body);
  if (!res.ok || !res.body) return say(addStatus, errorText(res), true);
  say(addStatus, `Added ${res.body.repo.id}; indexing has started.`);
  watching = res.body.repo.id;
  form.reset();
  await load();
});

byId<HTMLFormElement>("add-folder").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = event.currentTarget as HTMLFormElement;
  const name = byId<HTMLInputElement>("folder-name").value.trim();
  const files = [...(byId<HTMLInputElement>("folder").files ?? [])];
  const entries: Record<string, Uint8Array> = {};
  for (const f of files) {
    const path = f.webkitRelativePath || f.name;
    if (path.split("/").some((part) => UPLOAD_SKIP_DIRS.has(part))) continue;
    entries[path] = new Uint8Array(await f.arrayBuffer());
  }
  if (!Object.keys(entries).length) return say(addStatus, "That folder has no files to upload.", true);
  say(addStatus, `Zipping ${Object.keys(entries).length} files…`);
  const zip = zipSync(entries, { level: 6 });
  say(addStatus, `Uploading ${(zip.byteLength / 1024).toFixed(0)} KB…`);
  // webkitRelativePath starts with the chosen folder's name: strip that one level.
  const res = await sendJson<{ repo: RepoStatusView }>(
    "POST",
    `/api/repos/${encodeURIComponent(name)}/archive?strip=1`,
    new Blob([zip], { type: "application/zip" }),
    { "content-type": "application/zip" },
  );
  if (!res.ok || !res.body) return say(addStatus, errorText(res), true);
  say(addStatus, `Uploaded ${name}; indexing has started.`);
  watching = name;
  form.reset();
  await load();
});

void (async function init() {
  await loadSession();
  // Connections need admin over every repo (worker/services/connections.ts): a repo-limited admin sees no panel.
  await Promise.all([load(), initConnections(hasScope("admin") && currentSession()?.caller.repos === "*", load), showShardWarnings()]);
})();
