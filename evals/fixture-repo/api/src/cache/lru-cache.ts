interface Entry<V> {
  value: V;
  expiresAtMs: number;
}

/**
 * A small least-recently-used cache with a time to live. A Map keeps insertion order, so the
 * first key is always the least recently used one: `get` re-inserts a key to mark it as used.
 */
export class LruCache<V> {
  private readonly entries = new Map<string, Entry<V>>();

  constructor(
    private readonly maxEntries: number,
    private readonly ttlMs: number,
  ) {}

  get(key: string, nowMs: number): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAtMs <= nowMs) {
      this.entries.delete(key);
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V, nowMs: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAtMs: nowMs + this.ttlMs });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  /** Drops a key, e.g. after the underlying row changed. */
  invalidate(key: string): void {
    this.entries.delete(key);
  }
}
