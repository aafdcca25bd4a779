/**
 * The repositories page (`/repos`): the table (filled in and kept live by
 * /assets/repos.js, web/client/repos.ts), and the forms to add a repository from a git URL
 * or by uploading a folder; the push webhook panel (filled by web/client/webhook-setup.ts);
 * the connections panel and its form (admins; web/client/connections.ts).
 */
import { html } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import { pageShell } from "./layout";

/** Renders the page. */
export function renderReposPage(): HtmlEscapedString | Promise<HtmlEscapedString> {
  const main = html`<h1>Repositories</h1>
      <p id="repos-status" class="status" role="status" aria-live="polite"></p>
      <p id="shards-status" class="status" role="status" aria-live="polite" hidden></p>
      <div class="table-wrap">
        <table id="repos" class="repos">
          <caption class="visually-hidden">Indexed repositories</caption>
          <thead><tr><th scope="col">Repository</th><th scope="col">Status</th><th scope="col">Snapshot</th><th scope="col">Skipped files</th><th scope="col">Actions</th></tr></thead>
          <tbody></tbody>
        </table>
      </div>
      <section id="webhook-panel" class="webhook" aria-labelledby="webhook-title" hidden></section>
      <section id="connections" class="connections" aria-labelledby="connections-title" hidden>
        <h2 id="connections-title">Connections</h2>
        <p class="help">A connection adds every repository of a GitHub organisation or user, or a GitLab group or user, and keeps the list in sync: new repositories are added; deleted or archived ones keep serving for a grace period, then are removed.</p>
        <p id="connections-status" class="status" role="status" aria-live="polite"></p>
        <ul id="connection-list" class="connection-list"></ul>
        <div id="connection-created" class="created" hidden></div>
        <details class="add-connection">
          <summary>Add a connection</summary>
          <form id="connection-form" class="stack" aria-label="Add a connection">
            <div class="row">
              <div class="field"><label for="conn-provider">Code host</label><select id="conn-provider" name="provider"><option value="github">GitHub</option><option value="gitlab">GitLab</option></select></div>
              <div class="field grow"><label for="conn-owner">Organisation, user or group</label><input id="conn-owner" name="owner" type="text" required autocomplete="off" spellcheck="false" pattern="[A-Za-z0-9_.\\-]+(/[A-Za-z0-9_.\\-]+)*" placeholder="acme or platform/backend" /></div>
            </div>
            <div class="field"><label for="conn-token">Access token <span class="help">(optional: without one, public repositories only)</span></label><input id="conn-token" name="token" type="password" autocomplete="off" aria-describedby="conn-token-help" /><span id="conn-token-help" class="help">GitHub: read access to contents and metadata. GitLab: read_api and read_repository. Stored encrypted, never shown again.</span></div>
            <div class="row">
              <div class="field grow"><label for="conn-include">Only repositories matching <span class="help">(optional)</span></label><input id="conn-include" name="include" type="text" autocomplete="off" spellcheck="false" placeholder="svc-*, acme/api" aria-describedby="conn-glob-help" /></div>
              <div class="field grow"><label for="conn-exclude">Leave out repositories matching <span class="help">(optional)</span></label><input id="conn-exclude" name="exclude" type="text" autocomplete="off" spellcheck="false" placeholder="*-archive" aria-describedby="conn-glob-help" /></div>
            </div>
            <p id="conn-glob-help" class="help">Globs separated by commas or spaces; with a / they match owner/name, else the name.</p>
            <div class="row">
              <div class="field check"><input id="conn-forks" name="forks" type="checkbox" /><label for="conn-forks">Include forks</label></div>
              <div class="field check"><input id="conn-archived" name="archived" type="checkbox" /><label for="conn-archived">Include archived repositories</label></div>
            </div>
            <div class="row">
              <div class="field grow"><label for="conn-base-url">API address of a self-hosted instance <span class="help">(optional)</span></label><input id="conn-base-url" name="baseUrl" type="url" autocomplete="off" placeholder="https://ghe.example.com/api/v3 or https://gitlab.example.com" /></div>
              <div class="field"><label for="conn-grace">Grace period, hours <span class="help">(optional)</span></label><input id="conn-grace" name="gracePeriodHours" type="number" min="0" max="2160" step="1" placeholder="72" /></div>
            </div>
            <button type="submit">Connect and sync</button>
          </form>
        </details>
      </section>
      <section class="add" aria-labelledby="add-title">
        <h2 id="add-title">Add a repository</h2>
        <form id="add-git" class="stack" aria-label="Add from a git URL">
          <div class="field"><label for="git-url">Git URL</label><input id="git-url" name="url" type="url" required placeholder="https://github.com/honojs/hono.git" autocomplete="off" /></div>
          <div class="row">
            <div class="field"><label for="git-ref">Branch, tag or commit <span class="help">(optional)</span></label><input id="git-ref" name="ref" type="text" autocomplete="off" /></div>
            <div class="field"><label for="git-name">Name <span class="help">(optional)</span></label><input id="git-name" name="name" type="text" autocomplete="off" pattern="[a-z0-9][a-z0-9._\\-]{0,63}" /></div>
          </div>
          <div class="field"><label for="git-token">Access token for a private repository <span class="help">(optional)</span></label><input id="git-token" name="token" type="password" autocomplete="off" /></div>
          <button type="submit">Add and index</button>
        </form>
        <form id="add-folder" class="stack" aria-label="Upload a folder">
          <div class="field"><label for="folder-name">Name</label><input id="folder-name" name="name" type="text" required autocomplete="off" pattern="[a-z0-9][a-z0-9._\\-]{0,63}" placeholder="my-project" /></div>
          <div class="field"><label for="folder">Folder</label><input id="folder" name="folder" type="file" webkitdirectory multiple required /></div>
          <p class="help">The folder is zipped in the browser and uploaded; the server keeps only what it indexes and leaves out ignored and binary files.</p>
          <button type="submit">Upload and index</button>
        </form>
        <p id="add-status" class="status" role="status" aria-live="polite"></p>
        <div id="add-progress" class="add-progress" hidden></div>
      </section>`;
  return pageShell({ title: "Repositories · Codebase Copilot", page: "repos", script: "repos", main });
}
