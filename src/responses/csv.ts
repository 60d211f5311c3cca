/**
 * RFC 4180 records as the exports write them: fields joined by `,`, each record ended by CRLF, and a
 * field quoted (its quotes doubled) when it holds a comma, a quote or any line break (a lone CR or LF
 * too, so a spreadsheet never splits a record). Empty fields are written bare.
 *
 * These lines replace csv-stringify on the export's hot path: with it, the stringifier's per-field
 * option handling was a quarter of the export's CPU (bench, 1M, CSV at 20,108 responses/s). It stays the
 * oracle: test/responses/csv.test.ts holds these functions to csv-stringify's output, with
 * `record_delimiter: 'windows'` and `quoted_match: /[\r\n]/`, for arbitrary text.
 */

const NEEDS_QUOTES = /[",\r\n]/;

/** One field: bare, or quoted with its quotes doubled. */
export const csvField = (value: string): string => (NEEDS_QUOTES.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

/** One record, CRLF included. */
export const csvRecord = (fields: readonly string[]): string => {
  let record = '';
  for (let i = 0; i < fields.length; i++) record += (i === 0 ? '' : ',') + csvField(fields[i]!);
  return `${record}\r\n`;
};

/**
 * A formula trigger (`=`, `+`, `-`, `@` or their fullwidth forms, which spreadsheets in East Asian locales
 * read as the same), after any run of characters a spreadsheet skips or a reader does not see: spaces, line
 * breaks, tabs, the no-break and ideographic spaces, zero-width characters and the byte-order mark. A cell
 * beginning with a tab, CR or LF is neutralised whatever follows. Anchored with disjoint classes: linear.
 */
const FORMULA_START = /^[\t\n\r \u00a0\u1680\u2000-\u200d\u2028\u2029\u202f\u205f\u2060\u3000\ufeff]*[=+\-@\uff1d\uff0b\uff0d\uff20]|^[\t\r\n]/u;

/** A cell a spreadsheet shows as text: formula-looking values get a leading `'` (OWASP CSV injection). */
export function neutralizeCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}
