/**
 * JSON text a field's value already is (answers and metadata as PostgreSQL keeps them), written into a
 * /graphql answer as it is instead of being parsed into objects and written again by JSON.stringify:
 * for a page of responses that parse and stringify, and their garbage, were a fifth of the request.
 *
 * A JSON scalar field resolves to `new RawJson(text)` when the context allows it (`rawJson`, set for
 * /graphql requests only: in-process operations read their results as objects). yoga writes a result
 * with the result's own `stringify` when it has one; /graphql's execution sets it to `stringifyResult`,
 * whose JSON.stringify writes each RawJson as a placeholder string that is then replaced by its text.
 * A placeholder starts with U+0000, which no stored string can hold (PostgreSQL refuses it in text and
 * jsonb), and a per-process random tag. Any other writer of the result (an SSE event, a result whose
 * `stringify` a plugin dropped) gets the parsed value from `toJSON`: the same JSON, only slower.
 */
import { randomBytes } from 'node:crypto';
import type { Plugin } from 'graphql-yoga';

const TAG = `\u0000raw-json:${randomBytes(9).toString('base64url')}:`;
/** A placeholder as JSON.stringify writes it: `"\u0000raw-json:<tag>:<n>"`. */
const PLACEHOLDER = new RegExp(`"${JSON.stringify(TAG).slice(1, -1).replace(/\\/g, '\\\\')}(\\d+)"`, 'g');

/** The texts of the RawJson values met by the JSON.stringify in progress (stringifyResult's), in order. */
let collecting: string[] | undefined;

export class RawJson {
  /** `text` must be one JSON value, written as JSON.stringify would write it. */
  constructor(readonly text: string) {}

  toJSON(): unknown {
    if (!collecting) return JSON.parse(this.text);
    collecting.push(this.text);
    return `${TAG}${collecting.length - 1}`;
  }
}

/** JSON.stringify(result), with each RawJson's text written in its place. */
export function stringifyResult(result: unknown): string {
  const texts: string[] = [];
  collecting = texts;
  let json: string;
  try {
    json = JSON.stringify(result);
  } finally {
    collecting = undefined;
  }
  return texts.length === 0 ? json : json.replace(PLACEHOLDER, (_, index: string) => texts[Number(index)]!);
}

/** /graphql's results are written by `stringifyResult` (yoga uses a result's own `stringify`). */
export function rawJsonResultsPlugin(): Plugin {
  return {
    onExecute: () => ({
      onExecuteDone({ result }) {
        // A subscription's or a deferred result's stream is written event by event, by yoga.
        if (!(Symbol.asyncIterator in result)) (result as { stringify?: (value: unknown) => string }).stringify = stringifyResult;
      },
    }),
  };
}
