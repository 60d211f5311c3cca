/**
 * PostgreSQL's text of a jsonb value (`column::text`, jsonb_out) rewritten as JSON.stringify writes
 * the parsed value, without parsing it: jsonb_out writes the same tokens with a blank after each `,`
 * and `:`, escapes strings as JSON.stringify does (`\"`, `\\`, `\b\f\n\r\t`, other control characters
 * as lowercase `\u00xx`, nothing else), and keeps object keys in their stored order. It can differ in
 * two ways, and then this answers undefined so the caller parses and stringifies instead:
 * - a number JavaScript writes otherwise (`1.50`, `1000000000000000000000`, more digits than a double
 *   holds): jsonb keeps the decimal as given;
 * - an object key starting with a digit: JavaScript puts array-index keys ("0", "42") first.
 *
 * For the streamed listing and exports (rest/stream.ts), where parsing and re-writing every answer
 * was most of the time; test/jsonb-text.test.ts compares it with JSON.stringify(JSON.parse(text)).
 */

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const COLON = 58;
const SPACE = 32;
const MINUS = 45;
const ZERO = 48;
const NINE = 57;

/** Characters that continue a number token: digits, `.`, `e`, `E`, `+`, `-`. */
const inNumber = (c: number) => (c >= ZERO && c <= NINE) || c === 46 || c === 101 || c === 69 || c === 43 || c === MINUS;

/** Whether the quote at `at` is escaped: an odd number of backslashes before it. */
function isEscaped(text: string, at: number): boolean {
  let backslashes = 0;
  while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
  return backslashes % 2 === 1;
}

export function compactJsonbText(text: string): string | undefined {
  let out = '';
  let from = 0;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // To the closing quote with indexOf (strings are most of the text): the first quote not escaped.
      let end = text.indexOf('"', i + 1);
      while (end !== -1 && isEscaped(text, end)) end = text.indexOf('"', end + 1);
      if (end === -1) return undefined;
      if (text.charCodeAt(end + 1) === COLON) {
        const first = text.charCodeAt(i + 1);
        if (first >= ZERO && first <= NINE) return undefined;
      }
      i = end + 1;
    } else if (c === COMMA || c === COLON) {
      if (text.charCodeAt(i + 1) === SPACE) {
        out += text.slice(from, i + 1);
        from = i + 2;
        i += 2;
      } else i++;
    } else if (c === MINUS || (c >= ZERO && c <= NINE)) {
      let end = i + 1;
      while (end < n && inNumber(text.charCodeAt(end))) end++;
      const token = text.slice(i, end);
      if (String(Number(token)) !== token) return undefined;
      i = end;
    } else i++;
  }
  return from === 0 ? text : out + text.slice(from);
}

/** `text` (jsonb_out) as JSON.stringify writes its value. */
export function jsonOfJsonbText(text: string): string {
  return compactJsonbText(text) ?? JSON.stringify(JSON.parse(text));
}
