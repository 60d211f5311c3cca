/**
 * The stored response of an answer: `type`, `componentShapeVersion`, `headline` and the type's
 * fields (docs/components.md, "Answers"). Each type's answer shape and rules live in its component
 * module (src/components/); this file runs them through the catalogue and reads stored answers back.
 * Types without answer rules (a heading, the buttons, the captchas) take no answer and record nothing.
 */
import type { StoredResponse } from '../components/answers.ts';
import { Problems } from '../components/answers.ts';
import { answerRulesOf, moduleOf } from '../components/catalogue.ts';
import { DEFAULT_EMAIL_RANK } from '../components/module.ts';
import { hashPassword, sealResponse } from '../components/passwords.ts';
import { isEmail } from '../components/answers.ts';
import { COMPONENT_SHAPE_VERSION } from './model.ts';
import type { FieldError } from '../errors.ts';
import type { StoredComponent, ResponseAnswer } from '../db/json-columns.ts';

export { ANSWER_LIMITS, isEmail, isPersonalEmail, type StoredResponse } from '../components/answers.ts';
export { isAnswerable } from '../components/catalogue.ts';
export { hashPassword, holdsPassword, sealResponse, verifyPassword } from '../components/passwords.ts';

/** Answer of a component: a stored response, `null` for "no answer", or the problems found. */
export type AnswerResult = { ok: true; response: StoredResponse | null } | { ok: false; errors: FieldError[] };

/** Whether the component must be answered before a response can finish. */
export function isRequired(component: StoredComponent): boolean {
  const rules = answerRulesOf(component.type);
  if (!rules) return false;
  return rules.isRequired ? rules.isRequired(component) : component.content.required === true;
}

/** The question text a response carries as `headline`. */
export function headlineOf(component: StoredComponent): string {
  const headline = moduleOf(component.type)?.headline;
  if (headline) return headline(component);
  return typeof component.content.question === 'string' ? component.content.question : '';
}

/**
 * Validates `raw` against `component` and builds its stored response, with any password still in
 * clear (`sealResponse` hashes it). Errors carry paths relative to the answer (`[]` for the whole
 * answer, `["emailAddress"]` for one field of an answer with several).
 */
export function validateAnswer(component: StoredComponent, raw: unknown): AnswerResult {
  const { type } = component;
  const rules = answerRulesOf(type);
  if (!rules) return { ok: false, errors: [{ message: `A ${type} component takes no answer`, path: [] }] };
  const problems = new Problems();
  const fields = rules.parse(component, raw, problems, isRequired(component));
  if (problems.any) return { ok: false, errors: problems.list };
  if (fields === null) return { ok: true, response: null };
  const response: StoredResponse = { type, componentShapeVersion: COMPONENT_SHAPE_VERSION, headline: headlineOf(component), ...fields };
  const leadAttribute = component.content.leadAttribute;
  if (typeof leadAttribute === 'string' && leadAttribute !== '') response.leadAttribute = leadAttribute;
  return { ok: true, response };
}

/** Validates and builds the stored response of one answer. */
export async function buildResponse(component: StoredComponent, raw: unknown): Promise<AnswerResult> {
  const result = validateAnswer(component, raw);
  return result.ok && result.response ? { ok: true, response: await sealResponse(result.response, hashPassword) } : result;
}

// ---------------------------------------------------------------- reading stored answers back

/**
 * The e-mail a response collected, lower-cased: the first valid address of the lowest rank its answers'
 * modules give (`emails`; by default an answer's `emailAddress`), answers in their order within a rank.
 */
export function emailOf(data: readonly ResponseAnswer[]): string | undefined {
  const candidates = data
    .flatMap(({ response }) => moduleOf(response.type)?.emails?.(response) ?? [{ rank: DEFAULT_EMAIL_RANK, value: response.emailAddress }])
    .sort((a, b) => a.rank - b.rank); // stable: answers keep their order within a rank
  const email = candidates.map((candidate) => candidate.value).find((value): value is string => typeof value === 'string' && isEmail(value));
  return email?.toLowerCase();
}

/** A display name collected so far (for scheduler prefill). */
export function nameOf(data: readonly ResponseAnswer[]): string | undefined {
  for (const answer of data) {
    const value = answer.response.fullName;
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

/** A stored response turned back into the answer shape (to prefill a step). Passwords are never returned. */
export function answerOf(component: StoredComponent, response: StoredResponse | undefined): unknown {
  if (!response) return undefined;
  return answerRulesOf(component.type)?.toAnswer(component, response);
}
