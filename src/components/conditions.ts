/**
 * Conditional logic as the component modules see it: the stored shape of a step's logic (rules of
 * conditions and actions), the condition ops, and the *subjects* a condition can test. Each component
 * module says what its answer is as a subject (`ComponentModule.conditions`): text, a boolean, one
 * choice, several choices, or only present/absent. The ops a condition may use follow from the subject
 * (`SUBJECT_OPS`), so no component type name is switched on outside its module.
 *
 * The form-level rules (keys, references, nesting) are checked in src/forms/logic.ts; a response's path
 * is walked in src/responses/path.ts.
 */

export { CALCULATION_OPS, CONDITION_OPS } from '../db/json-columns.ts';
export type {
  CalculateAction,
  CalculationOp,
  CalculationValue,
  Condition,
  ConditionOp,
  ConditionValue,
  FormVariable,
  HiddenCondition,
  LogicAction,
  LogicRule,
  QuestionCondition,
  RouteAction,
  StepLogic,
  VariableCondition,
  VariableValues,
} from '../db/json-columns.ts';
import type { ConditionOp, LogicAction, RouteAction } from '../db/json-columns.ts';
import { CONDITION_OPS } from '../db/json-columns.ts';

/**
 * What an answer is to a condition:
 * - `text`: a string (or a number written as text); every op but `before` / `after`.
 * - `number`: a number (a rating, a score, an amount), within `min`…`max` when the question bounds it;
 *   equals, notEquals, greaterThan, lessThan, greaterOrEqual, lessOrEqual, between, in, notIn, answered, notAnswered.
 * - `date`: a calendar day `YYYY-MM-DD`; equals, before, after, between, answered, notAnswered.
 * - `choice`: one of `options` (when the options are fixed); equals, notEquals, in, notIn, answered, notAnswered.
 * - `choices`: several of `options` (multi-select); contains / notContains test membership; answered, notAnswered.
 * - `boolean`: true or false (a ticked box, a booked meeting); equals, notEquals, answered, notAnswered.
 * - `presence`: only whether it was answered (files, passwords, an IdentityInfo without `field`).
 */
export type ConditionSubject =
  | { kind: 'text' }
  | { kind: 'number'; min?: number | undefined; max?: number | undefined }
  | { kind: 'date' }
  | { kind: 'boolean' }
  | { kind: 'choice' | 'choices'; options?: readonly string[] | undefined }
  | { kind: 'presence' };
export type SubjectKind = ConditionSubject['kind'];

/** The ops each kind of subject answers. */
export const SUBJECT_OPS: Readonly<Record<SubjectKind, readonly ConditionOp[]>> = {
  text: CONDITION_OPS.filter((op) => op !== 'before' && op !== 'after'),
  number: ['equals', 'notEquals', 'greaterThan', 'lessThan', 'greaterOrEqual', 'lessOrEqual', 'between', 'in', 'notIn', 'answered', 'notAnswered'],
  date: ['equals', 'before', 'after', 'between', 'answered', 'notAnswered'],
  choice: ['equals', 'notEquals', 'in', 'notIn', 'answered', 'notAnswered'],
  choices: ['contains', 'notContains', 'answered', 'notAnswered'],
  boolean: ['equals', 'notEquals', 'answered', 'notAnswered'],
  presence: ['answered', 'notAnswered'],
};

/** An answer as a condition reads it: text, a number, a boolean, the chosen options, or (presence) `true`; `undefined` when unanswered. */
export type AnswerValue = string | number | boolean | readonly string[] | undefined;

/** A calendar day as `YYYY-MM-DD` that exists (no 2026-02-30), between years 0001 and 9999. */
export function isCalendarDate(value: unknown): value is string {
  if (typeof value !== 'string' || value.length !== 10 || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const [year, month, day] = value.split('-').map(Number) as [number, number, number];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return day <= days;
}

/** `subject` of a component without fields: a condition naming a `field` is refused. */
export const fieldless =
  <C extends { type: string }>(subject: (component: C) => ConditionSubject) =>
  (component: C, field: string | undefined): ConditionSubject | string =>
    field === undefined ? subject(component) : `A ${component.type} has no fields: leave out "field"`;

/** A stored text as a condition's value (`undefined`: no text). */
export const textValue = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** A stored number as a condition's value (`undefined`: no number). */
export const numberValue = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** A rule's actions as a list (`then` may be one action or several). */
export function actionsOf(then: LogicAction | readonly LogicAction[] | undefined): readonly LogicAction[] {
  if (then === undefined) return [];
  return isActionList(then) ? then : [then];
}
const isActionList = (then: LogicAction | readonly LogicAction[]): then is readonly LogicAction[] => Array.isArray(then);

/** The action of a rule's list that routes the response (goTo, complete, invalid), if any: the first. */
export const routeOf = (then: LogicAction | readonly LogicAction[] | undefined): RouteAction | undefined =>
  actionsOf(then).find((action): action is RouteAction => !('calculate' in action));
