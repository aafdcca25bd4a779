/**
 * @module indexer/own-packages
 *
 * The npm packages a repo publishes itself, read from its manifests when a snapshot is
 * activated and stored in D1 `snapshot_packages`. Search needs them for stack traces: an
 * installed package's frame (`/app/node_modules/express/lib/response.js`) names the file
 * `lib/response.js` only in the repo that is `express`; in any other repo it names nothing,
 * so that `node_modules/zod/src/index.ts` never names an app's own `src/index.ts`.
 *
 * Read: the root `package.json`'s `name`, and the `name` of every `package.json` in a
 * workspace folder the repo declares (root `package.json` `workspaces`, as an array or as
 * `{packages}`; `pnpm-workspace.yaml` `packages`; `lerna.json` `packages`). A manifest that is
 * missing, not JSON, or without a valid name is left out: reading manifests never fails
 * indexing. Pure; the caller reads the files (durable-objects/finalize.ts).
 */
import type { RepoPackage } from "./store/contract";

/** Root files that name the repo's package or declare its workspaces. */
export const ROOT_MANIFEST_PATHS: readonly string[] = ["package.json", "pnpm-workspace.yaml", "lerna.json"];
/** Most workspace manifests read, and packages kept, per snapshot (bounds the D1 reads and rows). */
export const MAX_OWN_PACKAGES = 500;
/** npm's limit on a package name's length. */
const MAX_NAME_CHARS = 214;
/**
 * A package name npm accepts, scoped or not (`express`, `@hono/node-server`); legacy names with
 * capitals (`JSONStream`) too. Nothing that could climb out of `node_modules/` (`.`, `..`).
 */
const PACKAGE_NAME_RE = /^(?:@[A-Za-z0-9~-][\w.~-]*\/)?[A-Za-z0-9~-][\w.~-]*$/;

const MANIFEST = "package.json";

function folderOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}

function parseJson(text: string | undefined): Record<string, unknown> | null {
  if (text === undefined) return null;
  try {
    const value: unknown = JSON.parse(text.replace(/^\uFEFF/, ""));
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);

/**
 * The `packages:` list of a `pnpm-workspace.yaml`, block (`- 'packages/*'`) or flow
 * (`packages: [a, b]`) style. Read by lines, not by a YAML parser: the file is a short list by
 * convention, and anything else gives no globs.
 */
function pnpmPackages(text: string | undefined): string[] {
  if (text === undefined) return [];
  const unquote = (s: string) => s.trim().replace(/^(['"])(.*)\1$/, "$2");
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((l) => /^packages\s*:/.test(l));
  if (start < 0) return [];
  const flow = /^packages\s*:\s*\[(.*)\]\s*(?:#.*)?$/.exec(lines[start]);
  if (flow) return flow[1].split(",").map(unquote).filter(Boolean);
  const out: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^\s*(?:#.*)?$/.test(line)) continue;
    const item = /^\s+-\s+([^#]+?)\s*(?:#.*)?$/.exec(line);
    if (!item) break;
    out.push(unquote(item[1]));
  }
  return out;
}

/**
 * The workspace globs the root manifests declare (`packages/*`, `!packages/internal`), from
 * `roots` (path -> text of the files in ROOT_MANIFEST_PATHS that exist). Empty when none
 * declares any or a manifest is malformed. Never throws.
 */
export function workspaceGlobs(roots: ReadonlyMap<string, string>): string[] {
  const pkg = parseJson(roots.get(MANIFEST));
  const workspaces = pkg?.workspaces;
  const declared = Array.isArray(workspaces)
    ? workspaces
    : workspaces && typeof workspaces === "object"
      ? (workspaces as Record<string, unknown>).packages
      : undefined;
  return [...strings(declared), ...pnpmPackages(roots.get("pnpm-workspace.yaml")), ...strings(parseJson(roots.get("lerna.json"))?.packages)];
}

/**
 * A workspace glob as a regular expression over folder paths: `*` one folder name, `**` any
 * depth, `?` one character. Null for a glob that cannot name a folder of the repo (absolute,
 * `..`, empty, braces).
 */
function globRegExp(glob: string): RegExp | null {
  const g = glob
    .trim()
    .replace(/^(?:\.\/)+/, "")
    .replace(/\/+$/, "");
  if (!g || g.startsWith("/") || g.split("/").includes("..") || /[{}[\]]/.test(g)) return null;
  let re = "";
  for (let i = 0; i < g.length; i++) {
    const c = g[i];
    if (c === "*" && g[i + 1] === "*") {
      i += 1;
      if (g[i + 1] === "/") {
        i += 1;
        re += "(?:[^/]+/)*";
      } else re += ".*";
    } else if (c === "*") re += "[^/]*";
    else if (c === "?") re += "[^/]";
    else re += c.replace(/[.+^$()|\\]/g, "\\$&");
  }
  return new RegExp(`^${re}$`);
}

/** Whether `folder` is a workspace folder by `globs` (a later `!glob` excludes); never inside `node_modules/`. */
function isWorkspaceFolder(folder: string, globs: { re: RegExp; negated: boolean }[]): boolean {
  if (!folder || folder.split("/").includes("node_modules")) return false;
  let member = false;
  for (const g of globs) if (g.re.test(folder)) member = !g.negated;
  return member;
}

function compileGlobs(globs: string[]): { re: RegExp; negated: boolean }[] {
  return globs.flatMap((glob) => {
    const negated = glob.trim().startsWith("!");
    const re = globRegExp(negated ? glob.trim().slice(1) : glob);
    return re ? [{ re, negated }] : [];
  });
}

const depth = (path: string) => path.split("/").length;
const byDepth = (a: string, b: string) => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0);

/**
 * Of a snapshot's `paths`, the `package.json` files of the workspace folders that `roots`
 * declares (workspaceGlobs), shallowest first, at most MAX_OWN_PACKAGES. Empty without
 * workspaces. Never throws.
 */
export function workspaceManifestPaths(roots: ReadonlyMap<string, string>, paths: Iterable<string>): string[] {
  const globs = compileGlobs(workspaceGlobs(roots));
  if (!globs.length) return [];
  const found: string[] = [];
  for (const p of paths) {
    if (p !== MANIFEST && p.endsWith(`/${MANIFEST}`) && isWorkspaceFolder(folderOf(p), globs)) found.push(p);
  }
  return found.sort(byDepth).slice(0, MAX_OWN_PACKAGES);
}

/**
 * The packages the repo publishes, from `manifests` (path -> text; the root manifests and any
 * workspace `package.json` files, e.g. those workspaceManifestPaths chose): the root
 * `package.json`'s name with folder `""`, then each workspace member's name with its folder,
 * shallowest first. A `package.json` outside the declared workspaces, or under `node_modules/`,
 * is ignored. A name given twice keeps its first (shallowest) folder. Malformed JSON, a missing
 * or non-string `name` and names npm would refuse are skipped. Never throws; at most
 * MAX_OWN_PACKAGES.
 */
export function ownPackages(manifests: ReadonlyMap<string, string>): RepoPackage[] {
  const globs = compileGlobs(workspaceGlobs(manifests));
  const paths = [...manifests.keys()].filter((p) => p === MANIFEST || (p.endsWith(`/${MANIFEST}`) && isWorkspaceFolder(folderOf(p), globs))).sort(byDepth);
  const seen = new Set<string>();
  const out: RepoPackage[] = [];
  for (const path of paths) {
    const name = parseJson(manifests.get(path))?.name;
    if (typeof name !== "string" || name.length > MAX_NAME_CHARS || !PACKAGE_NAME_RE.test(name) || seen.has(name)) continue;
    seen.add(name);
    out.push({ name, folder: folderOf(path) });
    if (out.length >= MAX_OWN_PACKAGES) break;
  }
  return out;
}
