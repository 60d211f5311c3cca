/**
 * Recall: placeholders in a form's texts that show the respondent's own values on a later step,
 * `{{question.<key>}}`, `{{question.<key>.<field>}}` (an IdentityInfo field), `{{hidden.<name>}}` and
 * `{{variable.<name>}}`, each with an optional fallback, `{{question.first | "there"}}`.
 *
 * This module finds them (`placeholdersOf`), checks them when a form is saved (`checkRecall`: a known
 * reference, to a question on an earlier step), and substitutes them in one text (`recall`), after the text
 * to show has been chosen (a translation, say): the caller escapes the values for where the text goes.
 * A response's values are looked up by src/responses/recall-values.ts.
 */
import { moduleOf } from '../components/catalogue.ts';
import { isObject } from '../components/content.ts';
import type { StoredComponent } from '../db/json-columns.ts';

export interface Placeholder {
  /** What it names, as the JSON API's `recall` keys it: `question.first`, `question.who.emailAddress`, `hidden.plan`, `variable.score`. */
  ref: string;
  kind: 'question' | 'hidden' | 'variable';
  name: string;
  field: string | undefined;
  fallback: string;
}

const NAME = '[A-Za-z_]\\w{0,63}';
const PLACEHOLDER = new RegExp(`\\{\\{\\s*(question|hidden|variable)\\.(${NAME})(?:\\.(${NAME}))?\\s*(?:\\|\\s*"([^"{}]{0,200})"\\s*)?\\}\\}`, 'g');

const placeholderOf = (match: readonly (string | undefined)[]): Placeholder => {
  const [, kind, name, field, fallback] = match as unknown as [string, Placeholder['kind'], string, string | undefined, string | undefined];
  return {
    ref: field === undefined ? `${kind}.${name}` : `${kind}.${name}.${field}`,
    kind,
    name,
    field,
    fallback: fallback ?? '',
  };
};

/** The placeholders of a text, and whether it holds a `{{` that is not one. */
export function placeholdersOf(text: string): { found: Placeholder[]; malformed: boolean } {
  if (!text.includes('{{')) return { found: [], malformed: false };
  const found = [...text.matchAll(PLACEHOLDER)].map(placeholderOf);
  return { found, malformed: text.replace(PLACEHOLDER, '').includes('{{') };
}

/** A placeholder's value for one response (undefined: none yet, the fallback shows). */
export type RecallLookup = (placeholder: Placeholder) => string | undefined;

/** `text` with each placeholder replaced by `escape(value)`, its fallback when there is no value. */
export function recall(text: string, lookup: RecallLookup, escape: (value: string) => string = (value) => value): string {
  if (!text.includes('{{')) return text;
  return text.replace(PLACEHOLDER, (...match: string[]) => {
    const placeholder = placeholderOf(match);
    return escape(lookup(placeholder) ?? placeholder.fallback);
  });
}

/** The values the placeholders of `texts` take: reference → value, the fallback or "" when there is none (the JSON API's `recall`). */
export function recallValues(texts: Iterable<string>, lookup: RecallLookup): Record<string, string> {
  const values: Record<string, string> = {};
  for (const text of texts) {
    for (const placeholder of placeholdersOf(text).found) if (!Object.hasOwn(values, placeholder.ref)) values[placeholder.ref] = lookup(placeholder) ?? placeholder.fallback;
  }
  return values;
}

// ---------------------------------------------------------------- checks at save

type Path = (string | number)[];
type Report = (path: Path, message: string) => void;

/** Every text of a value, with its path (content is at most a few levels deep). */
function* textsOf(value: unknown, at: Path, depth = 0): Generator<[string, Path]> {
  if (typeof value === 'string') yield [value, at];
  else if (depth < 4 && Array.isArray(value)) for (const [index, item] of value.entries()) yield* textsOf(item, [...at, index], depth + 1);
  else if (depth < 4 && isObject(value)) for (const [key, item] of Object.entries(value)) yield* textsOf(item, [...at, key], depth + 1);
}

/** Every text of a step: its name and its components' content texts (what its placeholders can be in). */
export const stepTexts = (step: { name: string; components: readonly { content: unknown }[] }): string[] =>
  [
    ...textsOf(step.name, []),
    ...textsOf(
      step.components.map((component) => component.content),
      [],
    ),
  ].map(([text]) => text);

const MALFORMED =
  'A placeholder is {{question.<key>}}, {{question.<key>.<field>}}, {{hidden.<name>}} or {{variable.<name>}}, with an optional fallback: {{question.<key> | "text"}}';

/**
 * The placeholders of every step's name and components' texts, and of the respondent's confirmation: each
 * names a question on an earlier step (a field only where its type has that field), a declared hidden field
 * or a declared variable.
 */
export function checkRecall(input: { steps?: unknown; hiddenFields?: unknown; variables?: unknown; notifications?: unknown }, report: Report): void {
  if (!Array.isArray(input.steps)) return;
  const hidden = new Set(Array.isArray(input.hiddenFields) ? input.hiddenFields.filter((name) => typeof name === 'string') : []);
  const variables = new Set(Array.isArray(input.variables) ? input.variables.flatMap((v: unknown) => (isObject(v) && typeof v.name === 'string' ? [v.name] : [])) : []);
  const questions = new Map<string, { component: StoredComponent; step: number }>();
  input.steps.forEach((step: unknown, index) => {
    const components = isObject(step) && Array.isArray(step.components) ? (step.components as unknown[]) : [];
    for (const component of components)
      if (isObject(component) && typeof component.key === 'string' && !questions.has(component.key))
        questions.set(component.key, { component: component as unknown as StoredComponent, step: index });
  });
  const problemOf = (placeholder: Placeholder, step: number): string | undefined => {
    const { kind, name, field } = placeholder;
    if (kind !== 'question') {
      if (field !== undefined) return `A ${kind === 'hidden' ? 'hidden field' : 'variable'} has no fields: write {{${kind}.${name}}}`;
      if (!(kind === 'hidden' ? hidden : variables).has(name)) return `"${name}" is not a declared ${kind === 'hidden' ? 'hidden field (hiddenFields)' : 'variable (variables)'}`;
      return undefined;
    }
    const found = questions.get(name);
    if (!found) return `No component has the key "${name}"`;
    if (found.step >= step) return `"${name}" is on ${found.step === step ? 'this' : 'a later'} step: it can't be answered yet; recall a question of an earlier step`;
    const subject = moduleOf(found.component.type)?.conditions?.subject(found.component, field);
    if (!subject) return `A ${found.component.type} takes no answer to recall`;
    return typeof subject === 'string' ? subject : undefined;
  };
  const check = (texts: Iterable<[string, Path]>, index: number) => {
    for (const [text, at] of texts) {
      const { found, malformed } = placeholdersOf(text);
      if (malformed) report(at, MALFORMED);
      for (const placeholder of found) {
        const problem = problemOf(placeholder, index);
        if (problem) report(at, `{{${placeholder.ref}}}: ${problem}`);
      }
    }
  };
  input.steps.forEach((step: unknown, index) => {
    if (isObject(step)) check([...textsOf(step.name, ['steps', index, 'name']), ...textsOf(step.components, ['steps', index, 'components'])], index);
  });
  // A confirmation is sent once the response has ended: it may recall any question.
  const respondent = isObject(input.notifications) ? input.notifications.respondent : undefined;
  if (isObject(respondent)) check(textsOf({ subject: respondent.subject, body: respondent.body }, ['notifications', 'respondent']), input.steps.length);
}
