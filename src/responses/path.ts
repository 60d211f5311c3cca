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
 * only when both sides are numbers, as do `greaterOrEqual`, `lessOrEqual` and `between` (`[low, high]`,
 * both ends included; two dates compare dates); `before` / `after` compare dates `YYYY-MM-DD`. Every op but `answered` and the `not…` ops is false on a question
 * with no answer; `notX` is exactly `not X`. A question on a step the walk has not gone through (one it
 * skipped) counts as unanswered, whatever was stored for it before.
 *
 * Each form's conditions are compiled once into closures (components and values looked up and parsed
 * ahead), kept while its steps array lives: the walks of one request share them.
 */
import { moduleOf } from '../components/catalogue.ts';
import {
  actionsOf,
  isCalendarDate,
  routeOf,
  type AnswerValue,
  type CalculateAction,
  type Condition,
  type ConditionOp,
  type ConditionValue,
  type FormVariable,
  type RouteAction,
  type VariableValues,
} from '../components/conditions.ts';
import type { ConditionRules } from '../components/module.ts';
import type { StoredComponent, StoredStep } from '../db/json-columns.ts';
import type { StoredResponse } from '../components/answers.ts';
import { roundVariable, stepKey } from '../forms/logic.ts';

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
  /** The form variables as the rules of the steps gone through left them (their initial values before any). */
  variables: VariableValues;
}

/** What a compiled condition reads: the answers, the hidden values, and which steps the walk went through so far. */
interface Facts {
  answers: AnswersById;
  hidden: HiddenValues;
  onPath: Uint8Array;
  /** The variables as the rules so far left them (changed in place by the calculations). */
  variables: VariableValues;
}
type Test = (facts: Facts) => boolean;
type Calculation = (facts: Facts) => void;

interface CompiledStep {
  rules: { test: Test; route: RouteAction | undefined; calculations: Calculation[] }[];
  /** Whether any rule of the step calculates: then every rule is evaluated, not only up to the first route. */
  calculates: boolean;
  /** `logic.next` as a step index, if set. */
  next: number | undefined;
}

/** A form's steps ready to walk: step indexes by key, every step's rules compiled. */
export interface LogicIndex {
  steps: readonly StoredStep[];
  stepByKey: ReadonlyMap<string, number>;
  compiled: CompiledStep[];
}

const indexes = new WeakMap<readonly StoredStep[], LogicIndex>();

/**
 * Compiled forms by a key the caller gives, the most recently used kept: each request reads its form
 * afresh (a new steps array), and compiling a form's rules costs several walks. The key must change
 * whenever the steps do (a form's id and version: formLogicKey; a version's definition never changes).
 */
const keyed = new Map<string, LogicIndex>();
const KEYED_FORMS = 500;

/**
 * The cache key of a stored form's logic: its id and the version of its definition (every change of the
 * steps makes a new version, and a response on an older version walks that version's steps).
 */
export const formLogicKey = (form: { id: string; version: number }) => `${form.id}@${form.version}`;

/**
 * `steps` compiled for walking: kept while the steps array lives, and under `key` (formLogicKey) for the
 * next reads of the same form.
 */
export function logicIndex(steps: readonly StoredStep[], key?: string): LogicIndex {
  let index = indexes.get(steps);
  if (!index && key !== undefined) {
    index = keyed.get(key);
    if (index) {
      keyed.delete(key);
      keyed.set(key, index);
      indexes.set(steps, index);
    }
  }
  if (!index) {
    const stepByKey = new Map(steps.map((step, i) => [stepKey(step, i), i]));
    const components = new Map<string, { component: StoredComponent; step: number }>();
    steps.forEach((step, i) => {
      for (const component of step.components) if (component.key !== undefined) components.set(component.key, { component, step: i });
    });
    const compiled = steps.map((step): CompiledStep => {
      const rules = (step.logic?.rules ?? []).map((rule) => ({
        test: compileCondition(rule.if, components),
        route: routeOf(rule.then),
        calculations: actionsOf(rule.then).flatMap((action) => ('calculate' in action ? [compileCalculation(action, components)] : [])),
      }));
      const next = step.logic?.next === undefined ? undefined : stepByKey.get(step.logic.next);
      return { rules, calculates: rules.some((rule) => rule.calculations.length > 0), next };
    });
    index = { steps, stepByKey, compiled };
    indexes.set(steps, index);
    if (key !== undefined) {
      keyed.set(key, index);
      if (keyed.size > KEYED_FORMS) keyed.delete(keyed.keys().next().value!);
    }
  }
  return index;
}

/** Whether the form has any logic at all (keys alone change nothing). */
export const hasLogic = (steps: readonly StoredStep[]): boolean => steps.some((step) => step.logic || step.completion || step.invalid);

// ---------------------------------------------------------------- conditions

const NUMBER_TEXT = /^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)\s*$/;

/**
 * A side of a comparison as a number, when it is one (a number, or a text that is a decimal number). The
 * last text read is remembered: the leaves of one walk read the same answer, which may be 10,000
 * characters long, and the test reads all of them.
 */
let lastText: string | undefined;
let lastNumber: number | undefined;
function numeric(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  if (value !== lastText) {
    lastNumber = NUMBER_TEXT.test(value) ? Number(value) : undefined;
    lastText = value;
  }
  return lastNumber;
}

const NUMBER_COMPARISONS = {
  greaterThan: (a: number, b: number) => a > b,
  lessThan: (a: number, b: number) => a < b,
  greaterOrEqual: (a: number, b: number) => a >= b,
  lessOrEqual: (a: number, b: number) => a <= b,
} as const;

const isAnswered = (actual: AnswerValue): boolean => actual !== undefined && actual !== '' && !(Array.isArray(actual) && actual.length === 0);

/** `equals` against one expected value: as numbers when both sides are numbers, else exactly. */
function sameAs(expected: string | number | boolean): (actual: string | number | boolean) => boolean {
  const number = numeric(expected);
  if (number === undefined) return (actual) => actual === expected;
  return (actual) => {
    const a = numeric(actual);
    return a === undefined ? actual === expected : a === number;
  };
}

/** One leaf's test of the answer (or hidden value) it reads, `undefined` when there is none. */
export function compileLeaf(op: ConditionOp, expected: ConditionValue | undefined): (actual: AnswerValue) => boolean {
  const negated = (test: (actual: AnswerValue) => boolean) => (actual: AnswerValue) => !test(actual);
  switch (op) {
    case 'answered':
      return isAnswered;
    case 'notAnswered':
      return negated(isAnswered);
    case 'notEquals':
      return negated(compileLeaf('equals', expected));
    case 'notContains':
      return negated(compileLeaf('contains', expected));
    case 'notIn':
      return negated(compileLeaf('in', expected));
    case 'equals': {
      if (expected === undefined || Array.isArray(expected)) return () => false;
      const same = sameAs(expected);
      return (actual) => isAnswered(actual) && !Array.isArray(actual) && same(actual as string | number | boolean);
    }
    case 'in': {
      if (!Array.isArray(expected)) return () => false;
      // `equals` against each value, as two sets: a numeric answer matches a listed number (or numeric
      // text) by value; any other answer can only be one of the listed values exactly.
      const numbers = new Set<number>();
      const exact = new Set<string | number | boolean>();
      for (const value of expected) {
        const number = numeric(value);
        if (number === undefined) exact.add(value);
        else numbers.add(number);
      }
      return (actual) => {
        if (!isAnswered(actual) || Array.isArray(actual)) return false;
        const number = numeric(actual);
        return number === undefined ? exact.has(actual as string | boolean) : numbers.has(number);
      };
    }
    case 'contains':
      if (typeof expected !== 'string') return () => false;
      return (actual) => (Array.isArray(actual) ? actual.includes(expected) : typeof actual === 'string' && actual !== '' && actual.includes(expected));
    case 'greaterThan':
    case 'lessThan':
    case 'greaterOrEqual':
    case 'lessOrEqual': {
      const bound = numeric(expected);
      if (bound === undefined) return () => false;
      const compare = NUMBER_COMPARISONS[op];
      return (actual) => {
        const a = Array.isArray(actual) ? undefined : numeric(actual);
        return a !== undefined && compare(a, bound);
      };
    }
    case 'before':
    case 'after': {
      if (!isCalendarDate(expected)) return () => false;
      return (actual) => isCalendarDate(actual) && (op === 'before' ? actual < expected : actual > expected);
    }
    case 'between': {
      if (!Array.isArray(expected) || expected.length !== 2) return () => false;
      const [low, high] = expected as [string | number, string | number];
      if (isCalendarDate(low) && isCalendarDate(high)) return (actual) => isCalendarDate(actual) && actual >= low && actual <= high;
      const [lowNumber, highNumber] = [numeric(low), numeric(high)];
      if (lowNumber === undefined || highNumber === undefined) return () => false;
      return (actual) => {
        const a = Array.isArray(actual) ? undefined : numeric(actual);
        return a !== undefined && a >= lowNumber && a <= highNumber;
      };
    }
  }
  return () => false;
}

function compileCondition(condition: Condition, components: ReadonlyMap<string, { component: StoredComponent; step: number }>): Test {
  // Plain loops: a callback per evaluation would be an allocation per group and walk.
  if ('all' in condition) {
    const parts = condition.all.map((c) => compileCondition(c, components));
    return (facts) => {
      for (const part of parts) if (!part(facts)) return false;
      return true;
    };
  }
  if ('any' in condition) {
    const parts = condition.any.map((c) => compileCondition(c, components));
    return (facts) => {
      for (const part of parts) if (part(facts)) return true;
      return false;
    };
  }
  if ('not' in condition) {
    const inner = compileCondition(condition.not, components);
    return (facts) => !inner(facts);
  }
  const leaf = compileLeaf(condition.op, condition.value);
  if ('variable' in condition) {
    const name = condition.variable;
    return (facts) => leaf(Object.hasOwn(facts.variables, name) ? facts.variables[name] : undefined);
  }
  if ('hidden' in condition) {
    const name = condition.hidden;
    return (facts) => leaf(Object.hasOwn(facts.hidden, name) ? facts.hidden[name] : undefined);
  }
  const found = components.get(condition.question);
  const rules: ConditionRules | undefined = found && moduleOf(found.component.type)?.conditions;
  if (!found || !rules) return () => leaf(undefined);
  const { component, step } = found;
  const field = condition.field;
  return (facts) => {
    const response = facts.onPath[step] ? facts.answers.get(component.id) : undefined;
    return leaf(response ? rules.value(component, response, field) : undefined);
  };
}

/**
 * Whether `condition` holds for these answers, hidden values and variables, with the steps of `path` gone
 * through (every step when not given): a quota's condition on a finishing response, tools and tests.
 */
export function holds(
  condition: Condition,
  steps: readonly StoredStep[],
  answers: AnswersById,
  hidden: HiddenValues,
  variables: VariableValues = {},
  path?: readonly number[],
): boolean {
  const components = new Map<string, { component: StoredComponent; step: number }>();
  steps.forEach((step, i) => step.components.forEach((component) => component.key !== undefined && components.set(component.key, { component, step: i })));
  const onPath = new Uint8Array(steps.length).fill(path ? 0 : 1);
  for (const step of path ?? []) onPath[step] = 1;
  return compileCondition(condition, components)({ answers, hidden, onPath, variables });
}

// ---------------------------------------------------------------- calculations

/** Characters a text variable keeps: what `append` adds beyond is cut. */
export const MAX_VARIABLE_TEXT = 10_000;

type Operand = (facts: Facts) => AnswerValue;
type Located = ReadonlyMap<string, { component: StoredComponent; step: number }>;

/** The answer of the component `key` as a condition reads it (undefined off the path or unanswered). */
function answerOperand(key: string, components: Located): Operand {
  const found = components.get(key);
  const rules: ConditionRules | undefined = found && moduleOf(found.component.type)?.conditions;
  if (!found || !rules) return () => undefined;
  const { component, step } = found;
  return (facts) => {
    const response = facts.onPath[step] ? facts.answers.get(component.id) : undefined;
    return response ? rules.value(component, response, undefined) : undefined;
  };
}

/** The sum of the `optionScores` of the options the answer chose (0 unanswered, or for an option without a score). */
function scoreOperand(key: string, components: Located): Operand {
  const answer = answerOperand(key, components);
  const scores = components.get(key)?.component.content.optionScores;
  const scoreOf = (option: unknown) => {
    const score = scores && typeof scores === 'object' && Object.hasOwn(scores, String(option)) ? (scores as Record<string, unknown>)[String(option)] : undefined;
    return typeof score === 'number' && Number.isFinite(score) ? score : 0;
  };
  return (facts) => {
    const chosen = answer(facts);
    if (chosen === undefined || typeof chosen === 'boolean') return 0;
    return Array.isArray(chosen) ? chosen.reduce((sum: number, option) => sum + scoreOf(option), 0) : scoreOf(chosen);
  };
}

function operandOf(value: CalculateAction['calculate']['value'], components: Located): Operand {
  if (typeof value !== 'object') return () => value;
  if ('variable' in value) return (facts) => (Object.hasOwn(facts.variables, value.variable) ? facts.variables[value.variable] : undefined);
  if ('scoreOf' in value) return scoreOperand(value.scoreOf, components);
  return answerOperand(value.question, components);
}

/** An operand as text: a text or number as written, chosen options joined by ", "; undefined for none. */
function textOf(value: AnswerValue): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.length === 0 ? undefined : value.join(', ');
  return undefined;
}

const ARITHMETIC = {
  set: (_current: number, operand: number) => operand,
  add: (current: number, operand: number) => current + operand,
  subtract: (current: number, operand: number) => current - operand,
  multiply: (current: number, operand: number) => current * operand,
  // Division by zero leaves the variable as it was.
  divide: (current: number, operand: number) => (operand === 0 ? current : current / operand),
} as const;

/**
 * A calculation as a closure changing `facts.variables` in place. A number variable takes a number (a
 * numeric answer, or a text answer that is a decimal number; else nothing changes), rounded to 6 decimal
 * places; a text variable is set or appended to (cut at MAX_VARIABLE_TEXT).
 */
function compileCalculation({ calculate }: CalculateAction, components: Located): Calculation {
  const { variable, op } = calculate;
  const operand = operandOf(calculate.value, components);
  return (facts) => {
    if (!Object.hasOwn(facts.variables, variable)) return;
    const current = facts.variables[variable]!;
    if (typeof current === 'number') {
      if (op === 'append') return;
      const number = numeric(operand(facts));
      if (number === undefined) return;
      const result = roundVariable(ARITHMETIC[op](current, number));
      if (Number.isFinite(result)) facts.variables[variable] = result;
      return;
    }
    const text = textOf(operand(facts));
    if (text === undefined || (op !== 'set' && op !== 'append')) return;
    facts.variables[variable] = (op === 'set' ? text : current + text).slice(0, MAX_VARIABLE_TEXT);
  };
}

/** The variables a walk starts with: each at its initial value. */
export const initialVariables = (variables: readonly FormVariable[] | undefined): VariableValues =>
  Object.fromEntries((variables ?? []).map((variable) => [variable.name, variable.initial]));

// ---------------------------------------------------------------- the walk

/** What follows a submitted step: a step index, or an end. */
type Decision = { step: number } | { end: 'end' | 'completed' | 'invalid' };

/**
 * A submitted step's rules in order: each whose condition holds (seeing the variables as the rules before
 * it left them) applies its calculations; the first that holds and routes decides where the walk goes.
 */
function decide(index: LogicIndex, at: number, facts: Facts): Decision {
  const compiled = index.compiled[at]!;
  let action: RouteAction | undefined;
  for (const rule of compiled.rules) {
    if (action && rule.calculations.length === 0) continue;
    if (!rule.test(facts)) continue;
    for (const calculation of rule.calculations) calculation(facts);
    action ??= rule.route;
    if (action && !compiled.calculates) break;
  }
  if (action && 'complete' in action) return { end: 'completed' };
  if (action && 'invalid' in action) return { end: 'invalid' };
  // A stored target always names a later step (checked when the form was made); anything else falls through.
  const target = action ? index.stepByKey.get(action.goTo) : compiled.next;
  const next = target === undefined || target <= at ? at + 1 : target;
  return next >= index.steps.length ? { end: 'end' } : { step: next };
}

/**
 * Walks the form from its first step: through every step `passes` says was submitted, until an end or
 * the first step not submitted yet (the next step). `divert` (a step index): the first time the walk would
 * finish (a completion step, a `complete` action, past the last step) it goes on at that step instead.
 */
export function walkPath(
  steps: readonly StoredStep[],
  answers: AnswersById,
  hidden: HiddenValues,
  passes: (step: number) => boolean,
  key?: string,
  variables?: readonly FormVariable[],
  divert?: number,
): WalkedPath {
  const index = logicIndex(steps, key);
  const facts: Facts = { answers, hidden, onPath: new Uint8Array(steps.length), variables: initialVariables(variables) };
  const path: number[] = [];
  // A full quota's step (src/responses/gate.ts): where the walk goes, once, instead of finishing.
  let diverted = divert === undefined || divert < 0 || divert >= steps.length;
  let at = 0;
  for (;;) {
    const step = steps[at]!;
    if (step.completion && !diverted) {
      diverted = true;
      at = divert!;
      continue;
    }
    if (step.completion || step.invalid) {
      path.push(at);
      return { path, state: step.completion ? 'completed' : 'invalid', next: null, variables: facts.variables };
    }
    if (!passes(at)) return { path, state: 'open', next: at, variables: facts.variables };
    path.push(at);
    facts.onPath[at] = 1;
    const decision = decide(index, at, facts);
    if ('end' in decision && decision.end !== 'invalid' && !diverted) {
      diverted = true;
      at = divert!;
      continue;
    }
    if ('end' in decision) return { path, state: decision.end, next: null, variables: facts.variables };
    at = decision.step;
  }
}

/** Step keys of a path (what `meta.path` records). */
export const pathKeys = (steps: readonly StoredStep[], path: readonly number[]): string[] => path.map((i) => stepKey(steps[i]!, i));

const stepIndexes = new WeakMap<readonly StoredStep[], ReadonlyMap<string, number>>();

/** Step indexes of recorded keys (keys no step has any more are left out). */
export function pathIndexes(steps: readonly StoredStep[], keys: readonly unknown[]): number[] {
  let byKey = indexes.get(steps)?.stepByKey ?? stepIndexes.get(steps);
  if (!byKey) stepIndexes.set(steps, (byKey = new Map(steps.map((step, i) => [stepKey(step, i), i]))));
  return keys.flatMap((key) => {
    const index = typeof key === 'string' ? byKey.get(key) : undefined;
    return index === undefined ? [] : [index];
  });
}
