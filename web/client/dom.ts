/**
 * Small DOM helpers. Text from the server or a repository only ever goes in through
 * `textContent` (the `text` prop), never as HTML.
 */

type Child = Node | string | null | undefined | false;

/** Props of `el`: `text` sets textContent, `className` the class, `on*` functions listen, the rest are attributes. */
export type Props = Record<string, string | number | boolean | undefined | ((e: Event) => void)>;

/** Creates an element with props and children (strings become text nodes; falsy children are skipped). */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, children: Child[] = []): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined || v === false) continue;
    if (k === "text") node.textContent = String(v);
    else if (k === "className") node.className = String(v);
    else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) if (c) node.append(c);
  return node;
}

/** The element with `id`, typed; throws when the page lacks it (a page/script mismatch). */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (!node) throw new Error(`page has no #${id}`);
  return node as T;
}

/** True when a key event comes from a text field (so single-key shortcuts must not fire). */
export function isTyping(event: KeyboardEvent): boolean {
  const t = event.target as HTMLElement | null;
  return !!t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA" || t.isContentEditable);
}

/** "3 minutes ago" for a time in ms since epoch. */
export function age(thenMs: number, nowMs = Date.now()): string {
  const s = Math.max(0, Math.round((nowMs - thenMs) / 1000));
  const fmt = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
  if (s < 60) return fmt.format(-s, "second");
  if (s < 3600) return fmt.format(-Math.round(s / 60), "minute");
  if (s < 86400) return fmt.format(-Math.round(s / 3600), "hour");
  return fmt.format(-Math.round(s / 86400), "day");
}

/** Longest wait for a frame in afterNextPaint (a hidden tab draws no frames). */
const PAINT_WAIT_MAX_MS = 100;

/**
 * Resolves after the browser has drawn the next frame: a task queued from requestAnimationFrame
 * runs once that frame's paint is done. So work queued behind it (more results, colours) does
 * not hold back what is already in the DOM. In a hidden tab, after PAINT_WAIT_MAX_MS.
 */
export function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, PAINT_WAIT_MAX_MS);
    requestAnimationFrame(() =>
      setTimeout(() => {
        clearTimeout(timer);
        resolve();
      }, 0),
    );
  });
}

/** How long one slice of background work may run (ms) when the browser gives no idle deadline. */
const IDLE_SLICE_MS = 8;
/** Longest wait for an idle period (ms); after it the slice runs anyway, so work never starves. */
const IDLE_WAIT_MAX_MS = 200;

/**
 * Resolves in the browser's next idle period (requestIdleCallback, or a timer where there is
 * none) with the time left in it (ms), so background work runs in slices between frames and input.
 */
export function nextIdleSlice(): Promise<() => number> {
  return new Promise((resolve) => {
    if (typeof requestIdleCallback === "function") {
      requestIdleCallback(
        (deadline) => {
          // Run after the wait ran out: no idle deadline, so a slice of its own length.
          const end = performance.now() + IDLE_SLICE_MS;
          resolve(deadline.didTimeout ? () => end - performance.now() : () => deadline.timeRemaining());
        },
        { timeout: IDLE_WAIT_MAX_MS },
      );
    } else {
      setTimeout(() => {
        const end = performance.now() + IDLE_SLICE_MS;
        resolve(() => end - performance.now());
      }, 0);
    }
  });
}
