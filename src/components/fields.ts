import type { StoredComponent } from '../db/json-columns.ts';
/**
 * The public page's form fields. Each component's fields are named `c.<componentId>` (and
 * `c.<componentId>.<part>` for parts: IdentityInfo keys, the dial-code country, "Other" text,
 * password confirmation, booking details). A module turns its fields into an answer in the JSON
 * API's answer shape, so the page and the API share every rule.
 */

export const fieldName = (component: StoredComponent, part?: string) => (part ? `c.${component.id}.${part}` : `c.${component.id}`);

/** A posted form: text fields only, each name with its values in the order sent. */
export type FormBody = Map<string, string[]>;

/** Something wrong with the posted fields themselves (not with the answer they carry). */
export interface FieldProblem {
  /** The field's name as posted. */
  name: string;
  message: string;
}

/** Reads a step's fields; a single-valued field sent more than once is a problem, not a guess. */
export class PostedFields {
  readonly problems: FieldProblem[] = [];
  constructor(private readonly body: FormBody) {}

  all(name: string): string[] {
    return this.body.get(name) ?? [];
  }

  one(name: string): string {
    const values = this.all(name);
    if (values.length > 1) this.problems.push({ name, message: 'This field was sent more than once' });
    return values[0] ?? '';
  }
}
