/**
 * The search page's two modes, "Search" and "Ask a question", as ARIA tabs at the top of
 * the page (issue 51: the ask panel used to be a collapsed section below all the results). A
 * click or the arrow keys switch; the open tab is kept in the URL (`tab=ask`), so a shared link
 * opens the same mode; the repository chosen in one mode is carried to the other.
 */
import { byId } from "./dom";

/** The tab names, as in `?tab=`. */
export type TabName = "search" | "ask";

/** Wires the tabs; `onOpen` runs after a switch with the tab now open. */
export function initTabs(onOpen: (tab: TabName) => void): void {
  const tabs: Record<TabName, HTMLButtonElement> = { search: byId<HTMLButtonElement>("tab-search"), ask: byId<HTMLButtonElement>("tab-ask") };
  const panels: Record<TabName, HTMLElement> = { search: byId("search-panel"), ask: byId("ask-panel") };
  const repos = [byId<HTMLSelectElement>("repo"), byId<HTMLSelectElement>("ask-repo")];
  const open = (name: TabName, focus: boolean) => {
    const from = name === "ask" ? repos[0] : repos[1];
    const to = name === "ask" ? repos[1] : repos[0];
    if ([...to.options].some((o) => o.value === from.value)) to.value = from.value;
    for (const t of ["search", "ask"] as const) {
      const on = t === name;
      tabs[t].setAttribute("aria-selected", String(on));
      tabs[t].tabIndex = on ? 0 : -1;
      panels[t].hidden = !on;
    }
    const url = new URL(location.href);
    if (name === "ask") url.searchParams.set("tab", "ask");
    else url.searchParams.delete("tab");
    history.replaceState(null, "", url.pathname + url.search);
    if (focus) tabs[name].focus();
    onOpen(name);
  };
  for (const t of ["search", "ask"] as const) {
    tabs[t].addEventListener("click", () => open(t, false));
    tabs[t].addEventListener("keydown", (e) => {
      if (e.key !== "ArrowLeft" && e.key !== "ArrowRight" && e.key !== "Home" && e.key !== "End") return;
      e.preventDefault();
      open(e.key === "Home" ? "search" : e.key === "End" ? "ask" : t === "search" ? "ask" : "search", true);
    });
  }
}
