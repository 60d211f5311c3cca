/**
 * The walk of src/responses/path.ts, exactly: the order rules are evaluated in and which decides,
 * completion and invalid steps and actions, `next`, the end, a quota's diversion, the calculations of
 * variables (each op on numbers and texts, operands from constants, answers, scores and other variables),
 * `hasLogic`, `pathKeys` and `pathIndexes`. `npm run mutate -- path` runs these.
 */
import { describe, expect, it } from 'vitest';
import type { StoredResponse } from '../../src/components/answers.ts';
import type { CalculateAction, Condition, FormVariable, LogicAction } from '../../src/components/conditions.ts';
import type { StoredComponent, StoredStep } from '../../src/db/json-columns.ts';
import { variablesSchema } from '../../src/forms/logic.ts';
import { hasLogic, initialVariables, logicIndex, MAX_VARIABLE_TEXT, pathIndexes, pathKeys, walkPath } from '../../src/responses/path.ts';

const text = (key: string): StoredComponent => ({ id: `id_${key}`, key, type: 'ShortInput', content: {} });
type Rule = { if: Condition; then: LogicAction | LogicAction[] };
const step = (key: string | undefined, extra: Partial<StoredStep> & { rules?: Rule[]; next?: string } = {}): StoredStep => {
  const { rules, next, ...rest } = extra;
  const logic = rules || next ? { ...(rules ? { rules } : {}), ...(next ? { next } : {}) } : undefined;
  return { id: `s_${key}`, ...(key === undefined ? {} : { key }), name: key ?? 'unnamed', components: [], ...(logic ? { logic } : {}), ...rest } as StoredStep;
};
const answersOf = (entries: Record<string, Record<string, unknown>>) => new Map(Object.entries(entries).map(([key, response]) => [`id_${key}`, response as StoredResponse]));
const noAnswers = new Map<string, StoredResponse>();
const everyStep = () => true;
const yes: Condition = { all: [] };
const no: Condition = { any: [] };

describe('routing', () => {
  it('without logic: every step in order, then the end', () => {
    const steps = [step('a'), step('b'), step('c')];
    expect(walkPath(steps, noAnswers, {}, everyStep)).toEqual({ path: [0, 1, 2], state: 'end', next: null, variables: {} });
    expect(walkPath(steps, noAnswers, {}, (s) => s < 1)).toEqual({ path: [0], state: 'open', next: 1, variables: {} });
    expect(walkPath(steps, noAnswers, {}, () => false)).toEqual({ path: [], state: 'open', next: 0, variables: {} });
    expect(walkPath([step('only')], noAnswers, {}, everyStep)).toEqual({ path: [0], state: 'end', next: null, variables: {} });
  });

  it('the first rule that holds and routes decides, in order', () => {
    const steps = (rules: Rule[]) => [step('a', { rules }), step('b'), step('c'), step('d')];
    const walk = (rules: Rule[]) => walkPath(steps(rules), noAnswers, {}, everyStep).path;
    expect(
      walk([
        { if: yes, then: { goTo: 'c' } },
        { if: yes, then: { goTo: 'd' } },
      ]),
    ).toEqual([0, 2, 3]);
    expect(
      walk([
        { if: no, then: { goTo: 'c' } },
        { if: yes, then: { goTo: 'd' } },
      ]),
    ).toEqual([0, 3]);
    expect(
      walk([
        { if: no, then: { goTo: 'c' } },
        { if: no, then: { goTo: 'd' } },
      ]),
    ).toEqual([0, 1, 2, 3]);
    // A rule that holds but does nothing does not stop the rules after it.
    expect(
      walk([
        { if: yes, then: [] },
        { if: yes, then: { goTo: 'd' } },
      ]),
    ).toEqual([0, 3]);
    expect(walk([])).toEqual([0, 1, 2, 3]);
  });

  it('complete and invalid end the response at the step; a completion or invalid step ends it there', () => {
    const at = (then: LogicAction) => walkPath([step('a'), step('b', { rules: [{ if: yes, then }] }), step('c')], noAnswers, {}, everyStep);
    expect(at({ complete: true })).toEqual({ path: [0, 1], state: 'completed', next: null, variables: {} });
    expect(at({ invalid: true })).toEqual({ path: [0, 1], state: 'invalid', next: null, variables: {} });
    expect(walkPath([step('a'), step('done', { completion: true }), step('c')], noAnswers, {}, everyStep)).toEqual({ path: [0, 1], state: 'completed', next: null, variables: {} });
    expect(walkPath([step('a'), step('out', { invalid: true }), step('c')], noAnswers, {}, everyStep)).toEqual({ path: [0, 1], state: 'invalid', next: null, variables: {} });
    // A final step ends the walk even before it is submitted.
    expect(walkPath([step('done', { completion: true })], noAnswers, {}, () => false)).toEqual({ path: [0], state: 'completed', next: null, variables: {} });
    expect(walkPath([step('out', { invalid: true })], noAnswers, {}, () => false)).toEqual({ path: [0], state: 'invalid', next: null, variables: {} });
  });

  it('goTo a later step, the last one included; an unknown target falls through; going past the last step ends', () => {
    const steps = (then: LogicAction, next?: string) => [step('a', { rules: [{ if: yes, then }], ...(next ? { next } : {}) }), step('b'), step('c')];
    expect(walkPath(steps({ goTo: 'c' }), noAnswers, {}, everyStep).path).toEqual([0, 2]);
    expect(walkPath(steps({ goTo: 'nowhere' }), noAnswers, {}, everyStep).path).toEqual([0, 1, 2]);
    expect(walkPath(steps({ goTo: 'nowhere' }, 'c'), noAnswers, {}, everyStep).path).toEqual([0, 1, 2]);
    expect(walkPath(steps({ goTo: 'c' }), noAnswers, {}, (s) => s === 0)).toEqual({ path: [0], state: 'open', next: 2, variables: {} });
  });

  it('`next` when no rule routes; a rule that routes wins over it', () => {
    const steps = (rule: Condition) => [step('a', { rules: [{ if: rule, then: { goTo: 'b' } }], next: 'c' }), step('b'), step('c')];
    expect(walkPath(steps(no), noAnswers, {}, everyStep).path).toEqual([0, 2]);
    expect(walkPath(steps(yes), noAnswers, {}, everyStep).path).toEqual([0, 1, 2]);
    const withoutRules = [step('a', { next: 'c' }), step('b', { next: 'c' }), step('c')];
    expect(walkPath(withoutRules, noAnswers, {}, everyStep).path).toEqual([0, 2]);
  });

  it('rules read the answers of the steps gone through', () => {
    const steps = [
      { ...step('a'), components: [text('qa')] },
      { ...step('b', { rules: [{ if: { question: 'qa', op: 'equals', value: 'go' }, then: { goTo: 'd' } }] }), components: [text('qb')] },
      step('c'),
      step('d'),
    ];
    expect(walkPath(steps, answersOf({ qa: { type: 'ShortInput', input: 'go' } }), {}, everyStep).path).toEqual([0, 1, 3]);
    expect(walkPath(steps, answersOf({ qa: { type: 'ShortInput', input: 'stay' } }), {}, everyStep).path).toEqual([0, 1, 2, 3]);
    expect(walkPath(steps, answersOf({ qa: { type: 'ShortInput', input: 'go' } }), { x: 'y' }, (s) => s !== 0).path).toEqual([]);
  });

  it('rules read the hidden fields', () => {
    const steps = [step('a', { rules: [{ if: { hidden: 'plan', op: 'equals', value: 'pro' }, then: { complete: true } }] }), step('b')];
    expect(walkPath(steps, noAnswers, { plan: 'pro' }, everyStep).state).toBe('completed');
    expect(walkPath(steps, noAnswers, { plan: 'free' }, everyStep).state).toBe('end');
  });
});

describe('a diverted walk (a full quota)', () => {
  const steps = [step('a'), step('b'), step('full', { completion: true }), step('thanks', { completion: true })];
  it('the first time the walk would finish it goes on at the step given instead', () => {
    expect(walkPath(steps, noAnswers, {}, everyStep, undefined, undefined, 3)).toEqual({ path: [0, 1, 3], state: 'completed', next: null, variables: {} });
    expect(walkPath(steps, noAnswers, {}, everyStep, undefined, undefined, 2)).toEqual({ path: [0, 1, 2], state: 'completed', next: null, variables: {} });
    expect(walkPath(steps, noAnswers, {}, everyStep)).toEqual({ path: [0, 1, 2], state: 'completed', next: null, variables: {} });
    const ending = [step('a', { rules: [{ if: yes, then: { complete: true } }] }), step('b'), step('full', { completion: true })];
    expect(walkPath(ending, noAnswers, {}, everyStep, undefined, undefined, 2)).toEqual({ path: [0, 2], state: 'completed', next: null, variables: {} });
    expect(walkPath(ending, noAnswers, {}, everyStep, undefined, undefined, 1)).toEqual({ path: [0, 1, 2], state: 'completed', next: null, variables: {} });
  });

  it('at a completion step, past the last step, once only', () => {
    const linear = [step('a'), step('done', { completion: true }), step('full'), step('last')];
    expect(walkPath(linear, noAnswers, {}, everyStep, undefined, undefined, 2)).toEqual({ path: [0, 2, 3], state: 'end', next: null, variables: {} });
    expect(walkPath(linear, noAnswers, {}, (s) => s === 0, undefined, undefined, 2)).toEqual({ path: [0], state: 'open', next: 2, variables: {} });
    // Past the last step into an earlier step: that step is walked again, and finishing then ends.
    const open = [step('a'), step('b')];
    expect(walkPath(open, noAnswers, {}, everyStep, undefined, undefined, 0)).toEqual({ path: [0, 1, 0, 1], state: 'end', next: null, variables: {} });
    expect(walkPath(open, noAnswers, {}, everyStep, undefined, undefined, 1)).toEqual({ path: [0, 1, 1], state: 'end', next: null, variables: {} });
  });

  it('an invalid end is not diverted', () => {
    const invalid = [step('a', { rules: [{ if: yes, then: { invalid: true } }] }), step('full', { completion: true })];
    expect(walkPath(invalid, noAnswers, {}, everyStep, undefined, undefined, 1)).toEqual({ path: [0], state: 'invalid', next: null, variables: {} });
    const invalidStep = [step('a'), step('out', { invalid: true }), step('full', { completion: true })];
    expect(walkPath(invalidStep, noAnswers, {}, everyStep, undefined, undefined, 2)).toEqual({ path: [0, 1], state: 'invalid', next: null, variables: {} });
  });

  it('a step index out of range diverts nowhere', () => {
    const linear = [step('a'), step('b')];
    for (const divert of [-1, 2, 5])
      expect(walkPath(linear, noAnswers, {}, everyStep, undefined, undefined, divert), String(divert)).toEqual({ path: [0, 1], state: 'end', next: null, variables: {} });
    expect(walkPath(linear, noAnswers, {}, everyStep, undefined, undefined, 1)).toEqual({ path: [0, 1, 1], state: 'end', next: null, variables: {} });
  });
});

// ---------------------------------------------------------------- variables

const numberVar = (name: string, initial: number): FormVariable => ({ name, type: 'number', initial });
const textVar = (name: string, initial: string): FormVariable => ({ name, type: 'text', initial });
const calc = (variable: string, op: CalculateAction['calculate']['op'], value: CalculateAction['calculate']['value']): CalculateAction => ({ calculate: { variable, op, value } });

const questions: StoredComponent[] = [
  text('words'),
  text('amount'),
  { id: 'id_size', key: 'size', type: 'Dropdown', content: { options: ['A', 'B', 'C', 'D'], optionScores: { A: 1, B: 2.5, C: -3, D: 'x' } } },
  { id: 'id_tags', key: 'tags', type: 'Dropdown', content: { options: ['A', 'B', 'C', 'D'], isMulti: true, optionScores: { A: 1, B: 2.5, C: -3 } } },
  { id: 'id_plain', key: 'plain', type: 'Dropdown', content: { options: ['A'] } },
  { id: 'id_nulls', key: 'nulls', type: 'Dropdown', content: { options: ['A'], optionScores: null } },
  { id: 'id_chars', key: 'chars', type: 'Dropdown', content: { options: ['length'], optionScores: 'abc' } },
  { id: 'id_nan', key: 'nan', type: 'Dropdown', content: { options: ['A'], optionScores: { A: Number.NaN } } },
  { id: 'id_count', key: 'count', type: 'Number', content: { min: 0, max: 5, optionScores: { 3: 30 } } },
  { id: 'id_agree', key: 'agree', type: 'Disclaimer', content: { optionScores: { true: 5 } } },
  { id: 'id_grid', key: 'grid', type: 'Matrix', content: { rows: ['r'], columns: ['7'] } },
  { id: 'id_title', key: 'title', type: 'Header', content: {} },
  { id: 'id_odd', key: 'odd', type: 'NoSuchType', content: {} },
  { id: 'id_named', key: 'named', type: 'Dropdown', content: { options: ['undefined'], optionScores: { undefined: 4 } } },
];
const stored = answersOf({
  words: { type: 'ShortInput', input: 'hello' },
  amount: { type: 'ShortInput', input: ' 2.5 ' },
  size: { type: 'Dropdown', selected: 'B' },
  tags: { type: 'Dropdown', selected: ['A', 'C', 'D'] },
  plain: { type: 'Dropdown', selected: 'A' },
  nulls: { type: 'Dropdown', selected: 'A' },
  chars: { type: 'Dropdown', selected: 'length' },
  nan: { type: 'Dropdown', selected: 'A' },
  count: { type: 'Number', value: 3 },
  agree: { type: 'Disclaimer', check: true },
  grid: { type: 'Matrix', rows: { r: '7' } },
  title: { type: 'Header' },
  odd: { type: 'NoSuchType', value: 5 },
});

/** The variables after one step holding the questions above whose one rule (always holding) runs `actions`. */
function after(actions: LogicAction[], variables: FormVariable[], answers = stored) {
  const steps = [{ ...step('a', { rules: [{ if: yes, then: actions }] }), components: questions }];
  return walkPath(steps, answers, {}, everyStep, undefined, variables).variables;
}

describe('number variables', () => {
  const n = (initial = 10) => [numberVar('n', initial)];
  it('each op with a constant, in order', () => {
    expect(after([calc('n', 'add', 5)], n())).toEqual({ n: 15 });
    expect(after([calc('n', 'subtract', 3)], n())).toEqual({ n: 7 });
    expect(after([calc('n', 'multiply', 2)], n())).toEqual({ n: 20 });
    expect(after([calc('n', 'divide', 4)], n())).toEqual({ n: 2.5 });
    expect(after([calc('n', 'set', -1.5)], n())).toEqual({ n: -1.5 });
    expect(after([calc('n', 'add', 5), calc('n', 'multiply', 3), calc('n', 'subtract', 1), calc('n', 'divide', 2)], n())).toEqual({ n: 22 });
  });

  it('dividing by zero leaves the variable as it was; a result that is not finite too', () => {
    expect(after([calc('n', 'divide', 0)], n())).toEqual({ n: 10 });
    expect(after([calc('n', 'divide', '0')], n())).toEqual({ n: 10 });
    expect(after([calc('n', 'multiply', 1e300), calc('n', 'multiply', 1e300)], n())).toEqual({ n: 1e301 });
    expect(after([calc('n', 'add', 1e308), calc('n', 'add', 1e308)], n(0))).toEqual({ n: 1e308 });
    expect(after([calc('n', 'subtract', 1e305)], n(0))).toEqual({ n: -1e305 });
  });

  it('a number too large to have decimals is kept whole, as a variable starts and as a rule leaves it', () => {
    const [declared] = variablesSchema.parse([{ name: 'n', type: 'number', initial: 1e305 }]);
    expect(declared).toEqual({ name: 'n', type: 'number', initial: 1e305 });
    expect(variablesSchema.parse([{ name: 'n', type: 'number', initial: 0.1234567 }])[0]!.initial).toBe(0.123457);
    expect(after([calc('n', 'multiply', 10)], n(1e303))).toEqual({ n: 1e304 });
  });

  it('results are rounded to 6 decimal places', () => {
    expect(after([calc('n', 'set', 0.1), calc('n', 'add', 0.2)], n())).toEqual({ n: 0.3 });
    expect(after([calc('n', 'divide', 3)], n(1))).toEqual({ n: 0.333333 });
    expect(after([calc('n', 'multiply', -0)], n(0))).toEqual({ n: 0 });
    expect(Object.is(after([calc('n', 'multiply', -1)], n(0)).n, 0)).toBe(true);
  });

  it('takes numbers and numeric texts only: append, words, choices, booleans and no answer change nothing', () => {
    expect(after([calc('n', 'add', ' 2.5 ')], n())).toEqual({ n: 12.5 });
    expect(after([calc('n', 'add', { question: 'amount' })], n())).toEqual({ n: 12.5 });
    expect(after([calc('n', 'add', { question: 'count' })], n())).toEqual({ n: 13 });
    expect(after([calc('n', 'append', 5)], n())).toEqual({ n: 10 });
    for (const value of [
      'abc',
      '',
      { question: 'words' },
      { question: 'tags' },
      { question: 'agree' },
      { question: 'grid' },
      { question: 'title' },
      { question: 'odd' },
      { question: 'nobody' },
    ]) {
      expect(after([calc('n', 'set', value)], n()), JSON.stringify(value)).toEqual({ n: 10 });
    }
  });

  it('a variable not declared, or a name of every object, is left alone', () => {
    expect(after([calc('m', 'set', 3)], n())).toEqual({ n: 10 });
    expect(after([calc('toString', 'set', 3), calc('constructor', 'set', 'x')], n())).toEqual({ n: 10 });
    expect(after([calc('n', 'set', 3)], [])).toEqual({});
  });

  it('another variable as the operand; one not declared is nothing', () => {
    const both = [numberVar('n', 10), numberVar('m', 4), textVar('t', '6')];
    expect(after([calc('n', 'add', { variable: 'm' })], both)).toEqual({ n: 14, m: 4, t: '6' });
    expect(after([calc('n', 'add', { variable: 't' })], both)).toEqual({ n: 16, m: 4, t: '6' });
    expect(after([calc('n', 'add', { variable: 'n' })], both)).toEqual({ n: 20, m: 4, t: '6' });
    expect(after([calc('n', 'set', { variable: 'gone' }), calc('m', 'set', { variable: 'toString' })], both)).toEqual({ n: 10, m: 4, t: '6' });
  });
});

describe('scores of chosen options', () => {
  const n = [numberVar('n', 9)];
  it('the score of one choice, the sum of several; an option without a score counts 0', () => {
    expect(after([calc('n', 'set', { scoreOf: 'size' })], n)).toEqual({ n: 2.5 });
    expect(after([calc('n', 'set', { scoreOf: 'tags' })], n)).toEqual({ n: -2 });
    expect(after([calc('n', 'add', { scoreOf: 'tags' })], n)).toEqual({ n: 7 });
    expect(after([calc('n', 'set', { scoreOf: 'count' })], n)).toEqual({ n: 30 });
    expect(after([calc('n', 'set', { scoreOf: 'size' })], n, answersOf({ size: { type: 'Dropdown', selected: 'D' } }))).toEqual({ n: 0 });
    expect(after([calc('n', 'set', { scoreOf: 'size' })], n, answersOf({ size: { type: 'Dropdown', selected: 'toString' } }))).toEqual({ n: 0 });
    expect(after([calc('n', 'set', { scoreOf: 'tags' })], n, answersOf({ tags: { type: 'Dropdown', selected: ['B'] } }))).toEqual({ n: 2.5 });
    expect(after([calc('n', 'set', { scoreOf: 'tags' })], n, answersOf({ tags: { type: 'Dropdown', selected: [] } }))).toEqual({ n: 0 });
  });

  it('0 unanswered, without scores, for scores that are not numbers, and for a yes/no answer', () => {
    for (const key of ['plain', 'nulls', 'chars', 'nan', 'agree', 'grid', 'title', 'nobody']) expect(after([calc('n', 'set', { scoreOf: key })], n), key).toEqual({ n: 0 });
    expect(after([calc('n', 'set', { scoreOf: 'size' })], n, noAnswers)).toEqual({ n: 0 });
    // Unanswered is 0 even when an option is named "undefined".
    expect(after([calc('n', 'set', { scoreOf: 'named' })], n)).toEqual({ n: 0 });
    expect(after([calc('n', 'set', { scoreOf: 'named' })], n, answersOf({ named: { type: 'Dropdown', selected: 'undefined' } }))).toEqual({ n: 4 });
  });

  it('a score is text to a text variable', () => {
    expect(after([calc('t', 'set', { scoreOf: 'size' })], [textVar('t', '')])).toEqual({ t: '2.5' });
  });
});

describe('text variables', () => {
  const t = (initial = 'ab') => [textVar('t', initial)];
  it('set replaces, append adds; other ops change nothing', () => {
    expect(after([calc('t', 'set', 'xy')], t())).toEqual({ t: 'xy' });
    expect(after([calc('t', 'append', 'xy')], t())).toEqual({ t: 'abxy' });
    expect(after([calc('t', 'append', 'c'), calc('t', 'append', 'd'), calc('t', 'set', 'e'), calc('t', 'append', 'f')], t())).toEqual({ t: 'ef' });
    for (const op of ['add', 'subtract', 'multiply', 'divide'] as const) expect(after([calc('t', op, 'xy')], t()), op).toEqual({ t: 'ab' });
  });

  it('operands as text: a number as written, chosen options joined by ", "; nothing for no answer', () => {
    expect(after([calc('t', 'append', 5)], t())).toEqual({ t: 'ab5' });
    expect(after([calc('t', 'set', 2.5)], t())).toEqual({ t: '2.5' });
    expect(after([calc('t', 'set', { question: 'tags' })], t())).toEqual({ t: 'A, C, D' });
    expect(after([calc('t', 'set', { question: 'words' })], t())).toEqual({ t: 'hello' });
    expect(after([calc('t', 'set', { question: 'count' })], t())).toEqual({ t: '3' });
    expect(after([calc('t', 'set', { question: 'tags' })], t(), answersOf({ tags: { type: 'Dropdown', selected: ['B'] } }))).toEqual({ t: 'B' });
    for (const value of ['', { question: 'agree' }, { question: 'grid' }, { question: 'nobody' }, { variable: 'none' }]) {
      expect(after([calc('t', 'set', value)], t()), JSON.stringify(value)).toEqual({ t: 'ab' });
    }
    expect(after([calc('t', 'set', { question: 'tags' })], t(), answersOf({ tags: { type: 'Dropdown', selected: [] } }))).toEqual({ t: 'ab' });
  });

  it(`keeps ${MAX_VARIABLE_TEXT} characters`, () => {
    expect(MAX_VARIABLE_TEXT).toBe(10_000);
    const long = after([calc('t', 'append', 'xyz')], t('a'.repeat(9_998))).t as string;
    expect([long.length, long.slice(-3)]).toEqual([10_000, 'axy']);
    expect((after([calc('t', 'set', 'b'.repeat(10_001))], t()).t as string).length).toBe(10_000);
    expect(after([calc('t', 'set', 'b'.repeat(10_000))], t()).t).toBe('b'.repeat(10_000));
  });
});

describe('rules that calculate', () => {
  const n = [numberVar('n', 0)];
  const walk = (rules: Rule[]) => {
    const result = walkPath([step('a', { rules }), step('b'), step('c')], noAnswers, {}, everyStep, undefined, n);
    return [result.path, result.variables.n];
  };
  const nIs = (value: number): Condition => ({ variable: 'n', op: 'equals', value });

  it('every rule that holds calculates, before and after the one that routes; routing rules after it are not followed', () => {
    expect(
      walk([
        { if: yes, then: calc('n', 'add', 1) },
        { if: yes, then: { goTo: 'c' } },
        { if: yes, then: calc('n', 'add', 10) },
        { if: yes, then: { goTo: 'b' } },
      ]),
    ).toEqual([[0, 2], 11]);
    expect(
      walk([
        { if: yes, then: { goTo: 'c' } },
        { if: yes, then: [calc('n', 'add', 100), { complete: true }] },
      ]),
    ).toEqual([[0, 2], 100]);
    expect(
      walk([
        { if: no, then: calc('n', 'add', 1) },
        { if: yes, then: calc('n', 'add', 2) },
      ]),
    ).toEqual([[0, 1, 2], 2]);
  });

  it('a rule sees the variables as the rules before it left them', () => {
    expect(
      walk([
        { if: yes, then: calc('n', 'set', 5) },
        { if: nIs(5), then: [calc('n', 'add', 1), { goTo: 'c' }] },
        { if: nIs(5), then: calc('n', 'add', 100) },
      ]),
    ).toEqual([[0, 2], 6]);
    expect(
      walk([
        { if: nIs(1), then: { goTo: 'c' } },
        { if: yes, then: calc('n', 'set', 1) },
      ]),
    ).toEqual([[0, 1, 2], 1]);
  });

  it('a rule both calculating and routing does both; its list of actions in order', () => {
    expect(walk([{ if: yes, then: [calc('n', 'add', 2), calc('n', 'multiply', 3), { invalid: true }] }])).toEqual([[0], 6]);
    expect(walk([{ if: yes, then: [{ goTo: 'c' }, calc('n', 'add', 2), calc('n', 'multiply', 3)] }])).toEqual([[0, 2], 6]);
  });

  it('each step gone through calculates once; a step skipped does not', () => {
    const steps = [
      step('a', { rules: [{ if: yes, then: [calc('n', 'add', 1), { goTo: 'c' }] }] }),
      step('b', { rules: [{ if: yes, then: calc('n', 'add', 10) }] }),
      step('c', { rules: [{ if: yes, then: calc('n', 'multiply', 5) }] }),
    ];
    expect(walkPath(steps, noAnswers, {}, everyStep, undefined, n)).toEqual({ path: [0, 2], state: 'end', next: null, variables: { n: 5 } });
    expect(walkPath(steps, noAnswers, {}, (s) => s === 0, undefined, n)).toEqual({ path: [0], state: 'open', next: 2, variables: { n: 1 } });
  });

  it('the variables start at their initial values', () => {
    expect(initialVariables(undefined)).toStrictEqual({});
    expect(initialVariables([])).toStrictEqual({});
    expect(initialVariables([numberVar('n', 3), textVar('t', 'x')])).toEqual({ n: 3, t: 'x' });
    expect(walkPath([step('a')], noAnswers, {}, () => false, undefined, [numberVar('n', 3), textVar('t', 'x')])).toEqual({
      path: [],
      state: 'open',
      next: 0,
      variables: { n: 3, t: 'x' },
    });
  });
});

// ---------------------------------------------------------------- logic, keys and indexes

describe('hasLogic', () => {
  it('a form has logic when a step has rules or next, or is a completion or invalid step', () => {
    expect(hasLogic([])).toBe(false);
    expect(hasLogic([step('a'), step('b')])).toBe(false);
    expect(hasLogic([step('a'), step('b', { next: 'c' }), step('c')])).toBe(true);
    expect(hasLogic([step('a', { rules: [] }), step('b')])).toBe(true);
    expect(hasLogic([step('a'), step('done', { completion: true })])).toBe(true);
    expect(hasLogic([step('out', { invalid: true }), step('b')])).toBe(true);
  });
});

describe('pathKeys and pathIndexes', () => {
  const steps = () => [step('a'), step(undefined), step('c'), step(undefined)];
  it('a path as step keys: a step without a key by its position', () => {
    expect(pathKeys(steps(), [0, 1, 2, 3])).toEqual(['a', 'step_2', 'c', 'step_4']);
    expect(pathKeys(steps(), [2, 0])).toEqual(['c', 'a']);
    expect(pathKeys(steps(), [])).toEqual([]);
  });

  it('recorded keys as indexes, in order; keys no step has, and anything not a text, left out', () => {
    const recorded = ['a', 'step_2', 'gone', 'c', 3, null, 'step_1', 'step_4', 'a', { key: 'a' }];
    expect(pathIndexes(steps(), recorded)).toEqual([0, 1, 2, 3, 0]);
    expect(pathIndexes(steps(), [])).toEqual([]);
    // The same from a form already compiled for walking, and on a second read of the same steps.
    const compiled = steps();
    logicIndex(compiled);
    expect(pathIndexes(compiled, recorded)).toEqual([0, 1, 2, 3, 0]);
    const read = steps();
    expect(pathIndexes(read, ['c'])).toEqual([2]);
    expect(pathIndexes(read, ['a', 'step_4'])).toEqual([0, 3]);
    expect(pathIndexes(read, pathKeys(read, [3, 1, 0]))).toEqual([3, 1, 0]);
  });
});
