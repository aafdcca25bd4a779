/** A read-only value with a copy button, for URLs and secrets the user pastes into a code host. */
import { el } from "./dom";

/** A labelled read-only text field holding `value`, with a Copy button (labelled for screen readers); `id` must be unique on the page. */
export function copyable(id: string, label: string, value: string): HTMLElement {
  const input = el("input", { id, type: "text", readonly: true, value, spellcheck: "false", autocomplete: "off" });
  const button = el("button", { type: "button", className: "secondary", text: "Copy", "aria-label": `Copy ${label}` });
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(value);
      button.textContent = "Copied";
    } catch {
      input.select(); // the browser refused the clipboard: the value is selected for Ctrl-C
      button.textContent = "Select and copy";
    }
    setTimeout(() => (button.textContent = "Copy"), 1500);
  });
  return el("div", { className: "field" }, [el("label", { for: id, text: label }), el("div", { className: "copy-row" }, [input, button])]);
}
