/**
 * PostgreSQL's text of a jsonb value (`column::text`, jsonb_out) rewritten as JSON.stringify writes
 * the parsed value, without parsing it: jsonb_out writes the same tokens with a blank after each `,`
 * and `:`, escapes strings as JSON.stringify does (`\"`, `\\`, `\b\f\n\r\t`, other control characters
 * as lowercase `\u00xx`, nothing else), and keeps object keys in their stored order. It can differ in
 * two ways, and then the compact form is refused so the caller parses and stringifies instead:
 * - a number JavaScript writes otherwise (`1.50`, `1000000000000000000000`, more digits than a double
 *   holds): jsonb keeps the decimal as given;
 * - an object key starting with a digit: JavaScript puts array-index keys ("0", "42") first.
 *
 * The text is compacted as UTF-8 bytes in place, in the buffer it is written to (`writeCompactJsonbText`):
 * the streamed listing and exports (responses/stream.ts) write every answer this way straight into the
 * chunk they send, where building the compact text as a string (a slice and a concatenation per blank)
 * and encoding it again made most of the stream's garbage. UTF-8 is safe to scan byte by byte here:
 * every byte of a multi-byte character is ≥ 0x80, so none is mistaken for a quote, backslash or blank.
 * test/db/jsonb-text.test.ts compares both entry points with JSON.stringify(JSON.parse(text)).
 *
 * A response's answers are stored as `json` (db/schema.ts): the text JSON.stringify wrote, which is
 * already what the compaction makes. Such text is told from jsonb_out's by its first separator
 * (`isJsonStringifyText`) and passes through as it is; rows stored before the answers were `json`
 * hold jsonb_out's text and are compacted.
 */

/** Bytes of JSON text (also what a CSV field of it is checked for: responses/stream.ts). */
export const QUOTE = 34;
export const COMMA = 44;
export const MINUS = 45;
const BACKSLASH = 92;
const COLON = 58;
const SPACE = 32;
const ZERO = 48;
const ONE = 49;
const NINE = 57;

/** Characters that continue a number token: digits, `.`, `e`, `E`, `+`, `-`. */
const inNumber = (c: number) => (c >= ZERO && c <= NINE) || c === 46 || c === 101 || c === 69 || c === 43 || c === MINUS;

/**
 * Whether `text`, which is either jsonb_out's or JSON.stringify's, is JSON.stringify's: jsonb_out writes a
 * blank after every `,` and `:` between tokens, JSON.stringify none, so the first such separator decides.
 * A text of one token (`[]`, a number) has none and is not taken for JSON.stringify's: it goes through
 * the compaction, which checks its numbers. For answers, the separator follows the first key.
 */
export function isJsonStringifyText(text: string): boolean {
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // A string, skipped to its closing quote: the first quote not escaped by a backslash.
      for (i++; i < length; i++) {
        const s = text.charCodeAt(i);
        if (s === BACKSLASH) i++;
        else if (s === QUOTE) break;
      }
    } else if (c === COMMA || c === COLON) {
      return text.charCodeAt(i + 1) !== SPACE;
    }
  }
  return false;
}

/**
 * Writes `text` (jsonb_out or JSON.stringify's) into `out` at `at` as JSON.stringify writes its value, as UTF-8, and answers
 * where it ends; or -1 when only parsing and stringifying writes it right (the bytes from `at` are then
 * garbage). `out` must have room for the text's UTF-8 (3 bytes a UTF-16 unit at most) from `at`.
 *
 * `doubleQuotes` writes every `"` twice, as a quoted CSV field holds it: the text is then first written
 * `text.length` bytes further on (room for `text.length` more from `at`), so that the output, which grows
 * by at most one byte a quote and a text has fewer quotes than units, never overtakes what is still to read.
 */
export function writeCompactJsonbText(text: string, out: Buffer, at: number, doubleQuotes = false): number {
  const compact = isJsonStringifyText(text);
  if (compact && !doubleQuotes) return at + out.write(text, at);
  const from = doubleQuotes ? at + text.length : at;
  const end = from + out.write(text, from);
  let src = from;
  let dst = at;
  if (compact) {
    // JSON.stringify's text for a CSV field: only its quotes to double.
    while (src < end) {
      const c = out[src++]!;
      out[dst++] = c;
      if (c === QUOTE) out[dst++] = c;
    }
    return dst;
  }
  while (src < end) {
    const c = out[src]!;
    if (c === QUOTE) {
      // A string, copied to its closing quote: the first quote not escaped by a backslash.
      const firstChar = out[src + 1]!;
      out[dst++] = c;
      if (doubleQuotes) out[dst++] = c;
      src++;
      for (;;) {
        const s = out[src++]!;
        out[dst++] = s;
        if (s === QUOTE) {
          if (doubleQuotes) out[dst++] = s;
          break;
        }
        if (s === BACKSLASH) {
          const escaped = out[src++]!;
          out[dst++] = escaped;
          if (doubleQuotes && escaped === QUOTE) out[dst++] = escaped;
        }
        if (src >= end) return -1;
      }
      // An object key (a colon follows) that starts with a digit: JavaScript orders such keys first.
      if (out[src] === COLON && firstChar >= ZERO && firstChar <= NINE) return -1;
    } else if (c === COMMA || c === COLON) {
      out[dst++] = c;
      src += out[src + 1] === SPACE ? 2 : 1;
    } else if (c === MINUS || (c >= ZERO && c <= NINE)) {
      const start = src;
      let next = src + 1;
      while (next < end && inNumber(out[next]!)) next++;
      if (!isNumberAsJavaScriptWritesIt(out, start, next)) return -1;
      out.copyWithin(dst, start, next);
      dst += next - start;
      src = next;
    } else {
      out[dst++] = c;
      src++;
    }
  }
  return dst;
}

/** Whether the number token out[start, end) is what String(Number(token)) writes. */
function isNumberAsJavaScriptWritesIt(out: Buffer, start: number, end: number): boolean {
  // Most numbers in answers are small integers: `0`, or no leading zero and at most 15 digits.
  const digitsFrom = out[start] === MINUS ? start + 1 : start;
  const digits = end - digitsFrom;
  if (digits === 1 && out[digitsFrom] === ZERO) return digitsFrom === start; // `-0` is written `0`
  let integer = digits >= 1 && digits <= 15 && out[digitsFrom]! >= ONE;
  for (let i = digitsFrom; integer && i < end; i++) integer = out[i]! >= ZERO && out[i]! <= NINE;
  if (integer) return true;
  const token = out.toString('latin1', start, end);
  return String(Number(token)) === token;
}

/** Room for compacting a text in `compactJsonbText`, grown as texts need. */
let scratch = Buffer.allocUnsafeSlow(16 * 1024);

/** `text` (jsonb_out or JSON.stringify's) as JSON.stringify writes its value, or undefined where only parsing writes it right. */
export function compactJsonbText(text: string): string | undefined {
  if (isJsonStringifyText(text)) return text;
  if (scratch.length < text.length * 3) scratch = Buffer.allocUnsafeSlow(text.length * 3);
  const end = writeCompactJsonbText(text, scratch, 0);
  return end === -1 ? undefined : scratch.toString('utf8', 0, end);
}

/** What the compaction refuses is written the slow way: parsed and stringified. */
export const reparsedJsonbText = (text: string): string => JSON.stringify(JSON.parse(text));

/** `text` (jsonb_out or JSON.stringify's) as JSON.stringify writes its value. */
export function jsonOfJsonbText(text: string): string {
  return compactJsonbText(text) ?? reparsedJsonbText(text);
}
