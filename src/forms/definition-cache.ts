/**
 * A stored form's steps, parsed once per form version. The public pages and the JSON API read their form
 * on every request; parsing its steps' JSON there cost a large definition (20 rules on each of 10 steps,
 * 47 KB) most of a submission's extra CPU. Those reads take the steps as text, and the text is parsed
 * only when it is not the text last parsed for that version of the form: a version's definition never
 * changes, and the comparison keeps any other write correct too. The same parsed steps are shared by
 * every request of the version (frozen: nothing may change them), so what is kept per steps array
 * (the compiled rules: src/responses/path.ts) is found at once.
 */
import { sql } from 'drizzle-orm';
import type { StoredStep } from '../db/json-columns.ts';
import { forms } from '../db/schema.ts';

/** Versions kept, the most recently used (a few hundred live forms per process). */
const MAX_VERSIONS = 256;
const parsed = new Map<string, { text: string; steps: StoredStep[] }>();

/** A form's steps column as text, for `stepsOf`. */
export const stepsText = sql<string>`${forms.steps}::text`;

/** The steps of version `version` of form `formId`, stored as `text`: parsed once while the version is kept. */
export function stepsOf(formId: string, version: number, text: string): StoredStep[] {
  const key = `${formId}@${version}`;
  const kept = parsed.get(key);
  parsed.delete(key);
  const entry = kept?.text === text ? kept : { text, steps: deepFreeze(JSON.parse(text) as StoredStep[]) };
  parsed.set(key, entry);
  if (parsed.size > MAX_VERSIONS) parsed.delete(parsed.keys().next().value!);
  return entry.steps;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
