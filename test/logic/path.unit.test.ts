/**
 * The walk's guards (src/responses/path.ts): a stored `goTo` or `next` that points backwards or at its own
 * step (generation refuses both; a stored form must still not loop) falls through to the following step,
 * and the compiled-form cache keeps the 500 most recently used forms. `npm run mutate` runs these.
 */
import { describe, expect, it } from 'vitest';
import type { StoredStep } from '../../src/db/json-columns.ts';
import { formLogicKey, logicIndex, walkPath } from '../../src/responses/path.ts';

const step = (key: string, logic?: StoredStep['logic']): StoredStep => ({
  id: `id_${key}`,
  name: key,
  key,
  components: [{ id: `q_${key}`, key: `q_${key}`, type: 'ShortInput', content: {} }],
  ...(logic ? { logic } : {}),
});
const always = { question: 'q_a', op: 'answered' } as const;
const answers = new Map([['q_a', { type: 'ShortInput', input: 'yes' }]]) as Parameters<typeof walkPath>[1];
const everyStep = () => true;

describe('the walk never goes back', () => {
  it('a rule whose goTo names an earlier step or its own falls through to the next step', () => {
    for (const target of ['a', 'b']) {
      const steps = [step('a'), step('b', { rules: [{ if: always, then: { goTo: target } }] }), step('c')];
      expect(walkPath(steps, answers, {}, everyStep)).toEqual({ path: [0, 1, 2], state: 'end', next: null, variables: {} });
    }
  });

  it('a `next` naming an earlier step, its own or no step falls through too; a later one is followed', () => {
    for (const next of ['a', 'b', 'nowhere']) {
      const steps = [step('a'), step('b', { next } as StoredStep['logic']), step('c')];
      expect(walkPath(steps, answers, {}, everyStep)).toEqual({ path: [0, 1, 2], state: 'end', next: null, variables: {} });
    }
    const skipping = [step('a', { next: 'c' } as StoredStep['logic']), step('b'), step('c')];
    expect(walkPath(skipping, answers, {}, everyStep)).toEqual({ path: [0, 2], state: 'end', next: null, variables: {} });
  });
});

describe('the compiled-form cache', () => {
  /** A fresh steps array (so only the key can find a cached index) for form `id`. */
  const stepsOf = () => [step('a'), step('b')];

  it('finds a form by its key from another copy of its steps, and forgets the least recently used past 500 forms', () => {
    const key = (i: number) => formLogicKey({ id: `form_${i}`, version: 1 });
    const first = logicIndex(stepsOf(), key(0));
    expect(logicIndex(stepsOf(), key(0))).toBe(first);
    const second = logicIndex(stepsOf(), key(1));
    // 499 more forms: 501 in all; form 0 was used after form 1, so form 1 is the one forgotten.
    logicIndex(stepsOf(), key(0));
    for (let i = 2; i <= 500; i++) logicIndex(stepsOf(), key(i));
    expect(logicIndex(stepsOf(), key(0))).toBe(first);
    expect(logicIndex(stepsOf(), key(1))).not.toBe(second);
    expect(logicIndex(stepsOf(), key(500))).toBeDefined();
  });

  it('keeps 500 forms: the oldest of exactly 500 is still found', () => {
    const key = (i: number) => formLogicKey({ id: `other_${i}`, version: 1 });
    const oldest = logicIndex(stepsOf(), key(0));
    for (let i = 1; i < 500; i++) logicIndex(stepsOf(), key(i));
    expect(logicIndex(stepsOf(), key(0))).toBe(oldest);
  });

  it('a steps array compiled once is found again, with or without its key, even after the key is forgotten', () => {
    const steps = stepsOf();
    const index = logicIndex(steps, 'kept@1');
    expect(logicIndex(steps)).toBe(index);
    for (let i = 0; i < 500; i++) logicIndex(stepsOf(), `evicting_${i}@1`);
    expect(logicIndex(steps, 'kept@1')).toBe(index);
    // Found by its key from another copy, that copy is then known without the key.
    const copy = stepsOf();
    const byKey = logicIndex(stepsOf(), 'copied@1');
    expect(logicIndex(copy, 'copied@1')).toBe(byKey);
    expect(logicIndex(copy)).toBe(byKey);
  });

  it('a form compiled without a key takes no place among the 500', () => {
    logicIndex(stepsOf());
    const key = (i: number) => formLogicKey({ id: `unkeyed_${i}`, version: 1 });
    const oldest = logicIndex(stepsOf(), key(0));
    for (let i = 1; i < 500; i++) logicIndex(stepsOf(), key(i));
    logicIndex(stepsOf());
    expect(logicIndex(stepsOf(), key(0))).toBe(oldest);
  });

  it('compiles steps without logic, with `next` alone, and components without keys', () => {
    const steps: StoredStep[] = [{ id: 's', name: 's', components: [{ id: 'c', type: 'ShortInput', content: {} }] }, step('b', { next: 'c' } as StoredStep['logic']), step('c')];
    const index = logicIndex(steps);
    expect([...index.stepByKey]).toEqual([
      ['step_1', 0],
      ['b', 1],
      ['c', 2],
    ]);
    expect(index.compiled.map((compiled) => [compiled.rules.length, compiled.calculates, compiled.next])).toEqual([
      [0, false, undefined],
      [0, false, 2],
      [0, false, undefined],
    ]);
  });

  it('keys by form and version', () => {
    expect(formLogicKey({ id: 'f', version: 3 })).toBe('f@3');
    const v1 = logicIndex(stepsOf(), 'g@1');
    expect(logicIndex(stepsOf(), 'g@2')).not.toBe(v1);
  });
});
