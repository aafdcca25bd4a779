/**
 * The connections panel of the repositories page (admin): every connection from
 * `GET /api/connections` with its last sync (when, whether it failed and why, in words), its
 * repositories by state (`GET /api/connections/{id}`, on opening), "Sync now"
 * (`POST .../sync`, then what that sync added, removed and marked), its organisation webhook
 * URL, and "Remove" (`DELETE /api/connections/{id}`, after a confirmation that offers to keep
 * its repositories). The form adds one (`POST /api/connections`): the answer's webhook secret
 * is shown this once. docs/connections.md describes the same in API terms.
 */
import type { ConnectionCreated, ConnectionDetail, ConnectionView, DeleteConnectionResult, SyncResult } from "../../worker/services/connections-schema";
import { errorText, getJson, sendJson, type ApiErrorBody, type JsonReply } from "./api";
import { age, byId, el } from "./dom";
import { copyable } from "./copyable";
import { plural, REASON_WORDS, syncWords } from "./connection-words";
import { errorWords } from "./repo-status";

type SyncReport = SyncResult["sync"];
const section = byId("connections");
const list = byId("connection-list");
const status = byId("connections-status");
const form = byId<HTMLFormElement>("connection-form");
const created = byId("connection-created");
let onReposChanged: () => Promise<void> = async () => {};

const PROVIDER_WORDS = { github: "GitHub", gitlab: "GitLab" } as const;
const OWNER_WORDS = { org: "organisation", user: "user", group: "group" } as const;
function say(target: HTMLElement, text: string, isError = false): void {
  target.textContent = text;
  target.classList.toggle("error", isError);
}

/** Words for a failed connections request: the error codes this API adds, else the page's usual words. */
function failure(r: JsonReply<unknown>): string {
  const code = (r.body as ApiErrorBody | null)?.error?.code;
  if (code === "connection_exists") return "There is already a connection for this owner on this code host. Remove it first to change its settings.";
  if (code === "not_found") return "That connection no longer exists.";
  return errorText(r);
}

/** The organisation or group webhook URL of a connection (as the server's answer to POST names it). */
function webhookUrl(c: ConnectionView): string {
  return `${location.origin}/api/webhooks/${c.provider}?connection=${encodeURIComponent(c.id)}`;
}

function lastSyncLine(c: ConnectionView): HTMLElement {
  const when = c.lastSyncedAt
    ? el("span", {}, ["Last synced ", el("time", { datetime: new Date(c.lastSyncedAt).toISOString(), text: age(c.lastSyncedAt) }), "."])
    : el("span", { text: "Not synced yet." });
  return el("p", { className: "last-sync" }, [
    when,
    c.lastError ? el("span", { className: "error-text", text: ` The last sync failed: ${errorWords(c.lastError)}` }) : null,
  ]);
}

function countsLine(c: ConnectionView): string {
  const r = c.repos;
  const parts = [`${plural(r.registered, "repository", "repositories")} added`];
  if (r.waiting) parts.push(`${r.waiting} waiting for the next sync`);
  if (r.missing) parts.push(`${r.missing} missing upstream (hidden now; index removed after ${plural(c.gracePeriodHours, "hour")})`);
  if (r.skipped) parts.push(`${r.skipped} skipped`);
  return `${parts.join(", ")}.`;
}

function settingsLine(c: ConnectionView): string {
  const parts = [
    c.include.length ? `only ${c.include.join(", ")}` : "every repository",
    c.exclude.length ? `except ${c.exclude.join(", ")}` : "",
    c.forks ? "forks included" : "no forks",
    c.archived ? "archived included" : "no archived",
    c.hasToken ? "with a token" : "public repositories only (no token)",
  ];
  return parts.filter(Boolean).join("; ");
}

/** The repositories of a connection by state, loaded when the disclosure is opened. */
function repoListBlock(c: ConnectionView): HTMLElement {
  const details = el("details", { className: "connection-repos" }, [el("summary", { text: `Repositories of ${c.owner}` })]);
  details.addEventListener("toggle", async () => {
    if (!details.open) return;
    const res = await getJson<ConnectionDetail>(`/api/connections/${encodeURIComponent(c.id)}`);
    details.querySelector("ul, p")?.remove();
    if (!res.ok || !res.body) return void details.append(el("p", { className: "error-text", text: failure(res) }));
    if (!res.body.repoList.length)
      return void details.append(el("p", { className: "help", text: "The code host listed no repositories that pass the filters." }));
    details.append(
      el(
        "ul",
        {},
        res.body.repoList.map((r) => {
          const state =
            r.state === "registered"
              ? `added as ${r.repo}`
              : r.state === "waiting"
                ? "waiting for the next sync"
                : r.state === "missing"
                  ? `missing: ${REASON_WORDS[r.missingReason ?? ""] ?? r.missingReason}; hidden from everyone, index removed ${r.removeAt ? new Date(r.removeAt).toLocaleString() : "later"} unless it is back`
                  : `skipped: ${REASON_WORDS[r.skipReason ?? ""] ?? r.skipReason}`;
          return el("li", {}, [el("code", { text: r.fullName }), ` ${state}`]);
        }),
      ),
    );
  });
  return details;
}

/** Remove, with a confirmation in place that offers to keep the repositories. */
function removeBlock(c: ConnectionView, item: HTMLElement, itemStatus: HTMLElement): HTMLElement {
  const remove = el("button", { type: "button", className: "danger", text: "Remove", "aria-label": `Remove the connection ${c.id}` });
  const box = el("div", { className: "confirm", hidden: true, role: "group", "aria-label": `Confirm removing ${c.id}` });
  remove.addEventListener("click", () => {
    const keepId = `keep-${c.id}`;
    const keep = el("input", { type: "checkbox", id: keepId });
    const yes = el("button", { type: "button", className: "danger", text: "Remove connection" });
    const no = el("button", { type: "button", className: "secondary", text: "Cancel" });
    box.replaceChildren(
      el("p", {
        text: `Remove the connection ${c.id}? Unless you keep them, its ${plural(c.repos.registered, "repository", "repositories")} and their indexes are deleted too.`,
      }),
      el("div", { className: "field check" }, [keep, el("label", { for: keepId, text: "Keep its repositories as ordinary repositories" })]),
      el("div", { className: "actions" }, [yes, no]),
    );
    box.hidden = false;
    remove.hidden = true;
    keep.focus();
    no.addEventListener("click", () => {
      box.hidden = true;
      remove.hidden = false;
      remove.focus();
    });
    yes.addEventListener("click", async () => {
      yes.disabled = true;
      const res = await sendJson<DeleteConnectionResult>("DELETE", `/api/connections/${encodeURIComponent(c.id)}${keep.checked ? "?keepRepos=true" : ""}`);
      if (!res.ok || !res.body) {
        yes.disabled = false;
        return say(itemStatus, failure(res), true);
      }
      const b = res.body;
      item.remove();
      say(
        status,
        b.keptRepos.length
          ? `Removed ${b.deleted}; kept ${b.keptRepos.join(", ")} as ordinary repositories.`
          : `Removed ${b.deleted}${b.removedRepos.length ? ` and deleted ${b.removedRepos.join(", ")}` : ""}.`,
      );
      if (!list.children.length) list.append(emptyItem());
      await onReposChanged();
    });
  });
  return el("div", {}, [remove, box]);
}

function emptyItem(): HTMLElement {
  return el("li", { className: "help", text: "No connections yet." });
}

/** One connection as a list item. `lastRun` is what a sync started from this page did. */
function connectionItem(c: ConnectionView, lastRun?: SyncReport): HTMLElement {
  const itemStatus = el("p", { className: "status", role: "status", "aria-live": "polite" });
  if (lastRun) say(itemStatus, `Synced just now: ${syncWords(lastRun)}`);
  const item = el("li", { className: "connection", "data-connection": c.id });
  const sync = el("button", { type: "button", className: "secondary", text: "Sync now", "aria-label": `Sync now: ${c.id}` });
  sync.addEventListener("click", async () => {
    sync.disabled = true;
    say(itemStatus, `Listing the repositories of ${c.owner}…`);
    const res = await sendJson<SyncResult>("POST", `/api/connections/${encodeURIComponent(c.id)}/sync`, {});
    sync.disabled = false;
    if (!res.ok || !res.body) {
      say(itemStatus, `The sync failed: ${failure(res)}`, true);
      return;
    }
    const fresh = connectionItem(res.body.connection, res.body.sync);
    item.replaceWith(fresh);
    fresh.querySelector<HTMLButtonElement>(".actions button")?.focus();
    await onReposChanged();
  });
  const titleId = `connection-${c.id}`;
  const host = new URL(c.baseUrl).host;
  item.append(
    el("h3", { id: titleId, text: `${PROVIDER_WORDS[c.provider]} ${OWNER_WORDS[c.ownerKind]} ${c.owner}` }),
    el("p", { className: "help", text: `${c.id} · ${host} · ${settingsLine(c)}` }),
    lastSyncLine(c),
    el("p", { text: countsLine(c) }),
    itemStatus,
    repoListBlock(c),
    el("details", { className: "connection-webhook" }, [
      el("summary", { text: "Organisation webhook" }),
      el("p", {
        className: "help",
        text:
          c.provider === "github"
            ? "In the organisation's settings on GitHub: Webhooks, Add webhook; content type application/json, the secret shown when this connection was created, events Pushes. Every repository of the connection is then re-indexed on push."
            : "In the group's settings on GitLab: Webhooks; the secret token shown when this connection was created, trigger Push events. Every repository of the connection is then re-indexed on push.",
      }),
      copyable(`hook-url-${c.id}`, `Webhook URL of ${c.id}`, webhookUrl(c)),
    ]),
    el("div", { className: "actions" }, [sync, removeBlock(c, item, itemStatus)]),
  );
  item.setAttribute("aria-labelledby", titleId);
  return item;
}

/** Loads and shows the connections (admin only; the section stays hidden for anyone else). */
async function loadConnections(): Promise<void> {
  const res = await getJson<{ connections: ConnectionView[] }>("/api/connections");
  if (!res.ok || !res.body) return say(status, failure(res), true);
  list.replaceChildren(...(res.body.connections.length ? res.body.connections.map((c) => connectionItem(c)) : [emptyItem()]));
}

/** Globs from a text field: separated by commas, spaces or new lines. */
function globs(text: string): string[] | undefined {
  const g = text
    .split(/[\s,]+/)
    .map((x) => x.trim())
    .filter(Boolean);
  return g.length ? g : undefined;
}

/** What the server answered to POST: the first sync, and the webhook secret, shown this once. */
function showCreated(c: ConnectionCreated): void {
  const w = c.webhook;
  const url = w.github?.payloadUrl ?? w.gitlab?.url ?? webhookUrl(c.connection);
  const done = el("button", { type: "button", className: "secondary", text: "Done" });
  done.addEventListener("click", () => {
    created.hidden = true;
    created.replaceChildren();
  });
  const heading = el("h3", { tabindex: -1, text: `Connected ${c.connection.owner}` });
  created.replaceChildren(
    heading,
    el("p", { text: `First sync: ${syncWords(c.sync)}${c.sync.registered.length ? " Indexing has started." : ""}` }),
    el("p", {
      className: "help",
      text: "To re-index on every push, add one webhook to the organisation or group with this URL and secret. Copy the secret now: it is shown only this once.",
    }),
    copyable("connection-webhook-url", "Webhook URL", url),
    copyable("connection-webhook-secret", "Webhook secret (shown once)", w.secret),
    done,
  );
  created.hidden = false;
  heading.focus();
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const data = new FormData(form);
  const text = (k: string) => String(data.get(k) ?? "").trim();
  const grace = text("gracePeriodHours");
  const body = {
    provider: text("provider"),
    owner: text("owner"),
    token: text("token") || undefined,
    include: globs(text("include")),
    exclude: globs(text("exclude")),
    forks: data.get("forks") === "on",
    archived: data.get("archived") === "on",
    baseUrl: text("baseUrl") || undefined,
    gracePeriodHours: grace ? Number(grace) : undefined,
  };
  const submit = form.querySelector<HTMLButtonElement>("button[type=submit]");
  if (submit) submit.disabled = true;
  say(status, `Listing the repositories of ${body.owner}…`);
  const res = await sendJson<ConnectionCreated>("POST", "/api/connections", body);
  if (submit) submit.disabled = false;
  if (!res.ok || !res.body) return say(status, failure(res), true);
  say(status, `Connected ${res.body.connection.id}.`);
  form.reset();
  showCreated(res.body);
  await Promise.all([loadConnections(), onReposChanged()]);
});

/** Shows the panel (for admins) and fills it; `reposChanged` reloads the repositories table after a sync or removal. */
export async function initConnections(isAdmin: boolean, reposChanged: () => Promise<void>): Promise<void> {
  onReposChanged = reposChanged;
  section.hidden = !isAdmin;
  if (isAdmin) await loadConnections();
}
