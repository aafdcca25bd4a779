/**
 * @module indexer/embed/feature-table
 *
 * Feature numbers for the local hashed embedding (`local.ts`): each feature name (`w:`, `s:`,
 * `g:` of features.ts) gets a number and its hashed slot once, each term the numbers of its
 * features once, and a text's weights are summed in arrays indexed by those numbers instead of
 * a Map keyed by name. A repo's chunks share most terms, so hashing and building names is done
 * once per term rather than once per occurrence; the sums and their order are unchanged.
 */
import { ownCopy, tokenFeatureNames } from "./features";

/**
 * Feature names kept before the table starts over (about 4 MB with their numbers and slots; a
 * Worker isolate has 128 MB). Checked between texts only, so a text's numbers stay valid.
 */
const FEATURE_MAX = 60_000;
/** Terms whose feature numbers are kept before that list starts over (about 2 MB). */
const TERM_MAX = 20_000;

/** Numbers, slots and per-text sums of features, for one vector size. */
export class FeatureTable {
  readonly #slotOf: (feature: string) => number;
  #ids = new Map<string, number>();
  #terms = new Map<string, Int32Array>();
  #slots = new Int32Array(1024);
  #weights = new Float64Array(1024);
  /** `#stamp` of the text that last touched each feature: sums start afresh for each text. */
  #seen = new Int32Array(1024);
  #stamp = 0;
  /** Features the current text touched, in the order it first touched them. */
  #order: number[] = [];

  /** `slotOf(name)`: the feature's slot, `index * 2 + (1 for a negative sign)`. */
  constructor(slotOf: (feature: string) => number) {
    this.#slotOf = slotOf;
  }

  /** Starts a text: no feature has a weight yet. Starts the table over when it grew past its bound. */
  startText(): void {
    if (this.#ids.size > FEATURE_MAX) {
      this.#ids.clear();
      this.#terms.clear();
      this.#seen.fill(0);
    }
    this.#order.length = 0;
    this.#stamp = (this.#stamp + 1) | 0;
    if (this.#stamp === 0) {
      this.#seen.fill(0);
      this.#stamp = 1;
    }
  }

  /** The feature numbers of `term`: word, stem, then its trigrams (features.ts tokenFeatureNames). */
  termIds(term: string): Int32Array {
    const hit = this.#terms.get(term);
    if (hit) return hit;
    const t = ownCopy(term);
    const ids = Int32Array.from(tokenFeatureNames(t), (name) => this.#idOf(name));
    if (this.#terms.size >= TERM_MAX) this.#terms.clear();
    this.#terms.set(t, ids);
    return ids;
  }

  /** Adds `weight` to feature `id`'s sum for the current text (the first add sets it: 0 + w is w). */
  add(id: number, weight: number): void {
    if (this.#seen[id] !== this.#stamp) {
      this.#seen[id] = this.#stamp;
      this.#weights[id] = weight;
      this.#order.push(id);
    } else this.#weights[id] += weight;
  }

  /** Adds each touched feature's signed sum to its slot of `v`, in first-touched order. */
  addInto(v: Float32Array): void {
    for (const id of this.#order) {
      const slot = this.#slots[id]!;
      v[slot >> 1] += (slot & 1 ? -1 : 1) * this.#weights[id]!;
    }
  }

  #idOf(name: string): number {
    let id = this.#ids.get(name);
    if (id !== undefined) return id;
    id = this.#ids.size;
    if (id >= this.#slots.length) this.#grow(this.#slots.length * 2);
    this.#slots[id] = this.#slotOf(name);
    this.#seen[id] = 0;
    this.#ids.set(name, id);
    return id;
  }

  #grow(size: number): void {
    const grow = <T extends Int32Array | Float64Array>(a: T, make: (n: number) => T): T => {
      const b = make(size);
      b.set(a);
      return b;
    };
    this.#slots = grow(this.#slots, (n) => new Int32Array(n));
    this.#weights = grow(this.#weights, (n) => new Float64Array(n));
    this.#seen = grow(this.#seen, (n) => new Int32Array(n));
  }
}
