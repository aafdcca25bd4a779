/** wrangler and the vitest plugin bundle `*.md` as Text modules (wrangler.toml `[[rules]]`). */
declare module "*.md" {
  const text: string;
  export default text;
}
