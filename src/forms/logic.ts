/**
 * The logic of a form in the generate contract: step and component keys, hidden fields, and each step's
 * `completion`, `invalid` and `logic` (rules of conditions and actions). This file checks their shape
 * (zod transforms that report every problem with its path) and, once the whole form is read, the
 * references between them (`checkFormLogic`): a `goTo` or `next` names a later step, a condition names a
 * component of its own step or an earlier one and uses an op its type can answer, a `hidden` condition
 * names a declared hidden field. How a response's path is walked is src/responses/path.ts.
 *
 * Step keys: a step without `key` gets the default `step_<n>` (its 1-based position): `stepKey`. An
 * explicit key may have that form anywhere (a form read back and reordered keeps its steps' keys), unless
 * it is the default of a step that has no key of its own: that is refused at the explicit key.
 */
import { z } from 'zod';
import { moduleOf, isAnswerable } from '../components/catalogue.ts';
import {
  actionsOf,
  CALCULATION_OPS,
  CONDITION_OPS,
  SUBJECT_OPS,
  type CalculateAction,
  type CalculationValue,
  type FormVariable,
  type Condition,
  type ConditionOp,
  type ConditionSubject,
  type ConditionValue,
  type LogicAction,
  type LogicRule,
  type StepLogic,
} from '../components/conditions.ts';
import { isCalendarDate } from '../components/conditions.ts';
import { isObject } from '../components/content.ts';
import type { StoredComponent } from '../db/json-columns.ts';

/** Step keys, component keys and hidden field names. */
export const KEY_PATTERN = /^[A-Z_]\w{0,63}$/i;
const KEY_RULE = 'must start with a letter or "_" and hold at most 64 letters, digits or "_"';

export const LOGIC_LIMITS = {
  maxHiddenFields: 20,
  maxRulesPerStep: 20,
  /** all/any/not groups nested above a leaf. */
  maxConditionDepth: 5,
  /** Conditions (groups and leaves) in one rule. */
  maxConditionsPerRule: 50,
  /** Values of an `in` / `notIn` list. */
  maxValues: 500,
  /** Characters of a compared text, and of a hidden field's value. */
  maxValueLength: 500,
  /** Actions in one rule's `then` list. */
  maxActionsPerRule: 20,
  /** Variables of a form. */
  maxVariables: 20,
  /**
   * What all the rules of a form may cost one walk: every leaf counts 1, an `in`/`notIn` leaf one per
   * listed value. Bounds a submission's (and a page's) rule evaluation whatever the form.
   */
  maxRuleCost: 10_000,
} as const;

/** The key of the step at `index` (0-based): its own, or the default `step_<index + 1>`. */
export function stepKey(step: { key?: string | undefined }, index: number): string {
  return step.key ?? defaultStepKey(index);
}
export const defaultStepKey = (index: number) => `step_${index + 1}`;

export const keySchema = z.string().regex(KEY_PATTERN, `A key ${KEY_RULE}`);

/**
 * Names an object inherits (`__proto__`, `constructor`, `toString`, …) and `prototype`: refused as hidden
 * field names, so no lookup of a hidden value by name can reach an inherited property.
 */
export const RESERVED_HIDDEN_NAMES: ReadonlySet<string> = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

/** `hiddenFields`: declared names, unique, at most 20, none an inherited property's name. */
export const hiddenFieldsSchema = z
  .array(
    z
      .string()
      .regex(KEY_PATTERN, `A hidden field name ${KEY_RULE}`)
      .refine((name) => !RESERVED_HIDDEN_NAMES.has(name), { message: 'A hidden field name must not be a name every object has (such as __proto__, constructor or toString)' }),
  )
  .max(LOGIC_LIMITS.maxHiddenFields, `A form may declare at most ${LOGIC_LIMITS.maxHiddenFields} hidden fields`)
  .superRefine((names, ctx) => {
    names.forEach((name, index) => {
      if (names.indexOf(name) !== index) ctx.addIssue({ code: 'custom', path: [index], message: `Hidden field "${name}" is declared twice` });
    });
  })
  .meta({
    description: 'Names of values the respondent brings in the page URL (`/s/<id>?utm_source=ad`) or the JSON API; conditions test them with `{hidden: <name>, …}`.',
    examples: [['utm_source', 'plan']],
  });

/**
 * A number as variables keep it: a finite double rounded to 6 decimal places. Beyond 1e302 or so the
 * scaled value is no longer finite; such a number has no decimals to round (every double above 2^53 is
 * whole), so it is kept as it is.
 */
export function roundVariable(value: number): number {
  const scaled = value * 1e6;
  return (Number.isFinite(scaled) ? Math.round(scaled) / 1e6 : value) + 0;
}

/** `variables`: at most 20 `{name, type, initial}`, names unique; `initial` of the type (default 0 or ""). */
export const variablesSchema = z
  .array(
    z.strictObject({
      name: z
        .string()
        .regex(KEY_PATTERN, `A variable name ${KEY_RULE}`)
        .refine((name) => !RESERVED_HIDDEN_NAMES.has(name), { message: 'A variable name must not be a name every object has (such as __proto__, constructor or toString)' }),
      type: z.enum(['number', 'text']),
      initial: z.union([z.number().finite(), z.string().max(LOGIC_LIMITS.maxValueLength)]).nullish(),
    }),
  )
  .max(LOGIC_LIMITS.maxVariables, `A form may declare at most ${LOGIC_LIMITS.maxVariables} variables`)
  .superRefine((variables, ctx) => {
    variables.forEach((variable, index) => {
      if (variables.findIndex((other) => other.name === variable.name) !== index)
        ctx.addIssue({ code: 'custom', path: [index, 'name'], message: `Variable "${variable.name}" is declared twice` });
      const initial = variable.initial ?? undefined;
      if (initial !== undefined && typeof initial !== (variable.type === 'number' ? 'number' : 'string')) {
        ctx.addIssue({ code: 'custom', path: [index, 'initial'], message: `A ${variable.type} variable starts at a ${variable.type === 'number' ? 'number' : 'text'}` });
      }
    });
  })
  .transform((variables): FormVariable[] =>
    variables.map(({ name, type, initial }) => ({ name, type, initial: typeof initial === 'number' ? roundVariable(initial) : (initial ?? (type === 'number' ? 0 : '')) })),
  )
  .meta({
    description: 'Values the rules calculate as a response goes along (a score, a price); responses record them in `meta.variables` (docs/logic.md).',
    examples: [[{ name: 'score', type: 'number', initial: 0 }]],
  });

// ---------------------------------------------------------------- shapes

type Path = (string | number)[];
interface Report {
  (path: Path, message: string): void;
}

const describe = (value: unknown) => (Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value);
const absent = (value: unknown) => value === undefined || value === null;

function isCompared(value: unknown): value is string | number {
  return (typeof value === 'string' && value.length <= LOGIC_LIMITS.maxValueLength) || (typeof value === 'number' && Number.isFinite(value));
}

/** The `value` of a leaf, checked against its op; undefined after a problem (or for answered/notAnswered). */
function leafValue(raw: Record<string, unknown>, op: ConditionOp, report: Report): ConditionValue | undefined {
  const value = raw.value;
  switch (op) {
    case 'answered':
    case 'notAnswered':
      if (!absent(value)) report(['value'], `"${op}" takes no value`);
      return undefined;
    case 'in':
    case 'notIn':
      if (!Array.isArray(value) || value.length === 0 || value.length > LOGIC_LIMITS.maxValues) {
        report(['value'], `"${op}" takes a list of 1 to ${LOGIC_LIMITS.maxValues} texts or numbers`);
        return undefined;
      }
      value.forEach((item, index) => {
        if (!isCompared(item)) report(['value', index], `Must be a text of at most ${LOGIC_LIMITS.maxValueLength} characters or a number`);
      });
      return value.filter(isCompared);
    case 'greaterThan':
    case 'lessThan':
    case 'greaterOrEqual':
    case 'lessOrEqual':
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        report(['value'], `"${op}" takes a number`);
        return undefined;
      }
      return value;
    case 'before':
    case 'after':
      if (!isCalendarDate(value)) {
        report(['value'], `"${op}" takes a date written YYYY-MM-DD`);
        return undefined;
      }
      return value;
    case 'between': {
      const ends = Array.isArray(value) && value.length === 2 ? (value as unknown[]) : undefined;
      const numbers = ends?.every((end) => typeof end === 'number' && Number.isFinite(end));
      const dates = ends?.every(isCalendarDate);
      if (!ends || (!numbers && !dates)) {
        report(['value'], '"between" takes [low, high]: two numbers, or two dates written YYYY-MM-DD (both ends included)');
        return undefined;
      }
      if ((ends[0] as number | string) > (ends[1] as number | string)) {
        report(['value'], '"between" takes [low, high]: the first end must not be above the second');
        return undefined;
      }
      return ends as (string | number)[];
    }
    case 'contains':
    case 'notContains':
      if (typeof value !== 'string' || value.length > LOGIC_LIMITS.maxValueLength) {
        report(['value'], `"${op}" takes a text of at most ${LOGIC_LIMITS.maxValueLength} characters`);
        return undefined;
      }
      return value;
    case 'equals':
    case 'notEquals':
      if (!isCompared(value) && typeof value !== 'boolean') {
        report(['value'], `"${op}" takes a text (at most ${LOGIC_LIMITS.maxValueLength} characters), a number or true/false`);
        return undefined;
      }
      return value;
  }
}

const GROUPS = ['all', 'any', 'not'] as const;
const LEAF_KEYS = { question: ['question', 'field', 'op', 'value'], hidden: ['hidden', 'op', 'value'], variable: ['variable', 'op', 'value'] } as const;
const LEAF_NAMES = { question: "component's key", hidden: 'hidden field name', variable: 'variable name' } as const;

/**
 * A condition's shape, read into `Condition`; problems are reported at their paths. `depth` counts the
 * groups above; `budget` the conditions the rule may still hold.
 */
function readCondition(raw: unknown, report: Report, at: Path, depth: number, budget: { left: number }): Condition | undefined {
  if (--budget.left < 0) {
    if (budget.left === -1) report(at, `A rule may hold at most ${LOGIC_LIMITS.maxConditionsPerRule} conditions`);
    return undefined;
  }
  if (!isObject(raw)) {
    report(at, `A condition must be an object, not ${describe(raw)}`);
    return undefined;
  }
  const forms = [...GROUPS, 'question', 'hidden', 'variable'].filter((key) => raw[key] !== undefined);
  if (forms.length !== 1) {
    report(
      at,
      forms.length === 0
        ? 'A condition needs one of "all", "any", "not", "question", "hidden" or "variable"'
        : `A condition takes one of ${forms.map((f) => `"${f}"`).join(', ')}, not several`,
    );
    return undefined;
  }
  const form = forms[0] as (typeof GROUPS)[number] | keyof typeof LEAF_KEYS;
  if (form === 'all' || form === 'any' || form === 'not') {
    for (const key of Object.keys(raw)) if (key !== form) report([...at, key], `Unknown key "${key}" beside "${form}"`);
    if (depth >= LOGIC_LIMITS.maxConditionDepth) {
      report([...at, form], `Conditions nest at most ${LOGIC_LIMITS.maxConditionDepth} groups deep`);
      return undefined;
    }
    if (form === 'not') {
      const inner = readCondition(raw.not, report, [...at, 'not'], depth + 1, budget);
      return inner && { not: inner };
    }
    const list = raw[form];
    if (!Array.isArray(list) || list.length === 0) {
      report([...at, form], `"${form}" takes a non-empty list of conditions`);
      return undefined;
    }
    const items = list.map((item, index) => readCondition(item, report, [...at, form, index], depth + 1, budget));
    if (items.some((item) => item === undefined)) return undefined;
    return form === 'all' ? { all: items as Condition[] } : { any: items as Condition[] };
  }
  const allowed: readonly string[] = LEAF_KEYS[form];
  let ok = true;
  for (const key of Object.keys(raw)) {
    if (!allowed.includes(key) && raw[key] !== undefined) {
      report([...at, key], `Unknown key "${key}"; a ${form} condition takes ${allowed.map((k) => `"${k}"`).join(', ')}`);
      ok = false;
    }
  }
  const name = raw[form];
  if (typeof name !== 'string' || !KEY_PATTERN.test(name)) {
    report([...at, form], `"${form}" must be a ${LEAF_NAMES[form]}`);
    ok = false;
  }
  const field = raw.field;
  if (form === 'question' && !absent(field) && typeof field !== 'string') {
    report([...at, 'field'], '"field" must be a text: an IdentityInfo field key, a Matrix row or a Ranking option');
    ok = false;
  }
  const op = raw.op;
  if (typeof op !== 'string' || !(CONDITION_OPS as readonly string[]).includes(op)) {
    report([...at, 'op'], `"op" must be one of ${CONDITION_OPS.join(', ')}`);
    return undefined;
  }
  const value = leafValue(raw, op as ConditionOp, (path, message) => report([...at, ...path], message));
  if (!ok || (value === undefined && op !== 'answered' && op !== 'notAnswered')) return undefined;
  const leaf: Record<string, unknown> = { [form]: name };
  if (form === 'question' && typeof field === 'string') leaf.field = field;
  leaf.op = op;
  if (value !== undefined) leaf.value = value;
  return leaf as unknown as Condition;
}

const ACTION_SHAPES = 'An action is one of {goTo: <step key>}, {complete: true}, {invalid: true} or {calculate: {variable, op, value}}';

function readAction(raw: unknown, report: Report, at: Path): LogicAction | undefined {
  if (!isObject(raw)) {
    report(at, `${ACTION_SHAPES}, not ${describe(raw)}`);
    return undefined;
  }
  const keys = Object.keys(raw).filter((key) => raw[key] !== undefined);
  if (keys.length !== 1 || !['goTo', 'complete', 'invalid', 'calculate'].includes(keys[0]!)) {
    report(at, ACTION_SHAPES);
    return undefined;
  }
  const [key] = keys as ['goTo' | 'complete' | 'invalid' | 'calculate'];
  if (key === 'calculate') return readCalculation(raw.calculate, report, [...at, 'calculate']);
  if (key === 'goTo') {
    if (typeof raw.goTo !== 'string' || !KEY_PATTERN.test(raw.goTo)) {
      report([...at, 'goTo'], '"goTo" must be a step key');
      return undefined;
    }
    return { goTo: raw.goTo };
  }
  if (raw[key] !== true) {
    report([...at, key], `"${key}" must be true`);
    return undefined;
  }
  return key === 'complete' ? { complete: true } : { invalid: true };
}

const VALUE_REFERENCES = ['question', 'scoreOf', 'variable'] as const;

/** A calculation's `value`: a number, a text, or one of {question}, {scoreOf}, {variable}. */
function readCalculationValue(raw: unknown, report: Report, at: Path): CalculationValue | undefined {
  if (typeof raw === 'number' && Number.isFinite(raw)) return raw;
  if (typeof raw === 'string' && raw.length <= LOGIC_LIMITS.maxValueLength) return raw;
  const keys = isObject(raw) ? Object.keys(raw).filter((key) => raw[key] !== undefined) : [];
  const reference = keys.length === 1 ? VALUE_REFERENCES.find((name) => name === keys[0]) : undefined;
  const name = reference && (raw as Record<string, unknown>)[reference];
  if (!reference || typeof name !== 'string' || !KEY_PATTERN.test(name)) {
    report(at, `"value" is a number, a text of at most ${LOGIC_LIMITS.maxValueLength} characters, {question: <key>}, {scoreOf: <key>} or {variable: <name>}`);
    return undefined;
  }
  return { [reference]: name } as CalculationValue;
}

function readCalculation(raw: unknown, report: Report, at: Path): CalculateAction | undefined {
  if (!isObject(raw)) {
    report(at, '"calculate" takes {variable, op, value}');
    return undefined;
  }
  for (const key of Object.keys(raw))
    if (!['variable', 'op', 'value'].includes(key) && raw[key] !== undefined) report([...at, key], `Unknown key "${key}"; "calculate" takes "variable", "op" and "value"`);
  let ok = true;
  if (typeof raw.variable !== 'string' || !KEY_PATTERN.test(raw.variable)) {
    report([...at, 'variable'], '"variable" must be a variable name');
    ok = false;
  }
  if (typeof raw.op !== 'string' || !(CALCULATION_OPS as readonly string[]).includes(raw.op)) {
    report([...at, 'op'], `"op" must be one of ${CALCULATION_OPS.join(', ')}`);
    ok = false;
  }
  const value = readCalculationValue(raw.value, report, [...at, 'value']);
  if (!ok || value === undefined) return undefined;
  return { calculate: { variable: raw.variable as string, op: raw.op as CalculateAction['calculate']['op'], value } };
}

/** A rule's `then`: one action or a list of 1 to maxActionsPerRule, at most one of which routes. */
function readThen(raw: unknown, report: Report, at: Path): LogicAction | LogicAction[] | undefined {
  if (!Array.isArray(raw)) return readAction(raw, report, at);
  if (raw.length === 0 || raw.length > LOGIC_LIMITS.maxActionsPerRule) {
    report(at, `"then" takes one action or a list of 1 to ${LOGIC_LIMITS.maxActionsPerRule} actions`);
    return undefined;
  }
  const actions = raw.map((item, index) => readAction(item, report, [...at, index]));
  const routes = actions.flatMap((action, index) => (action && !('calculate' in action) ? [index] : []));
  for (const index of routes.slice(1)) report([...at, index], 'A rule routes at most once: one of goTo, complete or invalid in its list');
  const read = actions.filter((action) => action !== undefined);
  return read.length === actions.length ? read : undefined;
}

/** A step's `logic`, read into `StepLogic` with every shape problem reported (what could be read is kept). */
function readLogic(raw: unknown, report: Report): StepLogic | undefined {
  if (absent(raw)) return undefined;
  if (!isObject(raw)) {
    report([], `"logic" must be an object {rules, next}, not ${describe(raw)}`);
    return undefined;
  }
  for (const key of Object.keys(raw)) if (key !== 'rules' && key !== 'next' && raw[key] !== undefined) report([key], `Unknown key "${key}"; logic takes "rules" and "next"`);
  const logic: StepLogic = { rules: [] };
  if (!absent(raw.next)) {
    if (typeof raw.next === 'string' && KEY_PATTERN.test(raw.next)) logic.next = raw.next;
    else report(['next'], '"next" must be a step key');
  }
  const rules = absent(raw.rules) ? [] : raw.rules;
  if (!Array.isArray(rules)) {
    report(['rules'], '"rules" must be a list');
    return logic;
  }
  if (rules.length > LOGIC_LIMITS.maxRulesPerStep) report(['rules'], `A step may have at most ${LOGIC_LIMITS.maxRulesPerStep} rules`);
  rules.slice(0, LOGIC_LIMITS.maxRulesPerStep).forEach((rawRule, index) => {
    const at = ['rules', index];
    if (!isObject(rawRule)) {
      report(at, 'A rule must be an object {if, then}');
      return;
    }
    for (const key of Object.keys(rawRule))
      if (key !== 'if' && key !== 'then' && rawRule[key] !== undefined) report([...at, key], `Unknown key "${key}"; a rule takes "if" and "then"`);
    const condition = readCondition(rawRule.if, report, [...at, 'if'], 0, { left: LOGIC_LIMITS.maxConditionsPerRule });
    const action = readThen(rawRule.then, report, [...at, 'then']);
    // A part that could not be read stays undefined (its problem is reported, so this logic is never
    // stored): the rule keeps its index, and checkFormLogic still checks the part that could.
    logic.rules.push({ if: condition, then: action } as LogicRule);
  });
  return logic;
}

/** The `logic` of a step in the generate input: read by hand so that every problem has its path. */
export const logicSchema = z
  .unknown()
  .transform((raw, ctx): StepLogic | undefined => readLogic(raw, (path, message) => ctx.addIssue({ code: 'custom', path, message, input: raw })))
  .meta({ $ref: '#/components/schemas/StepLogic', description: 'Where the respondent goes after this step (docs/logic.md).' });

// ---------------------------------------------------------------- the OpenAPI document's picture of it

const docValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.union([z.string(), z.number()]))]);
/** The JSON schema of a condition, for the OpenAPI document only (`readCondition` checks the input). */
export const conditionDocSchema: z.ZodType = z
  .lazy(() =>
    z.union([
      z.strictObject({ all: z.array(conditionDocSchema).min(1) }),
      z.strictObject({ any: z.array(conditionDocSchema).min(1) }),
      z.strictObject({ not: conditionDocSchema }),
      z.strictObject({
        question: z.string().meta({ description: "A component's key." }),
        field: z.string().optional().meta({ description: 'An IdentityInfo field key, a Matrix row or a Ranking option.' }),
        op: z.enum(CONDITION_OPS),
        value: docValue.optional(),
      }),
      z.strictObject({ hidden: z.string().meta({ description: 'A declared hidden field.' }), op: z.enum(CONDITION_OPS), value: docValue.optional() }),
    ]),
  )
  .meta({
    id: 'Condition',
    description: `A test on earlier answers or hidden fields; groups nest at most ${LOGIC_LIMITS.maxConditionDepth} deep, at most ${LOGIC_LIMITS.maxConditionsPerRule} conditions a rule.`,
  });
export const stepLogicDocSchema = z
  .strictObject({
    rules: z
      .array(
        z.strictObject({
          if: conditionDocSchema,
          then: z.union([z.strictObject({ goTo: z.string() }), z.strictObject({ complete: z.literal(true) }), z.strictObject({ invalid: z.literal(true) })]),
        }),
      )
      .max(LOGIC_LIMITS.maxRulesPerStep)
      .optional()
      .meta({ description: 'Evaluated in order when the step is submitted; the first that holds decides.' }),
    next: z.string().optional().meta({ description: 'The step that follows when no rule holds (default: the next step). A later step.' }),
  })
  .meta({ id: 'StepLogic', description: 'Rules deciding the step that follows, or an end (complete, invalid).' });

// ---------------------------------------------------------------- references

/** What the form-wide check reads of a step (the partly parsed input: anything may be missing). */
interface StepInput {
  key?: unknown;
  completion?: unknown;
  invalid?: unknown;
  logic?: unknown;
  components?: unknown;
}

/** The declared variables' types by name; a name that is also a hidden field's is reported. */
function declaredVariables(raw: unknown, hidden: ReadonlySet<string>, report: Report): Map<string, 'number' | 'text'> {
  const variables = new Map<string, 'number' | 'text'>();
  if (!Array.isArray(raw)) return variables;
  raw.forEach((variable: unknown, index) => {
    if (!isObject(variable) || !isKey(variable.name) || (variable.type !== 'number' && variable.type !== 'text')) return;
    if (hidden.has(variable.name)) report(['variables', index, 'name'], `"${variable.name}" is also a hidden field: a variable's name must be its own`);
    if (!variables.has(variable.name)) variables.set(variable.name, variable.type);
  });
  return variables;
}

/** Components whose own validation failed: their key is known, their content not to be trusted. */
export const unreadComponents = new WeakSet<object>();

const isKey = (value: unknown): value is string => typeof value === 'string' && KEY_PATTERN.test(value);

/** The subject a condition on `component` (and `field`) tests, or what is wrong. */
function subjectOf(component: StoredComponent, field: string | undefined): ConditionSubject | { problem: string; at: 'op' | 'field' } {
  const rules = moduleOf(component.type)?.conditions;
  if (!rules) return { problem: `A ${component.type} takes no answer: no condition can test it`, at: 'op' };
  const subject = rules.subject(component, field);
  return typeof subject === 'string' ? { problem: subject, at: 'field' } : subject;
}

const SUBJECT_NAMES: Record<ConditionSubject['kind'], string> = {
  text: 'a text answer',
  number: 'a number',
  date: 'a date',
  choice: 'a single choice',
  choices: 'a multiple choice',
  boolean: 'a yes/no answer',
  presence: 'an answer that can only be tested for presence',
};

/** A leaf's op and value against what its subject is. */
function checkLeaf(leaf: { op: ConditionOp; value?: ConditionValue }, subject: ConditionSubject, what: string, report: Report, at: Path) {
  const ops = SUBJECT_OPS[subject.kind];
  if (!ops.includes(leaf.op)) {
    report([...at, 'op'], `"${leaf.op}" can't test ${what} (${SUBJECT_NAMES[subject.kind]}); use one of ${ops.join(', ')}`);
    return;
  }
  const { value } = leaf;
  if (value === undefined) return;
  if (subject.kind === 'boolean') {
    if (typeof value !== 'boolean') report([...at, 'value'], `${what} is true or false: compare with true or false`);
    return;
  }
  if (typeof value === 'boolean') {
    report([...at, 'value'], `${what} is not true or false: compare with a text or a number`);
    return;
  }
  if (subject.kind === 'number') return checkNumbers(leaf.op, value, subject, what, report, at);
  if (subject.kind === 'date') {
    const items = Array.isArray(value) ? value : [value];
    items.forEach((item, index) => {
      if (!isCalendarDate(item)) report(Array.isArray(value) ? [...at, 'value', index] : [...at, 'value'], `${what} is a date: compare with a date written YYYY-MM-DD`);
    });
    return;
  }
  if (leaf.op === 'between' && Array.isArray(value) && !value.every((end) => typeof end === 'number')) {
    report([...at, 'value'], `${what} is compared by "between" as a number: give two numbers`);
    return;
  }
  const options = subject.kind === 'choice' || subject.kind === 'choices' ? subject.options : undefined;
  if (!options) return;
  const notAnOption = (item: string | number) => typeof item !== 'string' || !options.includes(item);
  if (Array.isArray(value)) value.forEach((item, index) => notAnOption(item) && report([...at, 'value', index], `"${item}" is not one of the options of ${what}`));
  else if (notAnOption(value)) report([...at, 'value'], `"${value}" is not one of the options of ${what}`);
}

/** A leaf's cost: one per listed value of an `in`/`notIn`, else 1. */
const leafCost = (leaf: Condition) => ('value' in leaf && Array.isArray(leaf.value) ? Math.max(leaf.value.length, 1) : 1);

/** Every leaf of a condition with its path, in order. */
function* leavesOf(condition: Condition, at: Path): Generator<[Condition, Path]> {
  if ('all' in condition) for (const [i, c] of condition.all.entries()) yield* leavesOf(c, [...at, 'all', i]);
  else if ('any' in condition) for (const [i, c] of condition.any.entries()) yield* leavesOf(c, [...at, 'any', i]);
  else if ('not' in condition) yield* leavesOf(condition.not, [...at, 'not']);
  else yield [condition, at];
}

/** The form's rules within LOGIC_LIMITS.maxRuleCost: beyond it, one problem at the leaf that passes it. */
function checkRuleCost(steps: readonly StepInput[], report: Report): void {
  let total = 0;
  let passedAt: Path | undefined;
  steps.forEach((step, index) => {
    const logic = isObject(step.logic) ? (step.logic as unknown as StepLogic) : undefined;
    (Array.isArray(logic?.rules) ? logic.rules : []).forEach((rule: Partial<LogicRule>, r) => {
      if (!rule.if) return;
      for (const [leaf, at] of leavesOf(rule.if, ['steps', index, 'logic', 'rules', r, 'if'])) {
        total += leafCost(leaf);
        if (total > LOGIC_LIMITS.maxRuleCost && !passedAt) passedAt = at;
      }
    });
  });
  if (passedAt) {
    report(
      passedAt,
      `A form's rules may compare at most ${LOGIC_LIMITS.maxRuleCost.toLocaleString('en')} values in all (a condition counts 1, an "in" or "notIn" list one per value); these compare ${total.toLocaleString('en')}, and this condition passes the limit`,
    );
  }
}

/**
 * The values of a leaf on a number: numbers, and (for equals, notEquals, in, notIn) within the range
 * the question answers, so a condition that could never hold is refused.
 */
function checkNumbers(
  op: ConditionOp,
  value: Exclude<ConditionValue, boolean>,
  subject: { min?: number | undefined; max?: number | undefined },
  what: string,
  report: Report,
  at: Path,
) {
  const ranged = op === 'equals' || op === 'notEquals' || op === 'in' || op === 'notIn';
  const range = `${subject.min ?? '…'} to ${subject.max ?? '…'}`;
  const check = (item: string | number, path: Path) => {
    if (typeof item !== 'number') report(path, `${what} is a number: compare with a number, not a text`);
    else if (ranged && ((subject.min !== undefined && item < subject.min) || (subject.max !== undefined && item > subject.max))) {
      report(path, `${what} answers ${range}: ${item} is never its answer`);
    }
  };
  if (Array.isArray(value)) value.forEach((item, index) => check(item, [...at, 'value', index]));
  else check(value, [...at, 'value']);
}

/**
 * The references of a whole form: keys unique, `goTo`/`next` to later steps, conditions on components of
 * their own or earlier steps with ops their types answer, hidden conditions on declared names, no
 * questions and no logic on completion or invalid steps. Reads the partly parsed input defensively
 * (run even when other parts failed, so that every problem is reported at once); paths from the body's root.
 */
export function checkFormLogic(input: { steps?: unknown; hiddenFields?: unknown; variables?: unknown }, report: Report): void {
  if (!Array.isArray(input.steps)) return;
  const steps = input.steps.map((step): StepInput => (isObject(step) ? step : {}));
  const hidden = new Set(Array.isArray(input.hiddenFields) ? input.hiddenFields.filter(isKey) : []);
  const variables = declaredVariables(input.variables, hidden, report);

  // Step keys: unique. Explicit keys first, so that a default colliding with one is reported at the
  // explicit key (the one a client chose).
  const stepIndex = new Map<string, number>();
  const explicitKeys = steps.map((step) => (isKey(step.key) ? step.key : undefined));
  explicitKeys.forEach((key, index) => {
    if (key === undefined) return;
    if (stepIndex.has(key)) report(['steps', index, 'key'], `Step key "${key}" is already the key of step ${stepIndex.get(key)! + 1}`);
    else stepIndex.set(key, index);
  });
  explicitKeys.forEach((explicit, index) => {
    if (explicit !== undefined) return;
    const key = defaultStepKey(index);
    const owner = stepIndex.get(key);
    if (owner !== undefined) {
      report(['steps', owner, 'key'], `"${key}" is the default key of step ${index + 1}, which has no key of its own: give one of the two steps another key`);
    } else stepIndex.set(key, index);
  });

  // Component keys: unique across the form.
  const components = new Map<string, { component: StoredComponent; stepIndex: number; unread: boolean }>();
  steps.forEach((step, index) => {
    if (!Array.isArray(step.components)) return;
    step.components.forEach((component: unknown, position) => {
      if (!isObject(component)) return;
      const key = component.key;
      const unread = unreadComponents.has(component) || typeof component.type !== 'string' || !isObject(component.content);
      const final = step.completion === true ? 'completion' : step.invalid === true ? 'invalid' : undefined;
      if (final && !unread && isAnswerable(component.type as string)) {
        report(['steps', index, 'components', position], `A ${final} step ends the response: it can't ask questions (a ${String(component.type)} takes an answer)`);
      }
      if (!isKey(key)) return;
      if (components.has(key)) {
        report(['steps', index, 'components', position, 'key'], `Component key "${key}" is already used on step ${components.get(key)!.stepIndex + 1}`);
        return;
      }
      components.set(key, { component: component as unknown as StoredComponent, stepIndex: index, unread });
    });
  });

  const target = (name: string, from: number, at: Path) => {
    const index = stepIndex.get(name);
    if (index === undefined) report(at, `No step has the key "${name}"`);
    else if (index <= from) report(at, `"${name}" is ${index === from ? 'this step' : 'an earlier step'}: logic only goes forward, to a later step`);
  };

  checkRuleCost(steps, report);

  steps.forEach((step, index) => {
    const at: Path = ['steps', index];
    if (step.completion === true && step.invalid === true) report([...at, 'invalid'], 'A step is a completion step or an invalid step, not both');
    const logic = isObject(step.logic) ? (step.logic as unknown as StepLogic) : undefined;
    if (!logic) return;
    if (step.completion === true || step.invalid === true) {
      report([...at, 'logic'], `A ${step.completion === true ? 'completion' : 'invalid'} step ends the response: it takes no logic`);
      return;
    }
    if (logic.next !== undefined) target(logic.next, index, [...at, 'logic', 'next']);
    logic.rules.forEach((rule: Partial<LogicRule>, r) => {
      const ruleAt: Path = [...at, 'logic', 'rules', r];
      const listed = Array.isArray(rule.then);
      actionsOf(rule.then).forEach((action, a) => {
        const actionAt: Path = listed ? [...ruleAt, 'then', a] : [...ruleAt, 'then'];
        if ('goTo' in action) target(action.goTo, index, [...actionAt, 'goTo']);
        if ('calculate' in action) checkCalculation(action, [...actionAt, 'calculate']);
      });
      if (rule.if) checkConditionReferences({ components, hidden, variables, report }, rule.if, [...ruleAt, 'if'], index);
    });

    /** A component a step's calculation reads: on this step or an earlier one. */
    function readable(key: string, at: Path) {
      const found = components.get(key);
      if (!found) report(at, `No component has the key "${key}"`);
      else if (found.stepIndex > index) report(at, `"${key}" is on a later step: a step's calculations read its own questions and earlier ones`);
      else return found;
      return undefined;
    }

    function checkCalculation({ calculate }: CalculateAction, cAt: Path): void {
      const type = variables.get(calculate.variable);
      if (!type) return report([...cAt, 'variable'], `"${calculate.variable}" is not a declared variable (variables)`);
      const { op, value } = calculate;
      if (type === 'number' && op === 'append') return report([...cAt, 'op'], `"append" adds to a text: "${calculate.variable}" is a number variable`);
      if (type === 'text' && op !== 'set' && op !== 'append')
        return report([...cAt, 'op'], `"${op}" is arithmetic: "${calculate.variable}" is a text variable (use set or append)`);
      const valueAt = [...cAt, 'value'];
      if (typeof value === 'number' || typeof value === 'string') {
        if (typeof value !== (type === 'number' ? 'number' : 'string'))
          report(valueAt, `"${calculate.variable}" is a ${type} variable: give a ${type === 'number' ? 'number' : 'text'}`);
        return;
      }
      if ('variable' in value) {
        const other = variables.get(value.variable);
        if (!other) report([...valueAt, 'variable'], `"${value.variable}" is not a declared variable (variables)`);
        else if (other !== type) report([...valueAt, 'variable'], `"${value.variable}" is a ${other} variable; "${calculate.variable}" takes a ${type}`);
        return;
      }
      if ('scoreOf' in value) {
        const found = readable(value.scoreOf, [...valueAt, 'scoreOf']);
        if (type === 'text') report([...valueAt, 'scoreOf'], `A score is a number; "${calculate.variable}" is a text variable`);
        else if (found && !found.unread && !isObject(found.component.content.optionScores)) report([...valueAt, 'scoreOf'], `"${value.scoreOf}" has no optionScores`);
        return;
      }
      const found = readable(value.question, [...valueAt, 'question']);
      if (found && !found.unread && !moduleOf(found.component.type)?.conditions)
        report([...valueAt, 'question'], `A ${found.component.type} takes no answer a calculation can read`);
    }
  });
}

/** What a condition's leaves may name: the form's components (by key), hidden fields and variables. */
interface References {
  components: ReadonlyMap<string, { component: StoredComponent; stepIndex: number; unread: boolean }>;
  hidden: ReadonlySet<string>;
  variables: ReadonlyMap<string, 'number' | 'text'>;
  report: Report;
}

/** A condition's leaves against what they name; a question must be on step `upTo` or an earlier one. */
function checkConditionReferences(refs: References, condition: Condition, at: Path, upTo: number): void {
  const { report } = refs;
  if ('all' in condition) return condition.all.forEach((c, i) => checkConditionReferences(refs, c, [...at, 'all', i], upTo));
  if ('any' in condition) return condition.any.forEach((c, i) => checkConditionReferences(refs, c, [...at, 'any', i], upTo));
  if ('not' in condition) return checkConditionReferences(refs, condition.not, [...at, 'not'], upTo);
  if ('variable' in condition) {
    const type = refs.variables.get(condition.variable);
    if (!type) report([...at, 'variable'], `"${condition.variable}" is not a declared variable (variables)`);
    else checkLeaf(condition, type === 'number' ? { kind: 'number' } : { kind: 'text' }, `variable "${condition.variable}"`, report, at);
    return;
  }
  if ('hidden' in condition) {
    if (!refs.hidden.has(condition.hidden)) report([...at, 'hidden'], `"${condition.hidden}" is not a declared hidden field (hiddenFields)`);
    else checkLeaf(condition, { kind: 'text' }, `hidden field "${condition.hidden}"`, report, at);
    return;
  }
  const found = refs.components.get(condition.question);
  if (!found) return report([...at, 'question'], `No component has the key "${condition.question}"`);
  if (found.stepIndex > upTo) return report([...at, 'question'], `"${condition.question}" is on a later step: a step's rules test its own questions and earlier ones`);
  if (found.unread) return;
  const subject = subjectOf(found.component, condition.field);
  if ('problem' in subject) report([...at, subject.at], subject.problem);
  else checkLeaf(condition, subject, `"${condition.question}"`, report, at);
}

/** A quota's or another form-wide condition's shape (as a rule's `if`), read into `Condition`. */
export const readFormCondition = (raw: unknown, report: Report, at: Path): Condition | undefined => readCondition(raw, report, at, 0, { left: LOGIC_LIMITS.maxConditionsPerRule });

/**
 * The references of form-wide conditions (`conditions`: each with its path from the body's root), which
 * see every answer of the form: any component, the declared hidden fields and variables.
 */
export function checkFormConditions(input: { steps?: unknown; hiddenFields?: unknown; variables?: unknown }, conditions: readonly [Condition, Path][], report: Report): void {
  if (!Array.isArray(input.steps) || conditions.length === 0) return;
  const components = new Map<string, { component: StoredComponent; stepIndex: number; unread: boolean }>();
  input.steps.forEach((step: unknown, stepIndex) => {
    const list = isObject(step) && Array.isArray(step.components) ? (step.components as unknown[]) : [];
    for (const component of list) {
      if (!isObject(component) || !isKey(component.key) || components.has(component.key)) continue;
      const unread = unreadComponents.has(component) || typeof component.type !== 'string' || !isObject(component.content);
      components.set(component.key, { component: component as unknown as StoredComponent, stepIndex, unread });
    }
  });
  const hidden = new Set(Array.isArray(input.hiddenFields) ? input.hiddenFields.filter(isKey) : []);
  const variables = declaredVariables(input.variables, hidden, () => {});
  for (const [condition, at] of conditions) checkConditionReferences({ components, hidden, variables, report }, condition, at, input.steps.length);
}
