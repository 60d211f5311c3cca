/**
 * A response's path through a form: which steps it goes through, in order, and where it ends. A pure
 * function of the form's steps (any version of its definition), the hidden field values and the answers:
 * no database, so the page, the JSON API, the tests and the bench all walk the same way.
 *
 * The walk starts at the first step. A completion or invalid step ends it there (completed / invalid).
 * A step the respondent has not submitted yet (`passes` says which have been) is where it stops: the
 * response's next step. A submitted step's rules are evaluated in order and the first that holds decides
 * (`goTo` a later step, `complete`, `invalid`); when none holds, `logic.next` or the following step, and
 * after the last step the response is completed. Targets are always later steps, so the walk ends.
 *
 * Conditions (docs/logic.md): `equals` compares numbers as numbers when both sides are numbers (a number,
 * or a text such as "250" or "-1.5"), otherwise exactly; `contains` is a substring of a text answer, or a
 * member of a multiple choice; `in` is `equals` against any listed value; `greaterThan` / `lessThan` hold
 * only when both sides are numbers. Every op but `answered` and the `not…` ops is false on a question
 * with no answer; `notX` is exactly `not X`.
 */
import { moduleOf } from '../components/catalogue.ts';
import type { AnswerValue, Condition, ConditionOp, ConditionValue, LogicAction } from '../components/conditions.ts';
import type { StoredComponent, StoredStep } from '../components/content.ts';
import type { StoredResponse } from '../components/answers.ts';
import { stepKey } from '../forms/logic.ts';

/** The answers a condition may read: by questionId. */
export type AnswersById = ReadonlyMap<string, StoredResponse>;
export type HiddenValues = Readonly<Record<string, string>>;

/**
 * open: a step is still to be answered (`next`). end: the last step was submitted and nothing ended the
 * response: it finishes when asked (`finished: true`; the page asks). completed / invalid: a completion
 * step or a `complete` action, an invalid step or an `invalid` action ended it.
 */
export type PathState = 'open' | 'end' | 'completed' | 'invalid';

export interface WalkedPath {
  /** Indexes of the steps gone through, in order; ends with the completion or invalid step that ended it, if one did. */
  path: number[];
  state: PathState;
  /** The step to answer next (open only), else null. */
  next: number | null;
}

/** A form's steps with what the walk looks up: step indexes by key, components by key. */
export interface LogicIndex {
  steps: readonly StoredStep[];
  stepByKey: ReadonlyMap<string, number>;
  componentByKey: ReadonlyMap<string, StoredComponent>;
}

const indexes = new WeakMap<readonly StoredStep[], LogicIndex>();

/** The lookups of `steps` (kept while the steps array lives: a cached form is indexed once). */
export function logicIndex(steps: readonly StoredStep[]): LogicIndex {
  let index = indexes.get(steps);
  if (!index) {
    const componentByKey = new Map<string, StoredComponent>();
    for (const step of steps) for (const component of step.components) if (component.key !== undefined) componentByKey.set(component.key, component);
    index = { steps, stepByKey: new Map(steps.map((step, i) => [stepKey(step, i), i])), componentByKey };
    indexes.set(steps, index);
  }
  return index;
}

/** Whether the form has any logic at all (keys alone change nothing). */
export const hasLogic = (steps: readonly StoredStep[]): boolean => steps.some((step) => step.logic || step.completion || step.invalid);

// ---------------------------------------------------------------- conditions

const NUMBER_TEXT = /^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)\s*$/;

/** A side of a comparison as a number, when it is one (a number, or a text that is a decimal number). */
function numeric(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && NUMBER_TEXT.test(value)) return Number(value);
  return undefined;
}

function sameValue(actual: string | boolean, expected: string | number | boolean): boolean {
  const a = numeric(actual);
  const b = numeric(expected);
  if (a !== undefined && b !== undefined) return a === b;
  return actual === expected;
}

const isAnswered = (actual: AnswerValue): boolean =>
  actual !== undefined && actual !== '' && !(Array.isArray(actual) && actual.length === 0);

/** One leaf: `actual` is the answer (or hidden value) as conditions read it, `undefined` when there is none. */
export function testLeaf(op: ConditionOp, actual: AnswerValue, expected: ConditionValue | undefined): boolean {
  switch (op) {
    case 'answered':
      return isAnswered(actual);
    case 'notAnswered':
      return !isAnswered(actual);
    case 'notEquals':
      return !testLeaf('equals', actual, expected);
    case 'notContains':
      return !testLeaf('contains', actual, expected);
    case 'notIn':
      return !testLeaf('in', actual, expected);
  }
  if (!isAnswered(actual) || expected === undefined) return false;
  switch (op) {
    case 'equals':
      return !Array.isArray(actual) && !Array.isArray(expected) && sameValue(actual as string | boolean, expected);
    case 'contains':
      if (typeof expected !== 'string') return false;
      if (Array.isArray(actual)) return actual.includes(expected);
      return typeof actual === 'string' && actual.includes(expected);
    case 'in':
      return !Array.isArray(actual) && Array.isArray(expected) && expected.some((item) => sameValue(actual as string | boolean, item));
    case 'greaterThan':
    case 'lessThan': {
      const a = Array.isArray(actual) ? undefined : numeric(actual);
      const b = numeric(expected);
      if (a === undefined || b === undefined) return false;
      return op === 'greaterThan' ? a > b : a < b;
    }
  }
  return false;
}

/** Whether `condition` holds for these answers and hidden values. */
export function holds(condition: Condition, index: LogicIndex, answers: AnswersById, hidden: HiddenValues): boolean {
  if ('all' in condition) return condition.all.every((c) => holds(c, index, answers, hidden));
  if ('any' in condition) return condition.any.some((c) => holds(c, index, answers, hidden));
  if ('not' in condition) return !holds(condition.not, index, answers, hidden);
  if ('hidden' in condition) return testLeaf(condition.op, Object.hasOwn(hidden, condition.hidden) ? hidden[condition.hidden] : undefined, condition.value);
  const component = index.componentByKey.get(condition.question);
  const response = component && answers.get(component.id);
  const rules = component && moduleOf(component.type)?.conditions;
  const actual = response && rules ? rules.value(component, response, condition.field) : undefined;
  return testLeaf(condition.op, actual, condition.value);
}

// ---------------------------------------------------------------- the walk

/** What follows a submitted step: a step index, or an end. */
type Decision = { step: number } | { end: 'end' | 'completed' | 'invalid' };

function decide(index: LogicIndex, at: number, answers: AnswersById, hidden: HiddenValues): Decision {
  const step = index.steps[at]!;
  const logic = step.logic;
  let action: LogicAction | undefined;
  if (logic) for (const rule of logic.rules) if (holds(rule.if, index, answers, hidden)) {
    action = rule.then;
    break;
  }
  if (action && 'complete' in action) return { end: 'completed' };
  if (action && 'invalid' in action) return { end: 'invalid' };
  const target = action ? action.goTo : logic?.next;
  // A stored target always names a later step (checked when the form was made); anything else falls through.
  const next = target === undefined ? at + 1 : (index.stepByKey.get(target) ?? at + 1);
  if (next >= index.steps.length) return { end: 'end' };
  return { step: Math.max(next, at + 1) };
}

/**
 * Walks the form from its first step: through every step `passes` says was submitted, until an end or
 * the first step not submitted yet (the next step).
 */
export function walkPath(steps: readonly StoredStep[], answers: AnswersById, hidden: HiddenValues, passes: (step: number) => boolean): WalkedPath {
  const index = logicIndex(steps);
  const path: number[] = [];
  let at = 0;
  for (;;) {
    const step = steps[at]!;
    if (step.completion || step.invalid) {
      path.push(at);
      return { path, state: step.completion ? 'completed' : 'invalid', next: null };
    }
    if (!passes(at)) return { path, state: 'open', next: at };
    path.push(at);
    const decision = decide(index, at, answers, hidden);
    if ('end' in decision) return { path, state: decision.end, next: null };
    at = decision.step;
  }
}

/** Step keys of a path (what `meta.path` records). */
export const pathKeys = (steps: readonly StoredStep[], path: readonly number[]): string[] => path.map((i) => stepKey(steps[i]!, i));

/** Step indexes of recorded keys (keys no step has any more are left out). */
export function pathIndexes(steps: readonly StoredStep[], keys: readonly unknown[]): number[] {
  const byKey = logicIndex(steps).stepByKey;
  return keys.flatMap((key) => {
    const index = typeof key === 'string' ? byKey.get(key) : undefined;
    return index === undefined ? [] : [index];
  });
}
