/**
 * Bytes -> text for indexing. Pure.
 *
 * Order: a byte-order mark decides (UTF-8, UTF-16LE, UTF-16BE; UTF-32 has no decoder in the
 * WHATWG Encoding Standard and is `unsupported_encoding`); then NUL or control bytes in the
 * head mean `binary` (as git's `buffer_is_binary`); then strict UTF-8; then UTF-8 with a few
 * stray bytes (UTF8_MAX_STRAY_SEQUENCES, each becomes U+FFFD) when the file also holds valid
 * multi-byte UTF-8; then the encoding jschardet detects (Shift_JIS, EUC-JP, GBK, Big5, EUC-KR,
 * windows-125x, KOI8-R ...), decoded by the runtime's TextDecoder (workerd implements the
 * whole Encoding Standard); then windows-1252 for mostly-ASCII text whose few high bytes are
 * all defined in it (jschardet gives a short Latin-1 file too little confidence); then lossy
 * UTF-8 for ASCII with a few stray bytes. Text none of these fits is `unsupported_encoding`,
 * never `binary`.
 */
import { detect } from "jschardet";
import type { Skip } from "./skip-reason";

/** Bytes inspected for binary detection; git's `buffer_is_binary` looks at the first 8000 too. */
export const BINARY_SNIFF_BYTES = 8000;
/** Share of control bytes in the sniffed prefix that makes a file binary. */
export const BINARY_SUSPICIOUS_RATIO = 0.1;
/** Bytes jschardet reads to decide (its own default is 200,000). */
const DETECT_MAX_BYTES = 64 * 1024;
/** Below this confidence a detection is not trusted. */
const DETECT_MIN_CONFIDENCE = 0.3;
/**
 * Invalid UTF-8 sequences tolerated (each decoded as U+FFFD): a stray byte pasted into a UTF-8
 * file, at most this many and at most one per UTF8_BYTES_PER_STRAY bytes.
 */
export const UTF8_MAX_STRAY_SEQUENCES = 8;
const UTF8_BYTES_PER_STRAY = 256;
/** Most share of bytes >= 0x80 for the windows-1252 fallback: Western European prose stays under 5%, a short accented comment line near 10-20%. */
export const LATIN1_MAX_HIGH_RATIO = 0.25;
/** Bytes windows-1252 leaves undefined (the WHATWG decoder maps them to C1 controls). */
const CP1252_UNDEFINED: ReadonlySet<number> = new Set([0x81, 0x8d, 0x8f, 0x90, 0x9d]);

/**
 * jschardet's names (Python codec names) that are not WHATWG labels, mapped as jschardet's own
 * `ENCODING_WHATWG_MAP` maps them (it is not exported); other names are WHATWG labels already.
 */
const WHATWG_LABEL: Readonly<Record<string, string>> = {
  ascii: "windows-1252",
  big5hkscs: "big5",
  cp1250: "windows-1250",
  cp1251: "windows-1251",
  cp1252: "windows-1252",
  cp1253: "windows-1253",
  cp1254: "windows-1254",
  cp1255: "windows-1255",
  cp1256: "windows-1256",
  cp1257: "windows-1257",
  cp1258: "windows-1258",
  cp866: "ibm866",
  cp874: "windows-874",
  cp932: "shift_jis",
  cp949: "euc-kr",
  euc_jis_2004: "euc-jp",
  euc_kr: "euc-kr",
  iso2022_jp_2: "iso-2022-jp",
  "iso8859-1": "windows-1252",
  "iso8859-8": "iso-8859-8-i",
  "iso8859-9": "windows-1254",
  "mac-cyrillic": "x-mac-cyrillic",
  "mac-roman": "macintosh",
  shift_jis_2004: "shift_jis",
  "tis-620": "windows-874",
};

/** Decoded text and how it was decoded (`utf-8`, `utf-16le`, `shift_jis` ...). */
export interface DecodedText {
  text: string;
  encoding: string;
}

/** Control bytes other than \t \n \v \f \r and ESC (ANSI colours in logs / fixtures), in the head. */
function controlByteRatio(head: Uint8Array): number {
  if (head.length === 0) return 0;
  let suspicious = 0;
  for (const b of head) {
    if ((b < 0x20 && !(b >= 0x09 && b <= 0x0d) && b !== 0x1b) || b === 0x7f) suspicious++;
  }
  return suspicious / head.length;
}

/**
 * Counts of a non-strict UTF-8 decode: invalid sequences (U+FFFD that were not in the bytes as
 * EF BF BD) and valid multi-byte characters.
 */
function utf8Census(bytes: Uint8Array): { text: string; stray: number; multibyte: number } {
  const text = new TextDecoder("utf-8", { fatal: false, ignoreBOM: false }).decode(bytes);
  let replacements = 0;
  let nonAscii = 0;
  for (const ch of text) {
    if (ch === "\ufffd") replacements++;
    else if (ch.charCodeAt(0) > 0x7f) nonAscii++;
  }
  let literal = 0;
  for (let i = bytes.indexOf(0xef); i >= 0 && i + 2 < bytes.length; i = bytes.indexOf(0xef, i + 1)) {
    if (bytes[i + 1] === 0xbf && bytes[i + 2] === 0xbd) literal++;
  }
  const stray = replacements - literal;
  return { text, stray, multibyte: nonAscii + literal };
}

/** Whether the bytes read as windows-1252 text: few high bytes, none of them undefined there. */
function looksWindows1252(bytes: Uint8Array): boolean {
  let high = 0;
  for (const b of bytes) {
    if (b < 0x80) continue;
    if (CP1252_UNDEFINED.has(b)) return false;
    high++;
  }
  return high > 0 && high / bytes.length <= LATIN1_MAX_HIGH_RATIO;
}

function tryDecode(label: string, bytes: Uint8Array): string | null {
  try {
    // ignoreBOM: false (the default) drops a leading BOM of the decoder's own encoding.
    return new TextDecoder(label, { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return null;
  }
}

/**
 * Decodes a file's bytes, or says why it cannot be indexed as text.
 * @returns `{text, encoding}`, or a Skip: `binary` (`content:nul-byte`, `content:control-bytes`)
 *   or `unsupported_encoding` (`encoding:utf-32`, `encoding:undetected`, `encoding:<name>`).
 */
export function decodeText(bytes: Uint8Array): DecodedText | Skip {
  const [b0, b1, b2, b3] = bytes;
  if ((b0 === 0xff && b1 === 0xfe && b2 === 0 && b3 === 0) || (b0 === 0 && b1 === 0 && b2 === 0xfe && b3 === 0xff)) {
    return { reason: "unsupported_encoding", rule: "encoding:utf-32" };
  }
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) {
    const text = tryDecode("utf-8", bytes);
    return text === null ? { reason: "unsupported_encoding", rule: "encoding:utf-8-bom-invalid" } : { text, encoding: "utf-8" };
  }
  if ((b0 === 0xff && b1 === 0xfe) || (b0 === 0xfe && b1 === 0xff)) {
    const label = b0 === 0xff ? "utf-16le" : "utf-16be";
    const text = tryDecode(label, bytes);
    return text === null ? { reason: "unsupported_encoding", rule: `encoding:${label}-invalid` } : { text, encoding: label };
  }
  const head = bytes.subarray(0, BINARY_SNIFF_BYTES);
  if (head.includes(0)) return { reason: "binary", rule: "content:nul-byte" };
  if (controlByteRatio(head) > BINARY_SUSPICIOUS_RATIO) return { reason: "binary", rule: "content:control-bytes" };
  const utf8 = tryDecode("utf-8", bytes);
  if (utf8 !== null) return { text: utf8, encoding: "utf-8" };
  const census = utf8Census(bytes);
  const fewStray = census.stray <= Math.min(UTF8_MAX_STRAY_SEQUENCES, Math.max(1, Math.floor(bytes.length / UTF8_BYTES_PER_STRAY)));
  if (fewStray && census.multibyte > 0) return { text: census.text, encoding: "utf-8" };
  const guess = detect(bytes.subarray(0, DETECT_MAX_BYTES));
  if (guess.encoding && guess.confidence >= DETECT_MIN_CONFIDENCE) {
    const name = guess.encoding.toLowerCase();
    const label = WHATWG_LABEL[name] ?? name;
    const text = tryDecode(label, bytes);
    return text === null ? { reason: "unsupported_encoding", rule: `encoding:${label}` } : { text, encoding: label };
  }
  if (looksWindows1252(bytes)) return { text: new TextDecoder("windows-1252").decode(bytes), encoding: "windows-1252" };
  if (fewStray) return { text: census.text, encoding: "utf-8" };
  return { reason: "unsupported_encoding", rule: "encoding:undetected" };
}

/** Whether `decodeText` gave text. */
export function isDecoded(d: DecodedText | Skip): d is DecodedText {
  return "text" in d;
}
