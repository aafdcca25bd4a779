/**
 * Script of the search page, served at `/assets/search.js`. Plain ES2020 for the browser.
 *
 * It asks `/auth/session` who is signed in (the web session cookie is H6's, worker/auth), loads
 * `GET /api/repos` for the repo filter, runs `GET /api/search`, and signs each result's source
 * link with `POST /api/source-links` (CSRF header from the session). Untrusted text (paths,
 * symbols, snippets, error messages) is only ever set with `textContent`, never as HTML.
 * Kept as a string (no template literals inside) because the Worker has no asset pipeline.
 */
export const SEARCH_JS = String.raw`
(function () {
  "use strict";
  var form = document.getElementById("search-form");
  var qInput = document.getElementById("q");
  var repoSelect = document.getElementById("repo");
  var statusEl = document.getElementById("status");
  var resultsEl = document.getElementById("results");
  var accountEl = document.getElementById("account");
  var csrf = null;
  var searchSeq = 0;
  var RESULTS_K = 20;

  function el(tag, props, children) {
    var node = document.createElement(tag);
    Object.keys(props || {}).forEach(function (k) {
      if (k === "text") node.textContent = props[k];
      else if (k === "className") node.className = props[k];
      else node.setAttribute(k, props[k]);
    });
    (children || []).forEach(function (c) { if (c) node.appendChild(c); });
    return node;
  }

  function setStatus(text, isError) {
    statusEl.textContent = text;
    statusEl.classList.toggle("error", !!isError);
  }

  async function getJson(url, init) {
    var res = await fetch(url, Object.assign({ credentials: "same-origin" }, init || {}));
    var body = null;
    try { body = await res.json(); } catch (e) { body = null; }
    return { ok: res.ok, status: res.status, body: body };
  }

  function errorText(r) {
    var e = r.body && r.body.error;
    return (e && e.message) || ("Request failed with HTTP " + r.status + ".");
  }

  function showSignedOut() {
    accountEl.replaceChildren(el("span", { text: "Not signed in." }), el("a", { href: "/login", text: "Sign in" }));
  }

  function showSignedIn(login) {
    var logout = el("form", { method: "post", action: "/logout" }, [
      el("input", { type: "hidden", name: "csrf", value: csrf }),
      el("button", { type: "submit", className: "linkish", text: "Sign out" }),
    ]);
    accountEl.replaceChildren(el("span", { text: "Signed in as " + login }), logout);
  }

  async function loadSession() {
    var r = await getJson("/auth/session");
    if (!r.ok) { showSignedOut(); return false; }
    csrf = r.body.csrfToken;
    showSignedIn(r.body.login);
    return true;
  }

  async function loadRepos() {
    var r = await getJson("/api/repos");
    if (!r.ok) return;
    var repos = Array.isArray(r.body) ? r.body : (r.body && r.body.repos) || [];
    var selected = repoSelect.value;
    var options = [el("option", { value: "", text: "All repositories" })];
    repos.forEach(function (repo) {
      var label = repo.id + (repo.status && repo.status !== "ready" ? " (" + repo.status + ")" : "");
      var opt = el("option", { value: repo.id, text: label });
      if (repo.id === selected) opt.selected = true;
      options.push(opt);
    });
    repoSelect.replaceChildren.apply(repoSelect, options);
    repoSelect.value = selected;
  }

  function snippetBlock(result) {
    var code = el("code");
    result.snippet.split("\n").forEach(function (line, i) {
      code.appendChild(el("span", { className: "ln", "aria-hidden": "true", text: String(result.startLine + i) }));
      code.appendChild(document.createTextNode(line + "\n"));
    });
    return el("pre", { "aria-label": "Code of " + result.path + " from line " + result.startLine }, [code]);
  }

  function renderResult(result) {
    var place = result.path + ":" + result.startLine + "-" + result.endLine;
    var link = el("a", { className: "source-link", text: (result.repo ? result.repo + "/" : "") + place });
    var meta = [result.symbol ? result.kind + " " + result.symbol : result.kind, result.language].filter(Boolean).join(" \u00b7 ");
    var item = el("li", { className: "result" }, [
      el("h2", {}, [link]),
      el("p", { className: "meta", text: meta }),
      snippetBlock(result),
      result.snippetTruncated ? el("p", { className: "truncated", text: "Snippet shortened; open the source for the rest." }) : null,
    ]);
    signLink(link, result);
    return item;
  }

  async function signLink(link, result) {
    if (!csrf) return;
    var r = await getJson("/api/source-links", {
      method: "POST",
      headers: { "content-type": "application/json", "x-csrf-token": csrf },
      body: JSON.stringify({ repo: result.repo, path: result.path, startLine: result.startLine, endLine: result.endLine }),
    });
    if (r.ok && r.body && typeof r.body.url === "string") link.href = r.body.url;
  }

  async function runSearch() {
    var q = qInput.value.trim();
    if (!q) { setStatus("Type something to search for.", true); qInput.focus(); return; }
    var repo = repoSelect.value;
    var params = new URLSearchParams({ q: q, k: String(RESULTS_K) });
    if (repo) params.set("repo", repo);
    var pageParams = new URLSearchParams({ q: q });
    if (repo) pageParams.set("repo", repo);
    history.replaceState(null, "", "/?" + pageParams.toString());
    document.title = q + " \u00b7 Codebase Copilot search";
    var seq = ++searchSeq;
    setStatus("Searching\u2026");
    resultsEl.setAttribute("aria-busy", "true");
    var r = await getJson("/api/search?" + params.toString());
    if (seq !== searchSeq) return; // a newer search started meanwhile
    resultsEl.removeAttribute("aria-busy");
    resultsEl.replaceChildren();
    if (r.status === 401) { showSignedOut(); setStatus("Sign in to search (link at the top right).", true); return; }
    if (!r.ok) { setStatus(errorText(r), true); return; }
    var results = r.body.results || [];
    var took = r.body.stats && typeof r.body.stats.tookMs === "number" ? " in " + Math.round(r.body.stats.tookMs) + " ms" : "";
    setStatus(results.length ? results.length + (results.length === 1 ? " result" : " results") + took + "." : "No results" + took + ".");
    var confidence = r.body.confidence;
    if (results.length && confidence && confidence.level === "low") {
      resultsEl.appendChild(el("li", { className: "notice", text: "Low confidence: " + (confidence.reason || "the query terms are barely covered") + ". Try other words or an identifier." }));
    }
    results.forEach(function (result) { resultsEl.appendChild(renderResult(result)); });
  }

  form.addEventListener("submit", function (event) { event.preventDefault(); runSearch(); });
  document.addEventListener("keydown", function (event) {
    var t = event.target;
    var typing = t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA" || t.isContentEditable);
    if (event.key === "/" && !typing) { event.preventDefault(); qInput.focus(); qInput.select(); }
  });

  (async function init() {
    var signedIn = await loadSession();
    if (signedIn) await loadRepos();
    if (qInput.value.trim()) runSearch();
    else qInput.focus();
  })();
})();
`;
