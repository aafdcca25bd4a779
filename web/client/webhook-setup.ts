/**
 * The push-webhook panel of the repositories page (admin, git repos): shows whether the repo
 * has a webhook secret (`GET /api/repos/{id}/webhook`), the payload URLs for GitHub and
 * GitLab, creates or rotates the secret (`POST`, the answer holds it; it is shown this once)
 * and removes it (`DELETE`), with the steps to paste each value into the code host's
 * settings. docs/freshness.md ("Push webhooks") describes the same setup.
 */
import { errorText, getJson, sendJson } from "./api";
import { copyable } from "./copyable";
import { age, byId, el } from "./dom";
import { loopbackHint } from "./loopback-hint";

/** `GET /api/repos/{id}/webhook` (worker/webhooks/secrets.ts webhookInfoSchema). */
interface WebhookInfo {
  repo: string;
  configured: boolean;
  createdAt: number | null;
}

/** `POST /api/repos/{id}/webhook` (webhookCreatedSchema). */
interface WebhookCreated {
  repo: string;
  secret: string;
  createdAt: number;
  github: { payloadUrl: string; contentType: string; events: string[] };
  gitlab: { url: string; secretToken: string; trigger: string };
}

/** The URL a host delivers to; the server's answer to POST has the same (worker/webhooks/secrets.ts). */
function payloadUrl(host: "github" | "gitlab", repo: string): string {
  return `${location.origin}/api/webhooks/${host}?repo=${encodeURIComponent(repo)}`;
}

/** Where to paste what, on each host; `urls` are the server's payload URLs (guessed from this page's origin until it has sent them). */
function instructions(repo: string, secretNote: string, urls = { github: payloadUrl("github", repo), gitlab: payloadUrl("gitlab", repo) }): HTMLElement {
  const hint = loopbackHint(urls.github);
  return el("div", { className: "webhook-hosts" }, [
    hint ? el("p", { className: "help", role: "note", text: hint }) : null,
    el("h3", { text: "GitHub" }),
    el("ol", {}, [
      el("li", { text: "In the repository on GitHub: Settings, Webhooks, Add webhook." }),
      el("li", {}, [copyable("webhook-github-url", "Payload URL (GitHub)", urls.github)]),
      el("li", { text: "Content type: application/json." }),
      el("li", { text: `Secret: ${secretNote}` }),
      el("li", { text: 'Which events: "Just the push event". Then Add webhook; GitHub sends a ping, which this server answers.' }),
    ]),
    el("h3", { text: "GitLab" }),
    el("ol", {}, [
      el("li", { text: "In the project on GitLab: Settings, Webhooks, Add new webhook." }),
      el("li", {}, [copyable("webhook-gitlab-url", "URL (GitLab)", urls.gitlab)]),
      el("li", { text: `Secret token: ${secretNote}` }),
      el("li", { text: "Trigger: Push events (and Tag push events if this repository tracks a tag)." }),
    ]),
  ]);
}

/** Opens the panel for `repo` (replacing what it showed) and moves focus to it. */
export async function openWebhookPanel(repo: string): Promise<void> {
  const panel = byId("webhook-panel");
  const status = el("p", { className: "status", role: "status", "aria-live": "polite" });
  const body = el("div");
  const close = el("button", { type: "button", className: "secondary", text: "Close", "aria-label": "Close the webhook setup" });
  close.addEventListener("click", () => {
    panel.hidden = true;
    panel.replaceChildren();
  });
  const heading = el("h2", { id: "webhook-title", tabindex: -1, text: `Push webhook for ${repo}` });
  panel.replaceChildren(
    heading,
    el("p", {
      className: "help",
      text: "With a push webhook, the code host tells this server about every push, and the branch this repository tracks is re-indexed within seconds.",
    }),
    status,
    body,
    close,
  );
  panel.hidden = false;
  heading.focus();
  status.textContent = "Loading…";
  const info = await getJson<WebhookInfo>(`/api/repos/${encodeURIComponent(repo)}/webhook`);
  if (!info.ok || !info.body) {
    status.textContent = errorText(info);
    status.classList.add("error");
    return;
  }
  render(repo, info.body, body, status);
}

function render(repo: string, info: WebhookInfo, body: HTMLElement, status: HTMLElement): void {
  status.classList.remove("error");
  status.textContent =
    info.configured && info.createdAt
      ? `A secret is set (created ${age(info.createdAt)}). It cannot be shown again; rotate it to get a new one.`
      : "No webhook secret yet. Create one, then paste it into the code host.";
  const create = el("button", { type: "button", text: info.configured ? "Rotate secret" : "Create secret" });
  create.addEventListener("click", async () => {
    if (
      info.configured &&
      !confirm(`Rotate the webhook secret of "${repo}"? Deliveries signed with the old secret will be refused until you paste the new one.`)
    )
      return;
    create.disabled = true;
    const res = await sendJson<WebhookCreated>("POST", `/api/repos/${encodeURIComponent(repo)}/webhook`, {});
    create.disabled = false;
    if (!res.ok || !res.body) {
      status.textContent = errorText(res);
      status.classList.add("error");
      return;
    }
    showSecret(repo, res.body, body, status);
  });
  const remove = info.configured ? el("button", { type: "button", className: "danger", text: "Remove secret" }) : null;
  remove?.addEventListener("click", async () => {
    if (!confirm(`Remove the webhook secret of "${repo}"? The code host's deliveries will be refused.`)) return;
    const res = await sendJson("DELETE", `/api/repos/${encodeURIComponent(repo)}/webhook`);
    if (!res.ok) {
      status.textContent = errorText(res);
      status.classList.add("error");
      return;
    }
    render(repo, { repo, configured: false, createdAt: null }, body, status);
    status.textContent = "Secret removed. The code host's deliveries are refused until you create a new one.";
  });
  body.replaceChildren(
    instructions(repo, info.configured ? "the secret you pasted when it was created (or rotate it here)." : "the secret you create here."),
    el("div", { className: "actions" }, [create, remove]),
  );
}

function showSecret(repo: string, created: WebhookCreated, body: HTMLElement, status: HTMLElement): void {
  status.classList.remove("error");
  status.textContent = "New secret created. Copy it now: it is shown only this once.";
  const done = el("button", { type: "button", className: "secondary", text: "Done" });
  done.addEventListener("click", () => render(repo, { repo, configured: true, createdAt: created.createdAt }, body, status));
  body.replaceChildren(
    copyable("webhook-secret", "Secret (shown once)", created.secret),
    instructions(repo, "the secret above.", { github: created.github.payloadUrl, gitlab: created.gitlab.url }),
    el("div", { className: "actions" }, [done]),
  );
  byId<HTMLInputElement>("webhook-secret").focus();
}
