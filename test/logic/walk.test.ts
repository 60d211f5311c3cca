/**
 * The walk of src/responses/path.ts on its own (a pure function of the steps, the hidden values and the
 * answers): how conditions compare (docs/logic.md), and that a skipped step's stale answers count as none.
 */
import { describe, expect, it, vi } from 'vitest';
import type { StoredResponse } from '../../src/components/answers.ts';
import { generateFormInputSchema } from '../../src/forms/components.ts';
import { compileLeaf, walkPath } from '../../src/responses/path.ts';
import type { StoredStep } from '../../src/db/json-columns.ts';

/** Generate-input steps as a stored form holds them (ids = keys). */
function stored(steps: unknown[], hiddenFields: string[] = []): StoredStep[] {
  const input = generateFormInputSchema.parse({ sourceFormId: 'x', name: 'walk', steps, hiddenFields });
  return input.steps.map((step, i) => ({
    ...step,
    name: step.name as string,
    id: `step${i}`,
    key: step.key ?? `step_${i + 1}`,
    components: step.components.map((c) => ({ ...c, id: c.key! })),
  }));
}
const text = (input: string): StoredResponse => ({ type: 'ShortInput', input });
const everyStep = () => true;

describe('leaves', () => {
  it('compare numbers as numbers when both sides are numbers, else exactly', () => {
    expect(compileLeaf('equals', 50)('50.0')).toBe(true);
    expect(compileLeaf('equals', '50')(' 50 ')).toBe(true);
    expect(compileLeaf('equals', 'abc')('ABC')).toBe(false);
    expect(compileLeaf('greaterThan', 200)('1000')).toBe(true);
    expect(compileLeaf('greaterThan', 200)('a lot')).toBe(false);
    expect(compileLeaf('lessThan', 10)(undefined)).toBe(false);
    expect(compileLeaf('in', ['5', 7])('7')).toBe(true);
    expect(compileLeaf('notIn', ['5', 7])(undefined)).toBe(true);
  });

  it('in: one look-up of the answer, read as a number once, whatever the length of the list', () => {
    const listed = Array.from({ length: 500 }, (_, i) => (i % 2 ? i : String(i)));
    const leaf = compileLeaf('in', listed);
    const notIn = compileLeaf('notIn', listed);
    // Every regular expression test while the leaves run (the numeric test is the only one they make).
    const tests = vi.spyOn(RegExp.prototype, 'test');
    try {
      const long = `${'1'.repeat(9_999)}x`;
      expect([leaf(long), notIn(long), leaf('499'), leaf(' 498.0 '), leaf('7'), leaf('abc'), leaf(true)]).toEqual([false, true, true, true, true, false, false]);
      expect(tests.mock.calls.length).toBeLessThanOrEqual(5);
    } finally {
      tests.mockRestore();
    }
  });

  it('contains: a substring of text, a member of a multiple choice; equals on booleans', () => {
    expect(compileLeaf('contains', 'corp')('bigcorp.io')).toBe(true);
    expect(compileLeaf('contains', 'B')(['A', 'B'])).toBe(true);
    expect(compileLeaf('contains', 'B')(['A', 'BB'])).toBe(false);
    expect(compileLeaf('notContains', 'B')(undefined)).toBe(true);
    expect(compileLeaf('equals', false)(false)).toBe(true);
    expect(compileLeaf('answered', undefined)(false)).toBe(true);
    expect(compileLeaf('answered', undefined)('')).toBe(false);
    expect(compileLeaf('answered', undefined)([])).toBe(false);
  });
});

describe('the walk', () => {
  const steps = stored(
    [
      {
        name: 'A',
        key: 'a',
        components: [{ type: 'ShortInput', key: 'qa', content: {} }],
        logic: { rules: [{ if: { question: 'qa', op: 'equals', value: 'skip' }, then: { goTo: 'c' } }] },
      },
      { name: 'B', key: 'b', components: [{ type: 'ShortInput', key: 'qb', content: {} }] },
      {
        name: 'C',
        key: 'c',
        components: [{ type: 'ShortInput', key: 'qc', content: {} }],
        logic: {
          rules: [
            { if: { question: 'qb', op: 'answered' }, then: { invalid: true } },
            { if: { hidden: 'plan', op: 'equals', value: 'pro' }, then: { complete: true } },
          ],
        },
      },
      { name: 'D', key: 'd', components: [{ type: 'ShortInput', key: 'qd', content: {} }] },
    ],
    ['plan'],
  );

  it('follows rules, `next` and the order of the steps, and stops at the first step not submitted', () => {
    const answers = new Map([
      ['qa', text('go')],
      ['qb', text('x')],
    ]);
    expect(walkPath(steps, answers, {}, (s) => s < 2)).toEqual({ path: [0, 1], state: 'open', next: 2, variables: {} });
    expect(walkPath(steps, answers, {}, everyStep)).toEqual({ path: [0, 1, 2], state: 'invalid', next: null, variables: {} });
    expect(walkPath(steps, new Map([['qa', text('go')]]), { plan: 'pro' }, everyStep)).toEqual({ path: [0, 1, 2], state: 'completed', next: null, variables: {} });
    expect(walkPath(steps, new Map([['qa', text('go')]]), {}, everyStep)).toEqual({ path: [0, 1, 2, 3], state: 'end', next: null, variables: {} });
  });

  it('an answer still stored for a step the path now skips counts as no answer', () => {
    // B was answered on an earlier path; A now skips it: C's rule on qb does not see that answer.
    const answers = new Map([
      ['qa', text('skip')],
      ['qb', text('stale')],
    ]);
    expect(walkPath(steps, answers, {}, everyStep)).toEqual({ path: [0, 2, 3], state: 'end', next: null, variables: {} });
  });
});
