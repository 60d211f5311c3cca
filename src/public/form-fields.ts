/**
 * The page's form fields and the answers they carry. Each component's fields are named
 * `c.<componentId>` (and `c.<componentId>.<part>` for parts); its module turns them into an answer in
 * the JSON API's answer shape, so the page and the API share every rule.
 */
import type { StoredResponse } from '../components/answers.ts';
import { answerRulesOf } from '../components/catalogue.ts';
import type { PostedFields } from '../components/fields.ts';
import type { StoredComponent, StoredStep } from '../db/json-columns.ts';

export { fieldName, PostedFields, type FieldProblem, type FormBody } from '../components/fields.ts';

/** The component of `step` a posted field name (`c.<componentId>[.<part>]`) belongs to. */
export function componentOfField(step: StoredStep, name: string): StoredComponent | undefined {
  const id = /^c\.([^.]+)(?:\.|$)/.exec(name)?.[1];
  return id === undefined ? undefined : step.components.find((component) => component.id === id);
}

/**
 * The answer a step's form fields give a component, in the API's answer shape; `undefined` when the
 * component takes no answer, or keeps its stored one (an empty password field on a revisited step).
 */
export function answerFromFields(component: StoredComponent, fields: PostedFields, stored: StoredResponse | undefined): unknown {
  return answerRulesOf(component.type)?.fromFields(component, fields, stored);
}
