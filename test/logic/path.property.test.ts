/**
 * Property: for random forms with random logic (rules of nested conditions on earlier answers and a
 * hidden field; goTo, complete and invalid actions; `next`; completion and invalid steps) and random
 * sequences of JSON API submissions (answering the next step, going back to change an answer, answering
 * a step off the path, empty submissions, finishing), the server's answers (status, `nextStep`,
 * `finished`, `status`) and what it stores (`meta.path`, `meta.invalid`, which answers are kept) are
 * what a small evaluator written here, from docs/logic.md and independently of src/, says they must be.
 * Every form has a number and a text variable: rules calculate them (constants, numeric and text answers,
 * the scores of chosen options, the variables themselves) and conditions test them, and the stored
 * `meta.variables` must be the evaluator's.
 * Runs: LOGIC_RUNS (default 100).
 */
import { fc, test } from '@fast-check/vitest';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { responses } from '../../src/db/schema.ts';
import type { Form } from '../../src/forms/forms.service.ts';
import { createTenant, jsonRequest, setupTestApp, type TestTenant } from '../support/helpers.ts';
import { makeForm, type App } from '../support/public-helpers.ts';

const RUNS = Number(process.env.LOGIC_RUNS ?? 100);

let db: Database;
let app: App;
let tenant: TestTenant;

beforeAll(async () => {
  ({ db, app } = await setupTestApp({ publicRateLimitPerMinute: 0 }));
  tenant = await createTenant(db);
});

// ---------------------------------------------------------------- the model's forms

type Kind = 'text' | 'choice' | 'choices' | 'boolean';
type Value = string | boolean | string[];
interface Question {
  key: string;
  kind: Kind;
}
type Leaf = { question: string; op: string; value?: unknown } | { hidden: string; op: string; value?: unknown } | { variable: string; op: string; value?: unknown };
type Cond = { all: Cond[] } | { any: Cond[] } | { not: Cond } | Leaf;
type Route = { goTo: string } | { complete: true } | { invalid: true };
type Operand = number | string | { question: string } | { scoreOf: string } | { variable: string };
type Calc = { calculate: { variable: 'n' | 't'; op: string; value: Operand } };
type Action = Route | Calc;
interface Step {
  key: string;
  final?: 'completion' | 'invalid';
  questions: Question[];
  rules: { if: Cond; then: Action | Action[] }[];
  next?: string;
}

const OPTIONS = ['A', 'B', 'C'];
const SCORES: Record<string, number> = { A: 1, B: 2.5, C: -3 };
const VARIABLES = [
  { name: 'n', type: 'number', initial: 1 },
  { name: 't', type: 'text' },
];
const NUMBER_VARIABLE_OPS = ['equals', 'notEquals', 'in', 'notIn', 'greaterThan', 'lessThan', 'answered', 'notAnswered'];
const TEXTS = ['5', '50', '500', ' 7.5', 'abc', 'Abc', 'x5'];
const OPS: Record<Kind, string[]> = {
  text: ['equals', 'notEquals', 'contains', 'notContains', 'in', 'notIn', 'greaterThan', 'lessThan', 'answered', 'notAnswered'],
  choice: ['equals', 'notEquals', 'in', 'notIn', 'answered', 'notAnswered'],
  choices: ['contains', 'notContains', 'answered', 'notAnswered'],
  boolean: ['equals', 'notEquals', 'answered', 'notAnswered'],
};

type Gen = fc.GeneratorValue;

function leafValue(g: Gen, kind: Kind, op: string): unknown {
  if (op === 'answered' || op === 'notAnswered') return undefined;
  if (kind === 'boolean') return g(fc.boolean);
  if (kind === 'choice' || kind === 'choices') return op === 'in' || op === 'notIn' ? g(() => fc.subarray(OPTIONS, { minLength: 1 })) : g(() => fc.constantFrom(...OPTIONS));
  if (op === 'greaterThan' || op === 'lessThan') return g(() => fc.constantFrom(5, 50, 7.5, -1));
  if (op === 'in' || op === 'notIn') return g(() => fc.subarray([...TEXTS, 5, 50, 7.5, '05', '5.0'], { minLength: 1 }));
  if (op === 'contains' || op === 'notContains') return g(() => fc.constantFrom('5', 'a', 'b', 'A'));
  return g(() => fc.constantFrom(...TEXTS, 5, 500));
}

function condition(g: Gen, questions: Question[], depth: number): Cond {
  const group = depth < 2 && g(() => fc.integer({ min: 0, max: 5 })) === 0;
  if (group) {
    const form = g(() => fc.constantFrom('all', 'any', 'not'));
    if (form === 'not') return { not: condition(g, questions, depth + 1) };
    const items = Array.from({ length: g(() => fc.integer({ min: 1, max: 3 })) }, () => condition(g, questions, depth + 1));
    return form === 'all' ? { all: items } : { any: items };
  }
  if (g(() => fc.integer({ min: 0, max: 4 })) === 0) {
    const variable = g(() => fc.constantFrom('n', 't'));
    const op = g(() => fc.constantFrom(...(variable === 'n' ? NUMBER_VARIABLE_OPS : OPS.text)));
    const value =
      variable === 'n' && op !== 'answered' && op !== 'notAnswered'
        ? op === 'in' || op === 'notIn'
          ? g(() => fc.subarray([1, 2, 3.5, 0, -2], { minLength: 1 }))
          : g(() => fc.constantFrom(1, 2, 3.5, 0, -2, 6))
        : leafValue(g, 'text', op);
    return value === undefined ? { variable, op } : { variable, op, value };
  }
  if (questions.length === 0 || g(() => fc.integer({ min: 0, max: 5 })) === 0) {
    const op = g(() => fc.constantFrom(...OPS.text));
    const value = leafValue(g, 'text', op);
    return value === undefined ? { hidden: 'h1', op } : { hidden: 'h1', op, value };
  }
  const question = g(() => fc.constantFrom(...questions));
  const op = g(() => fc.constantFrom(...OPS[question.kind]));
  const value = leafValue(g, question.kind, op);
  return value === undefined ? { question: question.key, op } : { question: question.key, op, value };
}

function calculation(g: Gen, questions: Question[]): Calc {
  const texts = questions.filter((q) => q.kind === 'text');
  const choices = questions.filter((q) => q.kind === 'choice' || q.kind === 'choices');
  if (g(fc.boolean)) {
    const op = g(() => fc.constantFrom('set', 'add', 'subtract', 'multiply', 'divide'));
    const sources: Operand[] = [g(() => fc.constantFrom(0, 2, -1.5, 3)), { variable: 'n' }];
    if (texts.length > 0) sources.push({ question: g(() => fc.constantFrom(...texts)).key });
    if (choices.length > 0) sources.push({ scoreOf: g(() => fc.constantFrom(...choices)).key });
    return { calculate: { variable: 'n', op, value: g(() => fc.constantFrom(...sources)) } };
  }
  const sources: Operand[] = ['x', { variable: 't' }];
  const readable = [...texts, ...choices];
  if (readable.length > 0) sources.push({ question: g(() => fc.constantFrom(...readable)).key });
  return { calculate: { variable: 't', op: g(() => fc.constantFrom('set', 'append')), value: g(() => fc.constantFrom(...sources)) } };
}

function randomForm(g: Gen): Step[] {
  const count = g(() => fc.integer({ min: 3, max: 8 }));
  const steps: Step[] = Array.from({ length: count }, (_, s) => {
    const finalKind = s === 0 ? 0 : g(() => fc.integer({ min: 0, max: 11 }));
    if (finalKind === 1) return { key: `s${s}`, final: 'completion', questions: [], rules: [] };
    if (finalKind === 2) return { key: `s${s}`, final: 'invalid', questions: [], rules: [] };
    const kinds = g(() => fc.array(fc.constantFrom<Kind>('text', 'choice', 'choices', 'boolean'), { minLength: 1, maxLength: 2 }));
    return { key: `s${s}`, questions: kinds.map((kind, i) => ({ key: `q${s}_${i}`, kind })), rules: [] };
  });
  steps.forEach((step, s) => {
    if (step.final) return;
    const later = steps.slice(s + 1).map((st) => st.key);
    const earlier = steps.slice(0, s + 1).flatMap((st) => st.questions);
    const ruleCount = g(() => fc.constantFrom(0, 1, 1, 2, 3));
    for (let r = 0; r < ruleCount; r++) {
      const kind = g(() => fc.integer({ min: 0, max: later.length > 0 ? 9 : 1 }));
      const route: Route = kind === 0 ? { complete: true } : kind === 1 ? { invalid: true } : { goTo: g(() => fc.constantFrom(...later)) };
      const calcs = Array.from({ length: g(() => fc.constantFrom(0, 0, 1, 2)) }, () => calculation(g, earlier));
      const routes = g(fc.boolean) || calcs.length === 0;
      const then: Action | Action[] = calcs.length === 0 ? route : routes ? [...calcs, route] : calcs;
      step.rules.push({ if: condition(g, earlier, 0), then });
    }
    if (later.length > 0 && g(() => fc.integer({ min: 0, max: 3 })) === 0) step.next = g(() => fc.constantFrom(...later));
  });
  return steps;
}

function generateBody(steps: Step[]) {
  const component = (q: Question) => {
    if (q.kind === 'text') return { type: 'ShortInput', key: q.key, content: { question: q.key } };
    if (q.kind === 'boolean') return { type: 'Disclaimer', key: q.key, content: { text: q.key } };
    return { type: 'Dropdown', key: q.key, content: { question: q.key, options: OPTIONS, isMulti: q.kind === 'choices', optionScores: SCORES } };
  };
  return steps.map((step) => ({
    name: step.key,
    key: step.key,
    ...(step.final === 'completion' ? { completion: true } : step.final === 'invalid' ? { invalid: true } : {}),
    components: step.final ? [{ type: 'Header', content: { title: step.key } }] : step.questions.map(component),
    ...(step.rules.length > 0 || step.next ? { logic: { rules: step.rules, ...(step.next ? { next: step.next } : {}) } } : {}),
  }));
}

// ---------------------------------------------------------------- the evaluator (docs/logic.md)

const NUMBER = /^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)\s*$/;
const asNumber = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && NUMBER.test(v) ? Number(v) : undefined);
const isAnswered = (v: Value | undefined) => v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0);
function same(a: unknown, b: unknown): boolean {
  const x = asNumber(a);
  const y = asNumber(b);
  return x !== undefined && y !== undefined ? x === y : a === b;
}
function leaf(op: string, actual: Value | undefined, expected: unknown): boolean {
  if (op.startsWith('not') && op !== 'notAnswered') return !leaf(op[3]!.toLowerCase() + op.slice(4), actual, expected);
  if (op === 'answered') return isAnswered(actual);
  if (op === 'notAnswered') return !isAnswered(actual);
  if (!isAnswered(actual)) return false;
  if (op === 'equals') return !Array.isArray(actual) && same(actual, expected);
  if (op === 'in') return !Array.isArray(actual) && (expected as unknown[]).some((e) => same(actual, e));
  if (op === 'contains') return Array.isArray(actual) ? actual.includes(expected as string) : typeof actual === 'string' && actual.includes(expected as string);
  const [a, b] = [Array.isArray(actual) ? undefined : asNumber(actual), asNumber(expected)];
  if (a === undefined || b === undefined) return false;
  return op === 'greaterThan' ? a > b : a < b;
}

type Answers = Map<string, Value>;
/** `reached`: the questions of the steps the walk went through so far (a skipped step's answers count as none). */
type Variables = { n: number; t: string };
function holds(c: Cond, answers: Answers, hidden: Record<string, string>, reached: Set<string>, vars: Variables): boolean {
  if ('all' in c) return c.all.every((x) => holds(x, answers, hidden, reached, vars));
  if ('any' in c) return c.any.some((x) => holds(x, answers, hidden, reached, vars));
  if ('not' in c) return !holds(c.not, answers, hidden, reached, vars);
  if ('hidden' in c) return leaf(c.op, hidden[c.hidden], c.value);
  if ('variable' in c) return leaf(c.op, c.variable === 'n' ? (vars.n as unknown as string) : vars.t, c.value);
  return leaf(c.op, reached.has(c.question) ? answers.get(c.question) : undefined, c.value);
}

interface Walk {
  path: number[];
  state: 'open' | 'end' | 'completed' | 'invalid';
  next: number | null;
  vars: Variables;
}

/** A calculation on the variables (docs/logic.md): rounded to 6 places, division by zero and non-numbers change nothing. */
function calculate({ calculate: c }: Calc, answers: Answers, reached: Set<string>, vars: Variables): void {
  const answer = (key: string) => (reached.has(key) ? answers.get(key) : undefined);
  const operand = (): unknown => {
    const v = c.value;
    if (typeof v !== 'object') return v;
    if ('variable' in v) return v.variable === 'n' ? vars.n : vars.t;
    if ('scoreOf' in v) {
      const chosen = answer(v.scoreOf);
      return chosen === undefined ? 0 : (Array.isArray(chosen) ? chosen : [chosen as string]).reduce((sum, o) => sum + (SCORES[o] ?? 0), 0);
    }
    return answer(v.question);
  };
  const value = operand();
  if (c.variable === 'n') {
    const x = asNumber(value);
    if (x === undefined) return;
    const n = vars.n;
    const result = c.op === 'set' ? x : c.op === 'add' ? n + x : c.op === 'subtract' ? n - x : c.op === 'multiply' ? n * x : x === 0 ? n : n / x;
    vars.n = Math.round(result * 1e6) / 1e6 + 0;
    return;
  }
  const text = typeof value === 'number' ? String(value) : Array.isArray(value) ? value.join(', ') : typeof value === 'string' ? value : '';
  if (text === '') return;
  vars.t = c.op === 'set' ? text : vars.t + text;
}
function walk(steps: Step[], answers: Answers, hidden: Record<string, string>, passes: (s: number) => boolean): Walk {
  const path: number[] = [];
  const reached = new Set<string>();
  const vars: Variables = { n: 1, t: '' };
  for (let at = 0; ;) {
    const step = steps[at]!;
    if (step.final) return { path: [...path, at], state: step.final === 'completion' ? 'completed' : 'invalid', next: null, vars };
    if (!passes(at)) return { path, state: 'open', next: at, vars };
    path.push(at);
    for (const q of step.questions) reached.add(q.key);
    let route: Route | undefined;
    for (const rule of step.rules) {
      if (!holds(rule.if, answers, hidden, reached, vars)) continue;
      const actions = Array.isArray(rule.then) ? rule.then : [rule.then];
      for (const action of actions) {
        if ('calculate' in action) calculate(action, answers, reached, vars);
        else route ??= action;
      }
    }
    if (route && 'complete' in route) return { path, state: 'completed', next: null, vars };
    if (route && 'invalid' in route) return { path, state: 'invalid', next: null, vars };
    const target = route && 'goTo' in route ? route.goTo : step.next;
    const index = target === undefined ? at + 1 : steps.findIndex((s) => s.key === target);
    if (index >= steps.length) return { path, state: 'end', next: null, vars };
    at = index;
  }
}

/** A response as the model keeps it. */
interface Response {
  answers: Answers;
  path: number[];
  hidden: Record<string, string>;
  ended: 'finished' | 'invalid' | null;
  vars: Variables;
}
type Outcome = { status: 400 } | { status: 409 } | { status: 200; response: Response; next: number | null };

function submit(steps: Step[], before: Response, sent: Map<string, Value | null>, finish: boolean): Outcome {
  if (before.ended) return { status: 409 };
  const stepOf = (key: string) => steps.findIndex((s) => s.questions.some((q) => q.key === key));
  const merged: Answers = new Map(before.answers);
  for (const [key, value] of sent) {
    if (value === null || !isAnswered(value)) merged.delete(key);
    else merged.set(key, value);
  }
  const previous = new Set(before.path);
  const touched = new Set([...sent.keys()].map(stepOf));
  const submitted = new Set(touched);
  if (!finish && ![...touched].some((s) => previous.has(s))) {
    const was = walk(steps, before.answers, before.hidden, (s) => previous.has(s)).next;
    if (was !== null) submitted.add(was);
  }
  const linear = steps.every((s) => !s.final && s.rules.length === 0 && s.next === undefined);
  const furthest = Math.max(-1, ...previous, ...submitted);
  const w = walk(steps, merged, before.hidden, linear ? (s) => finish || s <= furthest : (s) => previous.has(s) || submitted.has(s));
  const kept = new Set(w.path);
  if (w.next !== null) kept.add(w.next);
  if ([...touched].some((s) => !kept.has(s))) return { status: 400 };
  if (finish && w.state === 'open') return { status: 400 };
  const answers = new Map([...merged].filter(([key]) => kept.has(stepOf(key))));
  const ended = w.state === 'completed' || (w.state === 'end' && finish) ? 'finished' : w.state === 'invalid' ? 'invalid' : null;
  return { status: 200, response: { answers, path: w.path, hidden: before.hidden, ended, vars: w.vars }, next: w.next };
}

// ---------------------------------------------------------------- the property

function answerOf(g: Gen, kind: Kind): Value | null {
  if (g(() => fc.integer({ min: 0, max: 7 })) === 0) return null;
  if (kind === 'text') return g(() => fc.constantFrom(...TEXTS));
  if (kind === 'boolean') return g(fc.boolean);
  if (kind === 'choice') return g(() => fc.constantFrom(...OPTIONS));
  return g(() => fc.subarray(OPTIONS, { minLength: 1 }));
}
/** What the server stores of an answer, as the model compares it. */
function storedValue(kind: Kind, response: Record<string, unknown>): Value {
  if (kind === 'text') return response.input as string;
  if (kind === 'boolean') return response.check as boolean;
  return response.selected as Value;
}
/** The model's value of a sent answer as the server stores it (trimmed; a multi-select in the options' order). */
function normalised(kind: Kind, value: Value): Value {
  if (kind === 'text') return (value as string).trim();
  if (kind === 'choices') return OPTIONS.filter((o) => (value as string[]).includes(o));
  return value;
}

describe('the path of a response', () => {
  test.prop([fc.gen()], { numRuns: RUNS, endOnFailure: true })('the server walks random logic as the evaluator written here does, over random submissions', async (g) => {
    const steps = randomForm(g);
    const form: Form = await makeForm(db, tenant, generateBody(steps), 'Property form', { hiddenFields: ['h1'], variables: VARIABLES });
    const questions = new Map(steps.flatMap((s) => s.questions.map((q) => [q.key, q] as const)));
    const idOf = new Map(form.steps.flatMap((s) => s.components.filter((c) => c.key).map((c) => [c.key!, c.id] as const)));
    const keyOf = new Map([...idOf].map(([key, id]) => [id, key]));
    const forModel = (sent: Map<string, Value | null>) =>
      new Map([...sent].map(([key, value]) => [key, value === null ? null : normalised(questions.get(key)!.kind, value)] as const));
    const body = (sent: Map<string, Value | null>) => Object.fromEntries([...sent].map(([key, value]) => [idOf.get(key)!, value]));
    const hidden: Record<string, string> = g(() => fc.constantFrom<Record<string, string>>({}, { h1: '5' }, { h1: '500' }, { h1: 'abc' }, { h1: '' }));

    const check = async (outcome: Outcome, response: globalThis.Response, id: string) => {
      const json = (await response.json()) as { nextStep?: string | null; finished?: boolean; status?: number };
      expect(response.status === 201 ? 200 : response.status, JSON.stringify(json)).toBe(outcome.status);
      if (outcome.status !== 200) return;
      const expected = outcome.response;
      expect(json).toMatchObject({
        nextStep: outcome.next === null ? null : steps[outcome.next]!.key,
        finished: expected.ended === 'finished',
        status: expected.ended === 'finished' ? 4 : expected.ended === 'invalid' ? 5 : 2,
      });
      const [row] = await db.select().from(responses).where(eq(responses.id, id));
      expect(row!.meta.path).toEqual(expected.path.map((s) => steps[s]!.key));
      expect(row!.meta.invalid === true).toBe(expected.ended === 'invalid');
      expect(row!.meta.hiddenFields).toEqual(expected.hidden);
      expect(row!.meta.variables).toEqual(expected.vars);
      const stored = new Map(row!.data.map((a) => [keyOf.get(a.questionId)!, storedValue(questions.get(keyOf.get(a.questionId)!)!.kind, a.response)]));
      expect(stored).toEqual(expected.answers);
    };

    // Start: step 0's answers (or none), with the hidden field and one the form does not declare.
    const firstAnswers = new Map(steps[0]!.questions.filter(() => g(() => fc.integer({ min: 0, max: 3 })) > 0).map((q) => [q.key, answerOf(g, q.kind)] as const));
    let model: Response = { answers: new Map(), path: [], hidden, ended: null, vars: { n: 1, t: '' } };
    const started = await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers: body(firstAnswers), hiddenFields: { ...hidden, utm_campaign: 'ignored' } }));
    const startOutcome = submit(steps, model, forModel(firstAnswers), false);
    const startedClone = started.clone();
    const { id, resumeToken } = (await startedClone.json()) as { id: string; resumeToken: string };
    await check(startOutcome, started, id);
    if (startOutcome.status !== 200) return;
    model = startOutcome.response;
    let next = startOutcome.next;

    // Some steps forward first (so that later steps hold answers when an earlier one changes), then anything.
    const forward = Array.from({ length: g(() => fc.integer({ min: 0, max: steps.length - 1 })) }, () => 'next' as const);
    const moves = [...forward, ...g(() => fc.array(fc.constantFrom('next', 'next', 'back', 'back', 'back', 'stray', 'empty', 'finish'), { minLength: 2, maxLength: 10 }))];
    for (const move of moves) {
      let sent = new Map<string, Value | null>();
      let finish = false;
      if (move === 'next' && next !== null) {
        sent = new Map(steps[next]!.questions.filter(() => g(() => fc.integer({ min: 0, max: 3 })) > 0).map((q) => [q.key, answerOf(g, q.kind)] as const));
      } else if (move === 'back') {
        // Mostly a question some rule tests, so that the path can change.
        const tested = new Set(JSON.stringify(steps.map((s) => s.rules)).match(/q\d+_\d+/g) ?? []);
        const onPath = model.path.flatMap((s) => steps[s]!.questions);
        const answerable = onPath.some((q) => tested.has(q.key)) && g(() => fc.integer({ min: 0, max: 3 })) > 0 ? onPath.filter((q) => tested.has(q.key)) : onPath;
        if (answerable.length > 0) {
          const q = g(() => fc.constantFrom(...answerable));
          sent.set(q.key, answerOf(g, q.kind));
        }
      } else if (move === 'stray' && questions.size > 0) {
        const q = g(() => fc.constantFrom(...questions.values()));
        sent.set(q.key, answerOf(g, q.kind));
      } else if (move === 'finish') finish = true;
      const outcome = submit(steps, model, forModel(sent), finish);
      const patched = await app.request(
        `/s/${form.id}/responses/${id}`,
        jsonRequest('PATCH', { answers: body(sent), finished: finish }, { authorization: `Bearer ${resumeToken}` }),
      );
      await check(outcome, patched, id);
      if (outcome.status === 200) {
        model = outcome.response;
        next = outcome.next;
      }
      // An ended response takes nothing more (409, checked once).
      if (outcome.status === 409) break;
    }
  });
});
