/**
 * Vitest `globalSetup` (runs in Node, not workerd): a fake GitHub REST API and a fake GitLab
 * REST API v4 on one loopback server, for the connection tests (test/worker/connections.test.ts).
 * Tests read the base URL with `inject("codeHostUrl")`: GitHub's API root is `${url}/github`
 * (as GitHub Enterprise's `/api/v3` would be), GitLab's instance root `${url}/gitlab`.
 *
 * It speaks the parts of the real wire formats the clients read: GitHub's `Link` pagination
 * (`rel="next"`/`rel="last"`), `{"message": "Bad credentials"}` 401s, `type` of `/users/{login}`;
 * GitLab's `x-next-page`/`x-total-pages` headers and `Link`, `/groups/:id` with URL-encoded paths,
 * `/users?username=`. Private repositories are listed only with a valid token. Pages are
 * `pageSize` long whatever `per_page` asks (a server may send fewer), so a test needs few repos
 * to cross pages.
 *
 * Control routes (JSON):
 * - `POST /_control/github/owners/<login> {type: "Organization"|"User", repos: [...], linkBase?}` sets an owner
 *   (repos: `{id, name, clone_url, fork?, archived?, private?}`; `linkBase`: the origin its
 *   pagination links point at, default this server's);
 * - `POST /_control/gitlab/groups/<path> {projects: [...]}`, `POST /_control/gitlab/users/<name> {projects}`
 *   (projects: `{id, path, path_with_namespace, http_url_to_repo, archived?, fork?, private?}`);
 * - `POST /_control/tokens {token, login}`: a valid token (GitHub `GET /user` answers `login`);
 * - `POST /_control/github/readers/<repo id> {logins}`: the collaborators of a repository
 *   (`GET /repos/{owner}/{repo}/collaborators`; default none), and `POST /_control/github/access/<login>
 *   {repoIds}`: what `GET /user/repos` lists for that user's token (default: the repos they own);
 * - `POST /_control/gitlab/members/<project id> {members: [{username, access_level}]}`: what
 *   `GET /projects/:id/members/all` lists (default none);
 * - `POST /_control/page-size {size}`;
 * - `POST /_control/fail {prefix, count, status, headers?, body?}`: the next `count` API requests
 *   whose path starts with `prefix` get that answer (rate limits, outages);
 * - `GET /_control/log?prefix=`: the API requests served (`{path, status, at, auth}`).
 * - `POST /_control/git-upstream {url}`: `/git/<rest>` on this server is proxied to `<url>/<rest>`
 *   (the loopback git server), so a clone URL can be on the API's own origin, as on GitHub
 *   Enterprise or GitLab, where the API and git share a host.
 *
 * GitHub's OAuth web flow (sign-in pages and the code exchange) is under `/github-web`
 * (test/github-web-flow.ts): a Worker with GITHUB_BASE_URL `${url}/github-web` signs people in.
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { closeServer } from "./close-server.ts";
import { githubWebFlow } from "./github-web-flow.ts";

interface GhRepo {
  id: number;
  name: string;
  clone_url: string;
  fork?: boolean;
  archived?: boolean;
  private?: boolean;
  visibility?: string;
}
interface GlProject {
  id: number;
  path: string;
  path_with_namespace: string;
  http_url_to_repo: string;
  archived?: boolean;
  fork?: boolean;
  private?: boolean;
}
interface Failure {
  prefix: string;
  count: number;
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

const ghOwners = new Map<string, { type: string; repos: GhRepo[]; linkBase?: string }>();
const glGroups = new Map<string, GlProject[]>();
const glUsers = new Map<string, GlProject[]>();
const tokens = new Map<string, string>();
const ghReaders = new Map<string, string[]>();
const ghAccess = new Map<string, number[]>();
const glMembers = new Map<string, { username: string; access_level: number }[]>();
const failures: Failure[] = [];
const log: { path: string; status: number; at: number; auth: boolean }[] = [];
let pageSize = 100;
let gitUpstream: string | null = null;

function readJson(req: IncomingMessage): Promise<any> {
  return new Promise((resolve, reject) => {
    let text = "";
    req.on("data", (d) => (text += d));
    req.on("end", () => {
      try {
        resolve(text ? JSON.parse(text) : {});
      } catch (err) {
        reject(err);
      }
    });
  });
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): number {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
  return status;
}

/** The token of a request (GitHub: `token X` or `Bearer X`; GitLab: `Bearer X` or `PRIVATE-TOKEN`). */
function tokenOf(req: IncomingMessage): string | null {
  const h = req.headers.authorization ?? "";
  const m = /^(?:token|bearer)\s+(.+)$/i.exec(h);
  return m ? m[1] : ((req.headers["private-token"] as string | undefined) ?? null);
}

function page<T>(items: T[], url: URL): { slice: T[]; page: number; last: number } {
  const p = Math.max(1, Number(url.searchParams.get("page") ?? "1"));
  const size = Math.min(pageSize, Number(url.searchParams.get("per_page") ?? "30"));
  const last = Math.max(1, Math.ceil(items.length / size));
  return { slice: items.slice((p - 1) * size, p * size), page: p, last };
}

function linkHeader(url: URL, p: number, last: number, base: string): string {
  const at = (n: number) => {
    const u = new URL(url.pathname + url.search, base);
    u.searchParams.set("page", String(n));
    return u.toString();
  };
  const parts = [];
  if (p < last) parts.push(`<${at(p + 1)}>; rel="next"`, `<${at(last)}>; rel="last"`);
  if (p > 1) parts.push(`<${at(1)}>; rel="first"`, `<${at(p - 1)}>; rel="prev"`);
  return parts.join(", ");
}

function github(req: IncomingMessage, res: ServerResponse, url: URL, base: string): number {
  const path = url.pathname.slice("/github".length);
  const token = tokenOf(req);
  if (token !== null && !tokens.has(token)) return send(res, 401, { message: "Bad credentials", documentation_url: "https://docs.github.com/rest" });
  const me = token ? tokens.get(token)! : null;
  if (path === "/user") return me ? send(res, 200, { login: me, id: 1, type: "User" }) : send(res, 401, { message: "Requires authentication" });
  const user = /^\/users\/([^/]+)$/.exec(path);
  if (user) {
    const o = ghOwners.get(user[1].toLowerCase());
    return o ? send(res, 200, { login: user[1], id: 7, type: o.type }) : send(res, 404, { message: "Not Found" });
  }
  const collab = /^\/repos\/([^/]+)\/([^/]+)\/collaborators$/.exec(path);
  if (collab) {
    const o = ghOwners.get(collab[1].toLowerCase());
    const repo = o?.repos.find((r) => r.name === collab[2]);
    if (!repo || (repo.private && !me)) return send(res, 404, { message: "Not Found" });
    if (!me) return send(res, 401, { message: "Requires authentication" });
    const logins = ghReaders.get(String(repo.id)) ?? [];
    const { slice, page: p, last } = page(logins, url);
    const link = linkHeader(url, p, last, base);
    return send(
      res,
      200,
      slice.map((login, i) => ({ login, id: 1000 + i, type: "User" })),
      link ? { link } : {},
    );
  }
  if (path === "/user/repos" && me && ghAccess.has(me.toLowerCase())) {
    const ids = ghAccess.get(me.toLowerCase())!;
    const all = [...ghOwners.entries()].flatMap(([login, o]) => o.repos.map((r) => ({ r, login })));
    const mine = all.filter((x) => ids.includes(x.r.id));
    const { slice, page: p, last } = page(mine, url);
    const link = linkHeader(url, p, last, base);
    return send(
      res,
      200,
      slice.map(({ r, login }) => ({ id: r.id, name: r.name, full_name: `${login}/${r.name}`, private: !!r.private, owner: { login } })),
      link ? { link } : {},
    );
  }
  let list: GhRepo[] | null = null;
  let ownerLogin = "";
  const org = /^\/orgs\/([^/]+)\/repos$/.exec(path);
  const userRepos = /^\/users\/([^/]+)\/repos$/.exec(path);
  if (org && ghOwners.get(org[1].toLowerCase())?.type === "Organization") {
    ownerLogin = org[1];
    list = ghOwners.get(org[1].toLowerCase())!.repos;
  } else if (userRepos && ghOwners.has(userRepos[1].toLowerCase())) {
    ownerLogin = userRepos[1];
    list = ghOwners.get(userRepos[1].toLowerCase())!.repos.filter((r) => !r.private);
  } else if (path === "/user/repos" && me) {
    ownerLogin = me;
    list = ghOwners.get(me.toLowerCase())?.repos ?? [];
  }
  if (!list) return send(res, 404, { message: "Not Found" });
  const visible = list.filter((r) => !r.private || me !== null);
  const { slice, page: p, last } = page(visible, url);
  const body = slice.map((r) => ({
    id: r.id,
    name: r.name,
    full_name: `${ownerLogin}/${r.name}`,
    private: !!r.private,
    visibility: r.visibility ?? (r.private ? "private" : "public"),
    fork: !!r.fork,
    archived: !!r.archived,
    clone_url: r.clone_url,
    owner: { login: ownerLogin },
  }));
  // `linkBase` (control): pagination links on another origin, as a hostile or misconfigured API might send.
  const link = linkHeader(url, p, last, ghOwners.get(ownerLogin.toLowerCase())?.linkBase ?? base);
  return send(res, 200, body, link ? { link } : {});
}

function gitlab(req: IncomingMessage, res: ServerResponse, url: URL, base: string): number {
  const path = url.pathname.slice("/gitlab/api/v4".length);
  const token = tokenOf(req);
  if (token !== null && !tokens.has(token)) return send(res, 401, { message: "401 Unauthorized" });
  if (path === "/user") return token ? send(res, 200, { id: 1, username: tokens.get(token) }) : send(res, 401, { message: "401 Unauthorized" });
  if (path === "/users") {
    const name = url.searchParams.get("username") ?? "";
    return send(res, 200, glUsers.has(name) ? [{ id: 9, username: name }] : []);
  }
  const group = /^\/groups\/([^/]+)$/.exec(path);
  if (group) {
    const g = decodeURIComponent(group[1]);
    return glGroups.has(g) ? send(res, 200, { id: 3, full_path: g }) : send(res, 404, { message: "404 Group Not Found" });
  }
  const members = /^\/projects\/([^/]+)\/members\/all$/.exec(path);
  if (members) {
    if (!token) return send(res, 401, { message: "401 Unauthorized" });
    const list = glMembers.get(decodeURIComponent(members[1])) ?? [];
    const { slice, page: p, last } = page(list, url);
    const headers: Record<string, string> = { "x-page": String(p), "x-total-pages": String(last), "x-next-page": p < last ? String(p + 1) : "" };
    return send(
      res,
      200,
      slice.map((m, i) => ({ id: 500 + i, username: m.username, state: "active", access_level: m.access_level })),
      headers,
    );
  }
  const gp = /^\/groups\/([^/]+)\/projects$/.exec(path);
  const up = /^\/users\/([^/]+)\/projects$/.exec(path);
  const list = gp ? glGroups.get(decodeURIComponent(gp[1])) : up ? glUsers.get(decodeURIComponent(up[1])) : undefined;
  if (!list) return send(res, 404, { message: "404 Not Found" });
  const visible = list.filter((p) => !p.private || token !== null);
  const { slice, page: p, last } = page(visible, url);
  const body = slice.map((x) => ({
    id: x.id,
    path: x.path,
    path_with_namespace: x.path_with_namespace,
    http_url_to_repo: x.http_url_to_repo,
    archived: !!x.archived,
    visibility: x.private ? "private" : "public",
    ...(x.fork ? { forked_from_project: { id: 1 } } : {}),
  }));
  const headers: Record<string, string> = { "x-page": String(p), "x-total-pages": String(last), "x-next-page": p < last ? String(p + 1) : "" };
  const link = linkHeader(url, p, last, base);
  if (link) headers.link = link;
  return send(res, 200, body, headers);
}

async function control(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const path = url.pathname.slice("/_control".length);
  if (req.method === "GET" && path === "/log") {
    const prefix = url.searchParams.get("prefix") ?? "";
    send(res, 200, { requests: log.filter((l) => l.path.startsWith(prefix)) });
    return;
  }
  const body = await readJson(req);
  let m: RegExpExecArray | null;
  if ((m = /^\/github\/owners\/([^/]+)$/.exec(path))) ghOwners.set(m[1].toLowerCase(), { type: body.type, repos: body.repos, linkBase: body.linkBase });
  else if ((m = /^\/gitlab\/groups\/(.+)$/.exec(path))) glGroups.set(decodeURIComponent(m[1]), body.projects);
  else if ((m = /^\/gitlab\/users\/([^/]+)$/.exec(path))) glUsers.set(m[1], body.projects);
  else if (path === "/tokens") tokens.set(body.token, body.login);
  else if ((m = /^\/github\/readers\/([^/]+)$/.exec(path))) ghReaders.set(m[1], body.logins);
  else if ((m = /^\/github\/access\/([^/]+)$/.exec(path))) ghAccess.set(m[1].toLowerCase(), body.repoIds);
  else if ((m = /^\/gitlab\/members\/([^/]+)$/.exec(path))) glMembers.set(m[1], body.members);
  else if (path === "/page-size") pageSize = body.size;
  else if (path === "/git-upstream") gitUpstream = body.url;
  else if (path === "/fail") failures.push({ prefix: body.prefix, count: body.count, status: body.status, headers: body.headers ?? {}, body: body.body ?? {} });
  else return void send(res, 404, { error: "no such control route" });
  send(res, 200, { ok: true });
}

let server: Server | undefined;

/** Forwards a git request (method, headers, body, answer) to the git server, streaming both ways. */
function proxyGit(req: IncomingMessage, res: ServerResponse, url: URL): void {
  if (!gitUpstream) return void send(res, 502, { message: "no git upstream: POST /_control/git-upstream first" });
  const target = new URL(url.pathname.slice("/git".length) + url.search, gitUpstream);
  const out = request(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (up) => {
    res.writeHead(up.statusCode ?? 502, up.headers);
    up.pipe(res);
  });
  out.on("error", (err) => send(res, 502, { message: String(err) }));
  req.pipe(out);
}

/** Vitest globalSetup: start the server, provide its URL. */
export default async function setup({ provide }: { provide: (key: "codeHostUrl", value: string) => void }): Promise<() => Promise<void>> {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const base = `http://${req.headers.host}`;
    if (url.pathname.startsWith("/_control/")) {
      control(req, res, url).catch((err) => send(res, 500, { error: String(err) }));
      return;
    }
    const path = url.pathname + url.search;
    if (url.pathname.startsWith("/github-web/")) {
      githubWebFlow(req, res, url, (token, login) => tokens.set(token, login))
        .then((status) => log.push({ path: url.pathname, status, at: Date.now(), auth: false }))
        .catch((err) => send(res, 500, { error: String(err) }));
      return;
    }
    if (url.pathname.startsWith("/git/")) {
      log.push({ path, status: 0, at: Date.now(), auth: !!req.headers.authorization });
      return proxyGit(req, res, url);
    }
    const f = failures.find((x) => x.count > 0 && url.pathname.startsWith(x.prefix));
    let status: number;
    if (f) {
      f.count--;
      status = send(res, f.status, f.body, f.headers);
    } else if (url.pathname.startsWith("/github/")) status = github(req, res, url, base);
    else if (url.pathname.startsWith("/gitlab/api/v4/")) status = gitlab(req, res, url, base);
    else status = send(res, 404, { message: "Not Found" });
    log.push({ path, status, at: Date.now(), auth: !!req.headers.authorization });
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  provide("codeHostUrl", `http://127.0.0.1:${port}`);
  return async () => {
    await closeServer(server);
  };
}
