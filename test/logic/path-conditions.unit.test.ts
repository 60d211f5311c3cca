/**
 * The conditions of src/responses/path.ts, exactly (docs/logic.md "Conditions"): every leaf op on every
 * kind of answer (text, numbers and numeric text, dates, choices, booleans, matrix rows, ranking
 * positions, variables, hidden fields), what a missing or empty answer is to each, the groups `all` /
 * `any` / `not` (empty ones included) and `holds` with and without a path. `npm run mutate -- path` runs these.
 */
import { describe, expect, it } from 'vitest';
import type { StoredResponse } from '../../src/components/answers.ts';
import type { AnswerValue, Condition, ConditionOp, ConditionValue } from '../../src/components/conditions.ts';
import type { StoredComponent, StoredStep } from '../../src/db/json-columns.ts';
import { compileLeaf, holds } from '../../src/responses/path.ts';

/** The leaf `op value` on each of `actuals`, in order. */
const leafOn = (op: ConditionOp, value: ConditionValue | undefined, actuals: AnswerValue[]) => {
  const leaf = compileLeaf(op, value);
  return actuals.map((actual) => leaf(actual));
};

describe('numbers in text', () => {
  it('a text is a number when it is a decimal number, with spaces around and a sign', () => {
    const texts = ['5', ' 5', '5 ', ' \t5\n ', '+5', '-5', '55', '123.456', '5.', '.5', '.55', '+.5', '-.5', '0'];
    expect(leafOn('between', [-1000, 1000], texts)).toEqual(texts.map(() => true));
    expect(leafOn('equals', 5, ['5', ' 5', '5 ', '+5', '5.', '5.0', '05', '5.000'])).toEqual([true, true, true, true, true, true, true, true]);
    expect(leafOn('equals', -0.5, ['-.5', '-0.5', '-0.50'])).toEqual([true, true, true]);
    expect(leafOn('equals', 123.456, ['123.456'])).toEqual([true]);
  });

  it('anything else is not: no exponent, hex, words, two numbers, a lone point or sign', () => {
    const texts = ['', ' ', '.', '+', '-', '+-5', '--5', '5.5.5', 'x5', '5x', '5 5', '1e2', '0x10', 'Infinity', 'NaN', '٥', '5..', '..5', 'five'];
    expect(leafOn('between', [-1000, 1000], texts)).toEqual(texts.map(() => false));
    expect(leafOn('greaterThan', -1000, texts)).toEqual(texts.map(() => false));
  });

  it('a number answer must be finite; booleans and lists are not numbers', () => {
    expect(leafOn('greaterThan', 0, [Infinity, 1, true, ['5'], NaN])).toEqual([false, true, false, false, false]);
    expect(leafOn('lessThan', 0, [-Infinity, -1, false, ['-5']])).toEqual([false, true, false, false]);
    expect(leafOn('between', [-10, 10], [NaN, 0, true, false, ['1']])).toEqual([false, true, false, false, false]);
    expect(leafOn('greaterOrEqual', Infinity, [Infinity, 1e308])).toEqual([false, false]);
    expect(leafOn('lessOrEqual', NaN, [0, NaN])).toEqual([false, false]);
  });

  it('reads each text afresh: one leaf after another on different answers', () => {
    const gt = compileLeaf('greaterThan', 10);
    expect(['20', '5', '20', 'x', '11', '11', '9'].map((a) => gt(a))).toEqual([true, false, true, false, true, true, false]);
    // A bound read from a text, then answers: the bound is not confused with the last answer read.
    const lt = compileLeaf('lessThan', '3');
    expect([lt('2'), lt('3'), lt('4'), lt(' 2 ')]).toEqual([true, false, false, true]);
  });
});

describe('answered and notAnswered', () => {
  const values: AnswerValue[] = [undefined, '', [], 'x', ' ', 0, false, true, ['A'], -1];
  it('an answer is anything but none, an empty text and an empty list', () => {
    expect(leafOn('answered', undefined, values)).toEqual([false, false, false, true, true, true, true, true, true, true]);
    expect(leafOn('notAnswered', undefined, values)).toEqual([true, true, true, false, false, false, false, false, false, false]);
  });
  it('take no value: a value given changes nothing', () => {
    expect(leafOn('answered', 'x', ['', 'y'])).toEqual([false, true]);
    expect(leafOn('notAnswered', 'x', ['', 'y'])).toEqual([true, false]);
  });
});

describe('equals and notEquals', () => {
  it('compare numbers as numbers when both sides are numbers', () => {
    expect(leafOn('equals', 50, [50, '50', '50.0', ' 50 ', 50.5, '51', 'fifty', undefined, '', true])).toEqual([true, true, true, true, false, false, false, false, false, false]);
    expect(leafOn('equals', '50', [50, '50', '050', '+50', 'x50'])).toEqual([true, true, true, true, false]);
    expect(leafOn('equals', ' 7.5', [7.5, '7.50', '7.5', ' 7.5', 7])).toEqual([true, true, true, true, false]);
    expect(leafOn('equals', 0, [0, '0', '-0', '', false, undefined])).toEqual([true, true, true, false, false, false]);
  });

  it('compare anything else exactly: case, spaces, type', () => {
    expect(leafOn('equals', 'abc', ['abc', 'ABC', 'Abc', ' abc', 'abc ', 'ab', undefined, ['abc']])).toEqual([true, false, false, false, false, false, false, false]);
    expect(leafOn('equals', 'x5', ['x5', 5, '5'])).toEqual([true, false, false]);
    expect(leafOn('equals', true, [true, false, 'true', 1, undefined])).toEqual([true, false, false, false, false]);
    expect(leafOn('equals', false, [false, true, 'false', 0, ''])).toEqual([true, false, false, false, false]);
  });

  it('an empty text or a list is never equal to anything, nor is a missing or list value', () => {
    expect(leafOn('equals', '', ['', undefined, 'x'])).toEqual([false, false, false]);
    expect(leafOn('equals', undefined, ['x', undefined, ''])).toEqual([false, false, false]);
    expect(leafOn('equals', ['a'], ['a', ['a']])).toEqual([false, false]);
    expect(leafOn('equals', 'A', [['A'], ['A', 'B']])).toEqual([false, false]);
    expect(leafOn('equals', '5', [['5']])).toEqual([false]);
  });

  it('notEquals is exactly not equals: it holds on no answer', () => {
    const actuals: AnswerValue[] = [50, '50.0', 'abc', undefined, '', ['50'], true];
    expect(leafOn('notEquals', 50, actuals)).toEqual([false, false, true, true, true, true, true]);
    expect(leafOn('notEquals', 'abc', actuals)).toEqual([true, true, false, true, true, true, true]);
    expect(leafOn('notEquals', undefined, actuals)).toEqual(actuals.map(() => true));
  });
});

describe('in and notIn', () => {
  it('is equals against each listed value: numbers by value, anything else exactly', () => {
    // A boolean listed (no form stores one) is matched exactly too.
    const list = ['5', 7, 'abc', true, ' 9 '] as unknown as ConditionValue;
    expect(leafOn('in', list, ['5', 5, '5.0', 7, '7', ' 7 ', 'abc', 'ABC', true, false, 9, '9', 6, 'x', undefined, '', ['5'], ['abc']])).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
      true,
      false,
      true,
      false,
      true,
      true,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('a text that is a number matches only numbers: "5" listed as "05" is still 5', () => {
    expect(leafOn('in', ['05'], ['5', 5, '05', 'x'])).toEqual([true, true, true, false]);
    expect(leafOn('in', ['abc'], ['abc', 'ab', 5])).toEqual([true, false, false]);
    expect(leafOn('in', [false] as unknown as ConditionValue, [false, true, 0, ''])).toEqual([true, false, false, false]);
  });

  it('an empty text is not in a list holding it; a value that is not a list matches nothing', () => {
    expect(leafOn('in', [''], ['', undefined])).toEqual([false, false]);
    expect(leafOn('in', 'ab', ['a', 'b', 'ab'])).toEqual([false, false, false]);
    expect(leafOn('in', 5, [5, '5'])).toEqual([false, false]);
    expect(leafOn('in', undefined, ['x'])).toEqual([false]);
    expect(leafOn('in', [], ['x', 5])).toEqual([false, false]);
  });

  it('notIn is exactly not in', () => {
    expect(leafOn('notIn', ['5', 'abc'], ['5', 5, 'abc', 'x', undefined, '', ['5']])).toEqual([false, false, false, true, true, true, true]);
    expect(leafOn('notIn', 'ab', ['a'])).toEqual([true]);
  });
});

describe('contains and notContains', () => {
  it('a substring of a text, case and all', () => {
    expect(leafOn('contains', 'corp', ['bigcorp.io', 'corp', 'Corp', 'cor', 'co rp', '', undefined])).toEqual([true, true, false, false, false, false, false]);
  });

  it('a member of a multiple choice, not a substring of one', () => {
    expect(leafOn('contains', 'B', [['A', 'B'], ['B'], ['A', 'BB'], ['b'], [], ['AB']])).toEqual([true, true, false, false, false, false]);
  });

  it('only of texts: no number answer, no number value, no boolean', () => {
    expect(leafOn('contains', '5', [50, 5, '50', true])).toEqual([false, false, true, false]);
    expect(leafOn('contains', 5, ['50', '5', ['5'], 5])).toEqual([false, false, false, false]);
    expect(leafOn('contains', undefined, ['x', ['x']])).toEqual([false, false]);
    expect(leafOn('contains', ['x'], ['x', ['x']])).toEqual([false, false]);
  });

  it('the empty text is in every text answer, not in an empty one; in a choice only as a member', () => {
    expect(leafOn('contains', '', ['a', '', undefined, [], ['a'], ['']])).toEqual([true, false, false, false, false, true]);
  });

  it('notContains is exactly not contains', () => {
    expect(leafOn('notContains', 'B', [['A', 'B'], ['A'], 'xBx', 'x', undefined, '', 5])).toEqual([false, true, false, true, true, true, true]);
  });
});

describe('greaterThan, lessThan, greaterOrEqual, lessOrEqual', () => {
  const actuals: AnswerValue[] = [9, 10, 11, '9.99', '10', '10.01', 'ten', undefined, '', ['11'], true];
  it('compare numbers, the bound itself included only by the …OrEqual ops', () => {
    expect(leafOn('greaterThan', 10, actuals)).toEqual([false, false, true, false, false, true, false, false, false, false, false]);
    expect(leafOn('greaterOrEqual', 10, actuals)).toEqual([false, true, true, false, true, true, false, false, false, false, false]);
    expect(leafOn('lessThan', 10, actuals)).toEqual([true, false, false, true, false, false, false, false, false, false, false]);
    expect(leafOn('lessOrEqual', 10, actuals)).toEqual([true, true, false, true, true, false, false, false, false, false, false]);
  });

  it('a numeric text bound is a number; any other bound holds for nothing', () => {
    expect(leafOn('greaterThan', ' 10 ', [11, '10'])).toEqual([true, false]);
    expect(leafOn('lessOrEqual', '-1.5', [-1.5, -2, 0])).toEqual([true, true, false]);
    for (const op of ['greaterThan', 'lessThan', 'greaterOrEqual', 'lessOrEqual'] as const) {
      for (const bound of ['ten', undefined, [10], true, '']) expect(leafOn(op, bound as ConditionValue, [9, 10, 11, 'ten', ''])).toEqual([false, false, false, false, false]);
    }
  });

  it('negative and fractional numbers', () => {
    expect(leafOn('greaterThan', -1, [-0.5, -1, -1.5, 0])).toEqual([true, false, false, true]);
    expect(leafOn('lessThan', 0.1, [0.09, 0.1, 0.11])).toEqual([true, false, false]);
  });
});

describe('between', () => {
  it('two numbers: both ends included', () => {
    expect(leafOn('between', [1, 5], [0.999, 1, 3, 5, 5.001, '1', ' 5 ', '3.5', '6', 'x', undefined, '', ['3'], true])).toEqual([
      false,
      true,
      true,
      true,
      false,
      true,
      true,
      true,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(leafOn('between', ['-2', '2.5'], [-2, -2.01, 2.5, 2.51, 0])).toEqual([true, false, true, false, true]);
    expect(leafOn('between', [3, 3], [3, 2.9, 3.1])).toEqual([true, false, false]);
  });

  it('low above high holds for nothing', () => {
    expect(leafOn('between', [5, 1], [1, 3, 5])).toEqual([false, false, false]);
  });

  it('two dates: days, both ends included, only on a date answer', () => {
    const actuals: AnswerValue[] = ['2026-01-31', '2026-02-01', '2026-02-15', '2026-02-28', '2026-03-01', '2026-2-15', '2026-02-15x', 20260215, undefined, ''];
    expect(leafOn('between', ['2026-02-01', '2026-02-28'], actuals)).toEqual([false, true, true, true, false, false, false, false, false, false]);
  });

  it('anything but two numbers or two dates holds for nothing', () => {
    const actuals: AnswerValue[] = ['2026-02-15', 3, '3', 'b'];
    const never = actuals.map(() => false);
    for (const value of [
      [1, 5, 10],
      [1],
      [],
      ['2026-02-01', 5],
      [1, '2026-02-01'],
      ['2026-02-01', '2026-02-30'],
      ['2026-13-01', '2026-12-31'],
      [1, 'x'],
      ['x', 5],
      ['a', 'c'],
      5,
      '1,5',
      undefined,
    ]) {
      expect(leafOn('between', value as ConditionValue, actuals), JSON.stringify(value)).toEqual(never);
    }
  });
});

describe('before and after', () => {
  const actuals: AnswerValue[] = ['2026-05-09', '2026-05-10', '2026-05-11', '2025-12-31', '2027-01-01', '2026-5-9', '2026-02-30', 'abc', '1', 20260509, undefined, ''];
  it('compare days, the day itself in neither', () => {
    expect(leafOn('before', '2026-05-10', actuals)).toEqual([true, false, false, true, false, false, false, false, false, false, false, false]);
    expect(leafOn('after', '2026-05-10', actuals)).toEqual([false, false, true, false, true, false, false, false, false, false, false, false]);
  });

  it('a value that is not a day holds for nothing', () => {
    for (const op of ['before', 'after'] as const) {
      for (const value of ['2026-02-30', '2026-5-10', 'tomorrow', 20260510, undefined, ['2026-05-10']]) {
        expect(leafOn(op, value as ConditionValue, ['2026-01-01', '2026-12-31', '2027-01-01', 'z'])).toEqual([false, false, false, false]);
      }
    }
  });

  it('equals on days compares them exactly', () => {
    expect(leafOn('equals', '2026-05-10', ['2026-05-10', '2026-05-11', '2026-5-10'])).toEqual([true, false, false]);
  });
});

describe('an unknown op', () => {
  it('holds for nothing', () => {
    expect(leafOn('someday' as ConditionOp, 'x', ['x', undefined, ''])).toEqual([false, false, false]);
  });
});

// ---------------------------------------------------------------- conditions on a form

const component = (key: string, type: string, content: Record<string, unknown> = {}): StoredComponent => ({ id: `id_${key}`, key, type, content });
const step = (key: string, components: StoredComponent[]): StoredStep => ({ id: `s_${key}`, key, name: key, components });

const steps: StoredStep[] = [
  step('first', [
    component('name', 'ShortInput'),
    component('size', 'Dropdown', { options: ['S', 'M', 'L'] }),
    component('tags', 'Dropdown', { options: ['a', 'b', 'c'], isMulti: true }),
    component('pick', 'MultipleOptionsQuestion', { options: ['x', 'y'], allowOther: true }),
    component('many', 'MultipleOptionsQuestion', { options: ['x', 'y', 'z'], isMulti: true }),
    { id: 'id_nokey', type: 'ShortInput', content: {} },
  ]),
  step('second', [
    component('count', 'Number'),
    component('day', 'Date'),
    component('grid', 'Matrix', { rows: ['r1', 'r2'], columns: ['c1', 'c2'] }),
    component('multigrid', 'Matrix', { rows: ['r1'], columns: ['c1', 'c2'], isMulti: true }),
    component('order', 'Ranking', { options: ['o1', 'o2', 'o3'] }),
  ]),
  step('third', [
    component('who', 'IdentityInfo', { fields: ['firstName', 'email'] }),
    component('agree', 'Disclaimer'),
    component('title', 'Header', { title: 'Hi' }),
    component('odd', 'NoSuchType'),
    component('stars', 'Rating'),
    component('file', 'FileUploader'),
  ]),
];

const answers = new Map<string, StoredResponse>(
  Object.entries({
    name: { type: 'ShortInput', input: 'Ada' },
    size: { type: 'Dropdown', selected: 'M' },
    tags: { type: 'Dropdown', selected: ['a', 'c'] },
    pick: { type: 'MultipleOptionsQuestion', choices: [{ key: 'x', value: false }], other: 'mine' },
    many: {
      type: 'MultipleOptionsQuestion',
      choices: [
        { key: 'x', value: true },
        { key: 'y', value: false },
        { key: 'z', value: true },
      ],
    },
    nokey: { type: 'ShortInput', input: 'hidden away' },
    count: { type: 'Number', value: 42 },
    day: { type: 'Date', value: '2026-05-10' },
    grid: { type: 'Matrix', rows: { r1: 'c2' } },
    multigrid: { type: 'Matrix', rows: { r1: ['c1', 'c2'] } },
    order: { type: 'Ranking', ranking: ['o3', 'o1'] },
    who: { type: 'IdentityInfo', firstName: 'Ada', email: '' },
    agree: { type: 'Disclaimer', check: false },
    title: { type: 'Header' },
    odd: { type: 'NoSuchType', input: 'x' },
    stars: { type: 'Rating', value: 4 },
    file: { type: 'FileUploader', files: [] },
  }).map(([key, response]) => [`id_${key}`, response as StoredResponse]),
);

const hidden = { plan: 'pro', seats: '12', empty: '' };
const variables = { score: 7, label: 'gold', blank: '' };

/** Whether `condition` holds on the form above (every step gone through). */
const on = (condition: Condition) => holds(condition, steps, answers, hidden, variables);
const q = (question: string, op: ConditionOp, value?: ConditionValue, field?: string): Condition => ({
  question,
  op,
  ...(value === undefined ? {} : { value }),
  ...(field === undefined ? {} : { field }),
});

describe('question leaves read each kind of answer', () => {
  it('text', () => {
    expect([on(q('name', 'equals', 'Ada')), on(q('name', 'contains', 'd')), on(q('name', 'equals', 'ada')), on(q('name', 'answered'))]).toEqual([true, true, false, true]);
  });

  it('one choice, several choices, and an "Other" text as the choice', () => {
    expect([on(q('size', 'equals', 'M')), on(q('size', 'in', ['S', 'L'])), on(q('size', 'notIn', ['S', 'L'])), on(q('size', 'notEquals', 'M'))]).toEqual([
      true,
      false,
      true,
      false,
    ]);
    expect([on(q('tags', 'contains', 'c')), on(q('tags', 'contains', 'b')), on(q('tags', 'notContains', 'b')), on(q('tags', 'answered'))]).toEqual([true, false, true, true]);
    expect([on(q('pick', 'equals', 'mine')), on(q('pick', 'equals', 'x'))]).toEqual([true, false]);
    expect([on(q('many', 'contains', 'x')), on(q('many', 'contains', 'y')), on(q('many', 'contains', 'z'))]).toEqual([true, false, true]);
  });

  it('numbers: Number and Rating answers', () => {
    expect([on(q('count', 'equals', 42)), on(q('count', 'between', [40, 42])), on(q('count', 'greaterOrEqual', 43)), on(q('count', 'lessOrEqual', 42))]).toEqual([
      true,
      true,
      false,
      true,
    ]);
    expect([on(q('count', 'in', [1, '42'])), on(q('stars', 'greaterThan', 3)), on(q('stars', 'lessThan', 4))]).toEqual([true, true, false]);
  });

  it('dates', () => {
    expect([
      on(q('day', 'before', '2026-05-11')),
      on(q('day', 'after', '2026-05-10')),
      on(q('day', 'between', ['2026-05-10', '2026-05-10'])),
      on(q('day', 'equals', '2026-05-10')),
      on(q('day', 'after', '2026-05-09')),
    ]).toEqual([true, false, true, true, true]);
  });

  it('matrix rows: a single row is its column, a multiple row its columns; without a row, whether any was answered', () => {
    expect([
      on(q('grid', 'equals', 'c2', 'r1')),
      on(q('grid', 'equals', 'c1', 'r1')),
      on(q('grid', 'answered', undefined, 'r2')),
      on(q('grid', 'notAnswered', undefined, 'r2')),
    ]).toEqual([true, false, false, true]);
    expect([on(q('grid', 'answered')), on(q('multigrid', 'contains', 'c1', 'r1')), on(q('multigrid', 'contains', 'c3', 'r1'))]).toEqual([true, true, false]);
  });

  it('ranking positions: the first is 1; an option not ranked is unanswered', () => {
    expect([
      on(q('order', 'equals', 1, 'o3')),
      on(q('order', 'equals', 2, 'o1')),
      on(q('order', 'greaterThan', 1, 'o1')),
      on(q('order', 'notAnswered', undefined, 'o2')),
      on(q('order', 'lessOrEqual', 3, 'o2')),
      on(q('order', 'answered')),
    ]).toEqual([true, true, true, true, false, true]);
  });

  it('an IdentityInfo field, a disclaimer, a file', () => {
    expect([
      on(q('who', 'equals', 'Ada', 'firstName')),
      on(q('who', 'answered', undefined, 'email')),
      on(q('who', 'answered')),
      on(q('agree', 'equals', false)),
      on(q('agree', 'equals', true)),
    ]).toEqual([true, false, true, true, false]);
    expect([on(q('file', 'answered')), on(q('agree', 'answered'))]).toEqual([true, true]);
  });

  it('a key no component has, a component without a key, one that takes no answer or of an unknown type: no answer', () => {
    for (const key of ['nobody', 'title', 'odd', 'nokey', 'id_name', 'toString']) {
      expect([on(q(key, 'answered')), on(q(key, 'notAnswered')), on(q(key, 'notEquals', 'x'))], key).toEqual([false, true, true]);
    }
  });

  it('a question with no stored answer', () => {
    const none = new Map<string, StoredResponse>();
    expect([holds(q('name', 'answered'), steps, none, {}), holds(q('name', 'notAnswered'), steps, none, {}), holds(q('count', 'lessThan', 100), steps, none, {})]).toEqual([
      false,
      true,
      false,
    ]);
  });
});

describe('hidden fields and variables', () => {
  it('a hidden field is a text', () => {
    expect([
      on({ hidden: 'plan', op: 'equals', value: 'pro' }),
      on({ hidden: 'plan', op: 'equals', value: 'Pro' }),
      on({ hidden: 'seats', op: 'greaterThan', value: 10 }),
      on({ hidden: 'seats', op: 'equals', value: 12 }),
      on({ hidden: 'plan', op: 'contains', value: 'r' }),
      on({ hidden: 'empty', op: 'answered' }),
      on({ hidden: 'plan', op: 'answered' }),
    ]).toEqual([true, false, true, true, true, false, true]);
  });

  it('a hidden field not given, or a name of every object, is not answered', () => {
    for (const name of ['campaign', 'toString', 'constructor', '__proto__', 'hasOwnProperty']) {
      expect([on({ hidden: name, op: 'answered' }), on({ hidden: name, op: 'notAnswered' })], name).toEqual([false, true]);
    }
  });

  it('a variable is its current value; one not declared, or a name of every object, is not answered', () => {
    expect([
      on({ variable: 'score', op: 'equals', value: 7 }),
      on({ variable: 'score', op: 'greaterThan', value: 7 }),
      on({ variable: 'label', op: 'equals', value: 'gold' }),
      on({ variable: 'blank', op: 'answered' }),
      on({ variable: 'score', op: 'answered' }),
    ]).toEqual([true, false, true, false, true]);
    for (const name of ['nothing', 'toString', 'constructor', 'valueOf']) {
      expect([on({ variable: name, op: 'answered' }), on({ variable: name, op: 'notAnswered' })], name).toEqual([false, true]);
    }
  });

  it('holds without variables sees none', () => {
    expect([holds({ variable: 'score', op: 'answered' }, steps, answers, hidden), holds({ variable: 'score', op: 'notAnswered' }, steps, answers, hidden)]).toEqual([false, true]);
  });
});

describe('groups', () => {
  const yes = q('name', 'answered');
  const no = q('name', 'notAnswered');
  it('all holds when every part does; an empty all holds', () => {
    expect([
      on({ all: [yes, yes, yes] }),
      on({ all: [yes, yes, no] }),
      on({ all: [no, yes] }),
      on({ all: [no, no] }),
      on({ all: [] }),
      on({ all: [yes] }),
      on({ all: [no] }),
    ]).toEqual([true, false, false, false, true, true, false]);
  });

  it('any holds when a part does; an empty any does not', () => {
    expect([on({ any: [no, no, yes] }), on({ any: [yes, no] }), on({ any: [no, no] }), on({ any: [yes, yes] }), on({ any: [] }), on({ any: [yes] }), on({ any: [no] })]).toEqual([
      true,
      true,
      false,
      true,
      false,
      true,
      false,
    ]);
  });

  it('not inverts; groups nest', () => {
    expect([on({ not: yes }), on({ not: no }), on({ not: { not: yes } }), on({ not: { all: [] } }), on({ not: { any: [] } })]).toEqual([false, true, true, false, true]);
    const nested: Condition = { all: [{ any: [no, { not: no }] }, { not: { all: [yes, no] } }, { any: [{ all: [] }] }] };
    expect(on(nested)).toBe(true);
    expect(on({ all: [nested, { not: nested }] })).toBe(false);
    expect(on({ any: [{ not: nested }, { all: [{ any: [] }] }] })).toBe(false);
    expect(on({ all: [q('size', 'equals', 'M'), { hidden: 'plan', op: 'equals', value: 'pro' }, { variable: 'score', op: 'lessThan', value: 8 }] })).toBe(true);
    expect(on({ any: [q('size', 'equals', 'S'), { hidden: 'plan', op: 'equals', value: 'free' }, { variable: 'score', op: 'lessThan', value: 7 }] })).toBe(false);
  });
});

describe('holds and the path', () => {
  it('without a path every step counts as gone through; with one, only its steps do', () => {
    const name = q('name', 'answered');
    const count = q('count', 'equals', 42);
    const agree = q('agree', 'answered');
    expect([holds(name, steps, answers, {}), holds(count, steps, answers, {}), holds(agree, steps, answers, {})]).toEqual([true, true, true]);
    expect([holds(name, steps, answers, {}, {}, [0, 2]), holds(count, steps, answers, {}, {}, [0, 2]), holds(agree, steps, answers, {}, {}, [0, 2])]).toEqual([true, false, true]);
    expect([holds(name, steps, answers, {}, {}, []), holds(count, steps, answers, {}, {}, [1]), holds(agree, steps, answers, {}, {}, [1])]).toEqual([false, true, false]);
    expect(holds(q('count', 'notAnswered'), steps, answers, {}, {}, [0])).toBe(true);
  });

  it('hidden fields and variables do not depend on the path', () => {
    expect([
      holds({ hidden: 'plan', op: 'answered' }, steps, answers, hidden, {}, []),
      holds({ variable: 'score', op: 'equals', value: 7 }, steps, answers, {}, variables, []),
    ]).toEqual([true, true]);
  });
});
