/** Stylesheet of the search page, served at `/assets/search.css` (a file, so the CSP needs no 'unsafe-inline'). */
export const SEARCH_CSS = String.raw`
:root { color-scheme: light dark; --fg: #1d1d1f; --muted: #5a5a60; --bg: #ffffff; --panel: #f5f5f7; --accent: #0b57d0; --border: #d0d0d7; --warn: #fff4e5; --error: #fde8e8; }
@media (prefers-color-scheme: dark) { :root { --fg: #ececf1; --muted: #a9a9b3; --bg: #16161a; --panel: #222228; --accent: #8ab4f8; --border: #3a3a44; --warn: #3a2f1a; --error: #3d1f1f; } }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
.skip { position: absolute; left: -999px; } .skip:focus { left: 1rem; top: .5rem; background: var(--bg); padding: .3rem .6rem; z-index: 1; }
.top { display: flex; align-items: baseline; justify-content: space-between; gap: 1rem; padding: .8rem 1.5rem; border-bottom: 1px solid var(--border); }
.top h1 { font-size: 1.2rem; margin: 0; }
.account { font-size: .9rem; color: var(--muted); display: flex; gap: .6rem; align-items: baseline; }
.account form { display: inline; margin: 0; }
main { max-width: 64rem; margin: 0 auto; padding: 1rem 1.5rem 3rem; }
form[role=search] { display: flex; flex-wrap: wrap; gap: .8rem; align-items: flex-end; }
.field { display: flex; flex-direction: column; gap: .2rem; } .field.grow { flex: 1 1 22rem; }
label { font-size: .85rem; font-weight: 600; }
input[type=search], select { font: inherit; padding: .45rem .6rem; border: 1px solid var(--border); border-radius: 6px; background: var(--bg); color: var(--fg); }
button { font: inherit; padding: .45rem 1.1rem; border: 0; border-radius: 6px; background: var(--accent); color: var(--bg); cursor: pointer; }
.linkish { background: none; color: var(--accent); padding: 0; text-decoration: underline; }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.hint { color: var(--muted); font-size: .85rem; margin: .4rem 0 0; }
kbd { border: 1px solid var(--border); border-radius: 4px; padding: 0 .3rem; font-size: .8rem; }
.status { min-height: 1.5rem; color: var(--muted); }
.status.error { background: var(--error); color: var(--fg); padding: .5rem .8rem; border-radius: 6px; }
.notice { background: var(--warn); padding: .5rem .8rem; border-radius: 6px; margin: 0 0 1rem; }
.results { list-style: none; padding: 0; margin: 0; }
.result { border: 1px solid var(--border); border-radius: 8px; margin: 0 0 1rem; overflow: hidden; }
.result h2 { font-size: .95rem; margin: 0; padding: .5rem .8rem; background: var(--panel); font-family: ui-monospace, SFMono-Regular, Menlo, monospace; overflow-wrap: anywhere; }
.result h2 a { color: var(--accent); }
.result .meta { margin: 0; padding: .2rem .8rem; font-size: .85rem; color: var(--muted); }
.result pre { margin: 0; padding: .6rem .8rem; overflow-x: auto; font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, monospace; border-top: 1px solid var(--border); }
.result .ln { color: var(--muted); user-select: none; display: inline-block; min-width: 3.5em; }
.truncated { font-size: .8rem; color: var(--muted); padding: 0 .8rem .5rem; margin: 0; }
`;
