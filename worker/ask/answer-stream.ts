/**
 * @module worker/ask/answer-stream
 *
 * Streams the `answer` field out of the model's JSON as it arrives: `AnswerFieldStream.push`
 * takes raw JSON text deltas and returns the newly decoded characters of the top-level
 * `"answer"` string (escapes decoded), so a client sees the draft answer grow instead of JSON.
 * A small state machine over JSON tokens (strings, nesting, keys at depth 1); it never parses
 * numbers or validates: validation happens on the whole text afterwards. Pure.
 */

const ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f", '"': '"', "\\": "\\", "/": "/" };

/** Incremental extractor of the top-level `answer` string of a JSON object. */
export class AnswerFieldStream {
  #depth = 0;
  #inString = false;
  #escape = false;
  #unicode: string | null = null;
  #isKey = false;
  #key = "";
  #lastKey = "";
  #expectValue = false;
  #capturing = false;

  /** Feeds `chunk`; returns the answer characters it completed (possibly ""). */
  push(chunk: string): string {
    let out = "";
    for (const c of chunk) {
      if (this.#inString) {
        if (this.#unicode !== null) {
          this.#unicode += c;
          if (this.#unicode.length === 4) {
            const ch = String.fromCharCode(parseInt(this.#unicode, 16) || 0);
            if (this.#capturing) out += ch;
            if (this.#isKey) this.#key += ch;
            this.#unicode = null;
          }
        } else if (this.#escape) {
          this.#escape = false;
          if (c === "u") this.#unicode = "";
          else {
            const ch = ESCAPES[c] ?? c;
            if (this.#capturing) out += ch;
            if (this.#isKey) this.#key += ch;
          }
        } else if (c === "\\") this.#escape = true;
        else if (c === '"') {
          this.#inString = false;
          if (this.#isKey) this.#lastKey = this.#key;
          this.#isKey = false;
          this.#capturing = false;
        } else {
          if (this.#capturing) out += c;
          if (this.#isKey) this.#key += c;
        }
        continue;
      }
      if (c === '"') {
        this.#inString = true;
        if (this.#depth === 1 && !this.#expectValue) {
          this.#isKey = true;
          this.#key = "";
        } else if (this.#depth === 1 && this.#expectValue) {
          this.#capturing = this.#lastKey === "answer";
          this.#expectValue = false;
        }
      } else if (c === ":" && this.#depth === 1) this.#expectValue = true;
      else if (c === "," && this.#depth === 1) this.#expectValue = false;
      else if (c === "{" || c === "[") {
        if (this.#depth === 1) this.#expectValue = false;
        this.#depth++;
      } else if (c === "}" || c === "]") this.#depth--;
    }
    return out;
  }
}
