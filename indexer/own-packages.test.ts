import { describe, expect, it } from "vitest";
import { MAX_OWN_PACKAGES, ownPackages, workspaceGlobs, workspaceManifestPaths } from "./own-packages";

const files = (entries: Record<string, unknown>) => new Map(Object.entries(entries).map(([p, v]) => [p, typeof v === "string" ? v : JSON.stringify(v)]));

describe("ownPackages", () => {
  it.each([
    ["a plain name", { "package.json": { name: "express", version: "5.0.0" } }, [{ name: "express", folder: "" }]],
    ["a scoped name", { "package.json": { name: "@hono/node-server" } }, [{ name: "@hono/node-server", folder: "" }]],
    ["a legacy name with capitals", { "package.json": { name: "JSONStream" } }, [{ name: "JSONStream", folder: "" }]],
    ["a byte order mark", { "package.json": `\uFEFF${JSON.stringify({ name: "zod" })}` }, [{ name: "zod", folder: "" }]],
    ["no name (a private app)", { "package.json": { private: true } }, []],
    ["a name that is not a string", { "package.json": { name: ["express"] } }, []],
    ["a name npm refuses", { "package.json": { name: "../../etc" } }, []],
    ["a name that starts with a dot", { "package.json": { name: ".bin" } }, []],
    ["a scope without a name", { "package.json": { name: "@acme/" } }, []],
    ["malformed JSON", { "package.json": '{"name": "express",' }, []],
    ["JSON that is not an object", { "package.json": '"express"' }, []],
    ["an empty file", { "package.json": "" }, []],
    ["no root manifest", {}, []],
  ])("%s", (_what, manifests, want) => expect(ownPackages(files(manifests))).toEqual(want));

  it("reads the workspace members the root declares, root first, then by depth", () => {
    const got = ownPackages(
      files({
        "package.json": { name: "acme-monorepo", private: true, workspaces: ["packages/*", "tools/**"] },
        "tools/lint/rules/package.json": { name: "@acme/lint-rules" },
        "packages/server/package.json": { name: "@acme/server" },
        "packages/client/package.json": { name: "acme-client" },
        "examples/demo/package.json": { name: "demo" },
        "packages/server/node_modules/dep/package.json": { name: "dep" },
      }),
    );
    expect(got).toEqual([
      { name: "acme-monorepo", folder: "" },
      { name: "acme-client", folder: "packages/client" },
      { name: "@acme/server", folder: "packages/server" },
      { name: "@acme/lint-rules", folder: "tools/lint/rules" },
    ]);
  });

  it("reads Yarn's {packages} form, pnpm-workspace.yaml and lerna.json, and honours a later !glob", () => {
    const members = {
      "packages/a/package.json": { name: "a" },
      "packages/internal/package.json": { name: "internal" },
      "apps/web/package.json": { name: "web" },
      "libs/x/package.json": { name: "x" },
    };
    expect(ownPackages(files({ "package.json": { workspaces: { packages: ["packages/*", "!packages/internal"] } }, ...members })).map((p) => p.name)).toEqual([
      "a",
    ]);
    const pnpm = "# workspace\npackages:\n  - 'packages/*'\n  - \"apps/*\" # the apps\n  - '!**/internal'\ncatalog:\n  react: ^18\n";
    expect(ownPackages(files({ "pnpm-workspace.yaml": pnpm, ...members })).map((p) => p.name)).toEqual(["web", "a"]);
    expect(ownPackages(files({ "pnpm-workspace.yaml": "packages: ['libs/*', apps/*]\n", ...members })).map((p) => p.name)).toEqual(["web", "x"]);
    expect(ownPackages(files({ "lerna.json": { packages: ["./libs/*/"] }, ...members })).map((p) => p.name)).toEqual(["x"]);
  });

  it("keeps a name given twice at its shallowest folder", () => {
    const got = ownPackages(
      files({
        "package.json": { name: "core", workspaces: ["packages/**"] },
        "packages/core/package.json": { name: "core" },
        "packages/x/package.json": { name: "x" },
        "packages/old/x/package.json": { name: "x" },
      }),
    );
    expect(got).toEqual([
      { name: "core", folder: "" },
      { name: "x", folder: "packages/x" },
    ]);
  });

  it("ignores a package.json outside the declared workspaces, and malformed workspace fields", () => {
    expect(ownPackages(files({ "package.json": { name: "app" }, "test/fixtures/express/package.json": { name: "express" } }))).toEqual([
      { name: "app", folder: "" },
    ]);
    for (const workspaces of ["packages/*", 42, { packages: "packages/*" }, [null, 7], ["/abs/*", "../up/*", "{a,b}/*"]]) {
      expect(
        ownPackages(files({ "package.json": { name: "app", workspaces }, "packages/a/package.json": { name: "a" }, "up/a/package.json": { name: "u" } })),
        JSON.stringify(workspaces),
      ).toEqual([{ name: "app", folder: "" }]);
    }
  });

  it("keeps at most MAX_OWN_PACKAGES", () => {
    const many = Object.fromEntries(Array.from({ length: MAX_OWN_PACKAGES + 5 }, (_, i) => [`packages/p${i}/package.json`, { name: `p${i}` }]));
    expect(ownPackages(files({ "package.json": { name: "root", workspaces: ["packages/*"] }, ...many }))).toHaveLength(MAX_OWN_PACKAGES);
  });
});

describe("workspaceManifestPaths", () => {
  const paths = [
    "package.json",
    "packages/a/package.json",
    "packages/a/src/index.ts",
    "packages/b/sub/package.json",
    "packages/a/node_modules/x/package.json",
    "docs/package.json",
  ];

  it("lists the package.json files of the declared workspace folders, shallowest first", () => {
    expect(workspaceManifestPaths(files({ "package.json": { workspaces: ["packages/**"] } }), paths)).toEqual([
      "packages/a/package.json",
      "packages/b/sub/package.json",
    ]);
    expect(workspaceManifestPaths(files({ "package.json": { workspaces: ["packages/*"] } }), paths)).toEqual(["packages/a/package.json"]);
  });

  it("lists none without workspaces, or when the root manifest is malformed", () => {
    expect(workspaceManifestPaths(files({ "package.json": { name: "x" } }), paths)).toEqual([]);
    expect(workspaceManifestPaths(files({ "package.json": "{ workspaces: [packages/*] }" }), paths)).toEqual([]);
    expect(workspaceGlobs(new Map())).toEqual([]);
  });
});
