/**
 * What a `cloudflare:` import resolves to in the Node test project (test/config/node-stand-ins.ts).
 * Importing it throws: the test file needs workerd, and test/config/classify.ts should have put
 * it in the Workers project (add the package that pulled it in to WORKERD_PACKAGES there).
 */
const wanted = new URLSearchParams(import.meta.url.split("?")[1] ?? "").get("module") ?? "a cloudflare: module";
throw new Error(
  `${wanted} exists only in workerd, but this test file runs in the Node project. ` +
    "test/config/classify.ts sends a file to the Workers project when its imports reach a cloudflare: module or a package in WORKERD_PACKAGES; add the package that imports it there.",
);
