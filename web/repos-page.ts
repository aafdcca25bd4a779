/**
 * The repositories page (`/repos`): the table (filled in and kept live by
 * /assets/repos.js, web/client/repos.ts), and the forms to add a repository from a git URL
 * or by uploading a folder; the push webhook panel (filled by web/client/webhook-setup.ts).
 */
import { html } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import { pageShell } from "./layout";

/** Renders the page. */
export function renderReposPage(): HtmlEscapedString | Promise<HtmlEscapedString> {
  const main = html`<h1>Repositories</h1>
      <p id="repos-status" class="status" role="status" aria-live="polite"></p>
      <div class="table-wrap">
        <table id="repos" class="repos">
          <caption class="visually-hidden">Indexed repositories</caption>
          <thead><tr><th scope="col">Repository</th><th scope="col">Status</th><th scope="col">Snapshot</th><th scope="col">Skipped files</th><th scope="col">Actions</th></tr></thead>
          <tbody></tbody>
        </table>
      </div>
      <section id="webhook-panel" class="webhook" aria-labelledby="webhook-title" hidden></section>
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
      </section>`;
  return pageShell({ title: "Repositories · Codebase Copilot", page: "repos", script: "repos", main });
}
