/**
 * The questions' summary groups each question's answers by what its module's hooks read (`summary.field`)
 * and runs the hooks once per distinct value. These tests hold it to running every hook on every whole
 * stored answer: over random answers of every summarised type, odd stored values among them (numbers
 * written `3.0` or `1e0`, a number where text belongs, JSON null, a missing field, a response of another
 * type or none at all), the statement's counts, statistics and option counts equal a per-answer
 * calculation from the same hooks, with and without a date filter. And each module's hooks read only its
 * response's `type` and `field`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { fc } from '@fast-check/vitest';
import { PgDialect } from 'drizzle-orm/pg-core';
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../src/db/client.ts';
import { rowsOf } from '../../src/db/rows.ts';
import { COMPONENT_MODULES } from '../../src/components/catalogue.ts';
import type { SummaryRules } from '../../src/components/module.ts';
import { questionsStatement, type SummaryFilter } from '../../src/responses/summary.service.ts';
import { createTenant, setupTestApp, type TestTenant } from '../support/helpers.ts';
import { insertResponses } from '../support/factories.ts';
import { makeForm } from '../support/public-helpers.ts';

let db: Database;
let tenant: TestTenant;

beforeAll(async () => {
  ({ db } = await setupTestApp());
  tenant = await createTenant(db);
});

const HOOKS = ['option', 'chosen', 'number', 'date'] as const;
const SUMMARISED = COMPONENT_MODULES.filter((module) => HOOKS.some((hook) => module.summary?.[hook]));

describe('the summary hooks', () => {
  it("read only the stored response's type and the module's field", () => {
    const dialect = new PgDialect();
    expect(SUMMARISED.length).toBeGreaterThan(0);
    for (const module of SUMMARISED) {
      const rules: SummaryRules = module.summary!;
      expect(rules.field, Object.keys(module.types).join()).toEqual(expect.any(String));
      for (const hook of HOOKS) {
        const expression = rules[hook];
        if (!expression) continue;
        const text = dialect.sqlToQuery(expression(sql.raw('stored_response'))).sql;
        const read = new Set([...text.matchAll(/stored_response\s*->>?\s*'([^']*)'/g)].map((m) => m[1]));
        expect(
          [...read].filter((key) => key !== 'type' && key !== rules.field),
          `${Object.keys(module.types).join()} ${hook}`,
        ).toEqual([]);
        // Every read of the response is by a named key (no whole-response use the grouping would miss).
        expect(text.split('stored_response').length - 1, `${Object.keys(module.types).join()} ${hook}`).toBe([...text.matchAll(/stored_response\s*->>?\s*'/g)].length);
      }
    }
  });
});

/** A stored value spelled as raw JSON text (JSON.stringify can't write `3.0`). */
const raw = (text: string) => `__raw__${text}__`;
const odd = fc.constantFrom<unknown>(null, 'x', '3', 3.5, true, [], {}, raw('3.0'), raw('1e0'), raw('-0'), raw('2.50'));
const withOdd = <T>(value: fc.Arbitrary<T>) => fc.oneof({ weight: 5, arbitrary: value }, { weight: 1, arbitrary: odd });

const COLUMNS = ['Low', 'Mid', 'High'];
const STEPS = [
  {
    name: 'All',
    components: [
      { type: 'Dropdown', content: { question: 'Size?', options: ['S', 'M', 'L'], isMulti: true } },
      { type: 'MultipleOptionsQuestion', content: { question: 'Pick', choices: ['a', 'b', 'c'], isMulti: true } },
      {
        type: 'GraphicOptions',
        content: {
          question: 'Picture?',
          options: [
            { label: 'Big', value: 'big' },
            { label: 'Tiny', value: 'tiny' },
          ],
        },
      },
      { type: 'Disclaimer', content: { text: 'Terms' } },
      { type: 'Rating', content: { question: 'Rate' } },
      { type: 'NPS', content: { question: 'Recommend?' } },
      { type: 'OpinionScale', content: { question: 'Clear?' } },
      { type: 'Number', content: { question: 'Seats', decimals: 2 } },
      { type: 'Date', content: { question: 'Start' } },
      { type: 'Matrix', content: { question: 'Grid', rows: ['Speed', 'Price'], columns: COLUMNS, isMulti: true } },
      { type: 'Ranking', content: { question: 'Order', options: ['A', 'B', 'C'] } },
    ],
  },
  { name: 'End', components: [{ type: 'Header', content: { title: 'Thanks' } }] },
];

/** What each type's answer holds (its field's value), valid most of the time. */
const FIELDS: Record<string, [string, fc.Arbitrary<unknown>]> = {
  Dropdown: ['selected', withOdd(fc.oneof(fc.constantFrom('S', 'M', 'L', 'XL'), fc.array(fc.constantFrom('S', 'M', 'L'), { maxLength: 4 })))],
  MultipleOptionsQuestion: [
    'choices',
    withOdd(fc.array(fc.record({ key: fc.constantFrom('a', 'b', 'c', 'old'), value: fc.oneof(fc.boolean(), fc.constant('true')) }), { maxLength: 4 })),
  ],
  GraphicOptions: ['value', withOdd(fc.constantFrom('big', 'tiny', 'gone'))],
  Disclaimer: ['check', withOdd(fc.boolean())],
  Rating: ['value', withOdd(fc.integer({ min: 1, max: 5 }))],
  NPS: ['value', withOdd(fc.integer({ min: 0, max: 10 }))],
  OpinionScale: ['value', withOdd(fc.integer({ min: 1, max: 5 }))],
  Number: ['value', withOdd(fc.integer({ min: -500, max: 500 }).map((cents) => cents / 100))],
  Date: ['value', withOdd(fc.constantFrom('2026-01-31', '2026-02-01', '2025-12-24', '2026-07-04'))],
  Matrix: [
    'rows',
    withOdd(
      fc.dictionary(fc.constantFrom('Speed', 'Price', 'Gone'), fc.oneof(fc.constantFrom(...COLUMNS), fc.array(fc.constantFrom(...COLUMNS), { maxLength: 3 }), fc.constant(7)), {
        maxKeys: 3,
      }),
    ),
  ],
  Ranking: ['ranking', withOdd(fc.oneof(fc.shuffledSubarray(['A', 'B', 'C']), fc.array(fc.constantFrom('A', 'B', 'Z'), { maxLength: 3 })))],
};
const TYPES = Object.keys(FIELDS);

/** One answer's stored response: its type's field (or, now and then, another type's, none, or no object at all). */
const storedResponse = (type: string) =>
  fc.oneof(
    { weight: 12, arbitrary: fc.option(FIELDS[type]![1], { freq: 8, nil: undefined }).map((value) => ({ type, value })) },
    { weight: 1, arbitrary: fc.constantFrom(...TYPES).chain((other) => FIELDS[other]![1].map((value) => ({ type: other, value }))) },
    { weight: 1, arbitrary: fc.constantFrom<unknown>('x', 3, null, { headline: 'no type' }) },
  );

type PerAnswer = { question_id: string; number: number | null; day: string | null; option: string | null; chosen: string[] | null };

/**
 * Every answer's number, date, option and chosen options from its module's hooks over its whole stored
 * response (by its type, as the summary picks the hooks), one row per answer: no grouping.
 */
function perAnswerStatement(formId: string, since: Date | undefined): SQL {
  const response = sql`e->'response'`;
  const byType = (hook: (typeof HOOKS)[number], wrap: (expression: SQL) => SQL) => {
    const branches = SUMMARISED.flatMap((module) => {
      const expression = module.summary![hook];
      return expression ? Object.keys(module.types).map((type) => sql`when ${type}::text then ${wrap(expression(response))}`) : [];
    });
    return sql`case ${response}->>'type' ${sql.join(branches, sql` `)} end`;
  };
  return sql`
    select e->>'questionId' as question_id, (${byType('number', (x) => sql`(${x})::float8`)}) as number, (${byType('date', (x) => sql`(${x})::text`)}) as day,
      (${byType('option', (x) => sql`(${x})::text`)}) as option, (${byType('chosen', (x) => sql`array(${x})`)}) as chosen
    from responses r cross join lateral jsonb_array_elements(r.data::jsonb) e
    where r.form_id = ${formId} ${since ? sql`and r.created_at >= ${since.toISOString()}::timestamptz` : sql``}`;
}

type StatementRow = {
  question_id: string;
  option: string | null;
  per_question: number;
  count: string;
  numbers: string | number;
  mean: string | number | null;
  median: string | number | null;
  min: string | number | null;
  max: string | number | null;
  earliest: string | null;
  latest: string | null;
};

const median = (sorted: number[]) => {
  if (sorted.length === 0) return null;
  const middle = (sorted.length - 1) / 2;
  const low = sorted[Math.floor(middle)]!;
  return low + (sorted[Math.ceil(middle)]! - low) * (middle - Math.floor(middle));
};
const orNull = (value: string | number | null) => (value === null ? null : Number(value));

async function expectSameAsPerAnswer(formId: string, filter: SummaryFilter) {
  const rows = rowsOf<StatementRow>(await db.execute(questionsStatement([{ id: formId }], filter)));
  const answers = rowsOf<PerAnswer>(await db.execute(perAnswerStatement(formId, filter.since)));
  const questions = [...new Set(answers.map((a) => a.question_id))].sort();
  expect(
    rows
      .filter((row) => Number(row.per_question) === 1)
      .map((row) => row.question_id)
      .sort(),
  ).toEqual(questions);
  for (const question of questions) {
    const mine = answers.filter((a) => a.question_id === question);
    const numbers = mine.flatMap((a) => (a.number === null ? [] : [Number(a.number)])).sort((x, y) => x - y);
    const days = mine.flatMap((a) => (a.day === null ? [] : [a.day])).sort();
    const row = rows.find((r) => r.question_id === question && Number(r.per_question) === 1)!;
    expect({ count: Number(row.count), numbers: Number(row.numbers), min: orNull(row.min), max: orNull(row.max), earliest: row.earliest, latest: row.latest }, question).toEqual({
      count: mine.length,
      numbers: numbers.length,
      min: numbers[0] ?? null,
      max: numbers.at(-1) ?? null,
      earliest: days[0] ?? null,
      latest: days.at(-1) ?? null,
    });
    if (numbers.length === 0) expect([row.mean, row.median]).toEqual([null, null]);
    else {
      expect(Number(row.mean)).toBeCloseTo(numbers.reduce((sum, n) => sum + n, 0) / numbers.length, 9);
      expect(Number(row.median)).toBeCloseTo(median(numbers)!, 9);
    }
    const counts = new Map<string, number>();
    for (const option of mine.flatMap((a) => [...(a.option === null ? [] : [a.option]), ...(a.chosen ?? [])])) counts.set(option, (counts.get(option) ?? 0) + 1);
    // An option can come in several rows (an answer's `option` and another's `chosen`, of other types): summed.
    const counted = new Map<string, number>();
    for (const r of rows.filter((r) => r.question_id === question && Number(r.per_question) === 0)) counted.set(r.option!, (counted.get(r.option!) ?? 0) + Number(r.count));
    expect(counted, question).toEqual(counts);
  }
  return answers.length;
}

describe('the summary over random answers of every summarised type, odd stored values among them', () => {
  it('equals running the hooks on every whole answer, with and without a date filter', async () => {
    const form = await makeForm(db, tenant, STEPS, 'Every type');
    const questions = form.steps[0]!.components;
    expect(questions.map((q) => q.type)).toEqual(TYPES);
    const responsesOf = fc.sample(fc.tuple(fc.boolean(), ...questions.map((q) => fc.option(storedResponse(q.type), { freq: 6, nil: undefined }))), { numRuns: 400, seed: 41 });
    const old = new Date('2025-06-01T00:00:00Z');
    const seeds = responsesOf.map(([isOld, ...stored]) => ({
      isOld,
      data: stored.flatMap((response, i) => {
        if (response === undefined) return [];
        if (typeof response !== 'object' || response === null || !('value' in response)) return [{ questionId: questions[i]!.id, response }];
        const { type, value } = response as { type: string; value: unknown };
        const fields = value === undefined ? {} : { [FIELDS[type]![0]]: value };
        return [{ questionId: questions[i]!.id, response: { type, componentShapeVersion: '2.0', headline: 'Q', ...fields } }];
      }),
    }));
    const ids = await insertResponses(
      db,
      seeds.map((seed) => ({ environmentId: tenant.environmentId, formId: form.id, data: [], createdAt: seed.isOld ? old : new Date() })),
    );
    // The answers as raw JSON text, so that `3.0` and `1e0` are stored as written.
    for (const [i, seed] of seeds.entries()) {
      const text = JSON.stringify(seed.data).replace(/"__raw__(.*?)__"/g, '$1');
      await db.execute(sql`update responses set data = ${text}::json where id = ${ids[i]!}`);
    }
    const all = await expectSameAsPerAnswer(form.id, {});
    expect(all).toBeGreaterThan(2000);
    const recent = await expectSameAsPerAnswer(form.id, { since: new Date('2026-01-01T00:00:00Z') });
    expect(recent).toBeLessThan(all);
  });
});
