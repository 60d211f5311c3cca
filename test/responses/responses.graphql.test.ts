/** The formResponses and environmentResponses queries: the same rules as REST, through /graphql. */
import { beforeAll, describe, expect, it } from 'vitest';
import { revokeApiKey } from '../../src/auth/auth.service.ts';
import { ADMIN_TOKEN, createTenant, graphql, setupTestApp, type TestContext, type TestTenant } from '../support/helpers.ts';
import { createForm, createLead, insertResponse, insertResponses, insertTimeline, sampleAnswers } from '../support/factories.ts';

let ctx: TestContext;
let a: TestTenant;
let b: TestTenant;

beforeAll(async () => {
  ctx = await setupTestApp();
  a = await createTenant(ctx.db);
  b = await createTenant(ctx.db);
});

const FIELDS = /* GraphQL */ `
  edges {
    cursor
    node {
      id createdAt updatedAt dataUpdatedAt finished status formId version leadId meta
      personAttributes { ip country visitedForm completedForm }
      data { questionId response }
      rawData
    }
  }
  pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
`;

const FORM_RESPONSES = /* GraphQL */ `
  query ($formId: ID!, $environmentId: ID, $filter: ResponseFilter, $first: Int, $after: String) {
    formResponses(formId: $formId, environmentId: $environmentId, filter: $filter, first: $first, after: $after) { ${FIELDS} }
  }
`;
const ENVIRONMENT_RESPONSES = /* GraphQL */ `
  query ($environmentId: ID, $filter: ResponseFilter, $first: Int, $after: String) {
    environmentResponses(environmentId: $environmentId, filter: $filter, first: $first, after: $after) { ${FIELDS} }
  }
`;

const key = (tenant: TestTenant) => ({ 'x-api-key': tenant.apiKey });
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
const nodeIds = (connection: { edges: { node: { id: string } }[] }) => connection.edges.map((e) => e.node.id);

async function formResponses(variables: Record<string, unknown>, headers: Record<string, string> = key(a)) {
  return graphql(ctx.app, FORM_RESPONSES, variables, headers);
}
async function environmentResponses(variables: Record<string, unknown>, headers: Record<string, string> = key(a)) {
  return graphql(ctx.app, ENVIRONMENT_RESPONSES, variables, headers);
}

/**
 * Walks a connection by endCursor. The walk expects `rows` nodes, `first` a page, and may take the pages
 * they fill and one more: a connection that goes on (a cursor that does not advance, a filter that lets
 * other rows in) fails the test at once instead of paging on.
 */
async function walkConnection(run: (after: string | null) => Promise<any>, rows: number, first: number, between: () => Promise<void> = async () => {}) {
  const maxPages = Math.max(1, Math.ceil(rows / first)) + 1;
  const seen: string[] = [];
  let after: string | null = null;
  for (let page = 0; page < maxPages; page++) {
    const connection = await run(after);
    seen.push(...nodeIds(connection));
    if (!connection.pageInfo.hasNextPage) return seen;
    after = connection.pageInfo.endCursor;
    await between();
  }
  throw new Error(`the connection still had a next page after ${maxPages} pages of ${first} (expected ${rows} nodes, seen ${seen.length})`);
}

describe('formResponses', () => {
  it('returns the 10 most recent by default, newest first, with every field of the response object', async () => {
    const form = await createForm(ctx.db, a.environmentId);
    const lead = await createLead(ctx.db, a.environmentId, 'grace@example.com');
    const timeline = await insertTimeline(ctx.db, { environmentId: a.environmentId, formId: form.id, count: 11 });
    await insertResponse(ctx.db, {
      environmentId: a.environmentId,
      formId: form.id,
      leadId: lead.id,
      createdAt: '2027-01-01T00:00:00.000001Z',
      ip: '192.0.2.1',
      country: 'NL',
      visitedForm: 2,
      completedForm: 1,
      meta: { source: 'page' },
    });
    const { status, body } = await formResponses({ formId: form.id });
    expect(status).toBe(200);
    const connection = body.data.formResponses;
    expect(connection.edges).toHaveLength(10);
    expect(nodeIds(connection).slice(1)).toEqual(timeline.slice(0, 9).map((r) => r.id));
    expect(connection.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false, startCursor: connection.edges[0].cursor, endCursor: connection.edges[9].cursor });
    expect(connection.edges[0].node).toEqual({
      id: expect.any(String),
      createdAt: '2027-01-01T00:00:00.000Z',
      updatedAt: '2027-01-01T00:00:00.000Z',
      dataUpdatedAt: '2027-01-01T00:00:00.000Z',
      finished: true,
      status: 4,
      formId: form.id,
      version: '2.0',
      leadId: lead.id,
      meta: { source: 'page', leadId: lead.id },
      personAttributes: { ip: '192.0.2.1', country: 'NL', visitedForm: 2, completedForm: 1 },
      data: sampleAnswers(),
      rawData: sampleAnswers(),
    });
  });

  it('pages with first and after, each response exactly once, first at most 100', async () => {
    const form = await createForm(ctx.db, a.environmentId);
    const timeline = await insertTimeline(ctx.db, { environmentId: a.environmentId, formId: form.id, count: 23, finished: (i) => i % 5 !== 1 });
    const completed = timeline.filter((r) => r.finished).map((r) => r.id);
    const walked = await walkConnection(async (after) => (await formResponses({ formId: form.id, first: 4, after })).body.data.formResponses, completed.length, 4);
    expect(walked).toEqual(completed);
    const all = await walkConnection(
      async (after) => (await formResponses({ formId: form.id, first: 100, after, filter: { returnPartials: true } })).body.data.formResponses,
      timeline.length,
      100,
    );
    expect(all).toEqual(timeline.map((r) => r.id));
  });

  it('returns partials only when asked, with their status', async () => {
    const form = await createForm(ctx.db, a.environmentId);
    await insertResponses(ctx.db, [
      { environmentId: a.environmentId, formId: form.id, finished: false, createdAt: new Date() },
      { environmentId: a.environmentId, formId: form.id, finished: true, createdAt: new Date(Date.now() - 5000) },
    ]);
    const completedOnly = (await formResponses({ formId: form.id })).body.data.formResponses;
    expect(completedOnly.edges.map((e: any) => [e.node.finished, e.node.status])).toEqual([[true, 4]]);
    const withPartials = (await formResponses({ formId: form.id, filter: { returnPartials: true } })).body.data.formResponses;
    expect(withPartials.edges.map((e: any) => [e.node.finished, e.node.status])).toEqual([
      [false, 2],
      [true, 4],
    ]);
  });

  it('filters with since/until on createdAt or updatedAt', async () => {
    const form = await createForm(ctx.db, a.environmentId);
    const [r1, r2, r3] = await insertResponses(ctx.db, [
      { environmentId: a.environmentId, formId: form.id, createdAt: '2024-01-03T00:00:00Z', updatedAt: '2024-01-03T00:00:00Z' },
      { environmentId: a.environmentId, formId: form.id, createdAt: '2024-01-02T00:00:00Z', updatedAt: '2024-02-01T00:00:00Z' },
      { environmentId: a.environmentId, formId: form.id, createdAt: '2024-01-01T00:00:00Z', updatedAt: '2024-01-01T00:00:00Z' },
    ]);
    const run = async (filter: object) => nodeIds((await formResponses({ formId: form.id, filter })).body.data.formResponses);
    expect(await run({ since: '2024-01-02T00:00:00Z' })).toEqual([r1, r2]);
    expect(await run({ until: '2024-01-02T00:00:00Z' })).toEqual([r3]);
    expect(await run({ since: '2024-01-02T00:00:00Z', until: '2024-01-03T00:00:00Z' })).toEqual([r2]);
    expect(await run({ dateField: 'UPDATED_AT', since: '2024-01-15T00:00:00Z' })).toEqual([r2]);
  });

  it("is NOT_FOUND for an unknown form or another environment's form", async () => {
    const theirs = await createForm(ctx.db, b.environmentId);
    await insertResponse(ctx.db, { environmentId: b.environmentId, formId: theirs.id });
    for (const formId of ['nope', theirs.id]) {
      const { body } = await formResponses({ formId });
      expect(body.data).toBeNull();
      expect(body.errors?.[0]).toMatchObject({ message: 'Form not found', extensions: { code: 'NOT_FOUND' } });
    }
  });
});

describe('environmentResponses', () => {
  it('returns every form of the environment and nothing of another environment, by any argument', async () => {
    const mine = await createTenant(ctx.db);
    const theirs = await createTenant(ctx.db);
    const [f1, f2] = [await createForm(ctx.db, mine.environmentId), await createForm(ctx.db, mine.environmentId)];
    const theirForm = await createForm(ctx.db, theirs.environmentId);
    const myIds = await insertResponses(
      ctx.db,
      Array.from({ length: 30 }, (_, i) => ({
        environmentId: mine.environmentId,
        formId: (i % 2 ? f1 : f2).id,
        finished: i % 4 !== 0,
        createdAt: new Date(Date.UTC(2025, 0, 1, 0, 0, i)),
      })),
    ).then((ids) => ids.reverse());
    const theirIds = await insertResponses(
      ctx.db,
      Array.from({ length: 30 }, (_, i) => ({ environmentId: theirs.environmentId, formId: theirForm.id, createdAt: new Date(Date.UTC(2025, 0, 1, 0, 0, i, 500)) })),
    );
    const walked = await walkConnection(
      async (after) => (await environmentResponses({ first: 7, after, filter: { returnPartials: true } }, key(mine))).body.data.environmentResponses,
      myIds.length,
      7,
    );
    expect(walked).toEqual(myIds);
    const theirCursor = (await environmentResponses({ first: 2 }, key(theirs))).body.data.environmentResponses.pageInfo.endCursor;
    for (const variables of [
      {},
      { first: 100, filter: { returnPartials: true } },
      { after: theirCursor, filter: { returnPartials: true } },
      { environmentId: mine.environmentId, filter: { since: '2000-01-01T00:00:00Z', dateField: 'UPDATED_AT', returnPartials: true } },
    ]) {
      const got = nodeIds((await environmentResponses(variables, key(mine))).body.data.environmentResponses);
      expect(got.length).toBeGreaterThan(0);
      expect(got.every((id) => myIds.includes(id))).toBe(true);
      expect(got.some((id) => theirIds.includes(id))).toBe(false);
    }
    // An API key cannot name another environment.
    const { body } = await environmentResponses({ environmentId: theirs.environmentId }, key(mine));
    expect(body.errors?.[0].extensions.code).toBe('FORBIDDEN');
  });

  it('walks every response exactly once while new ones arrive', async () => {
    const tenant = await createTenant(ctx.db);
    const form = await createForm(ctx.db, tenant.environmentId);
    const before = await insertTimeline(ctx.db, { environmentId: tenant.environmentId, formId: form.id, count: 17, newest: Date.now() - 10_000 });
    const walked = await walkConnection(
      async (after) => (await environmentResponses({ first: 3, after }, key(tenant))).body.data.environmentResponses,
      before.length,
      3,
      async () => void (await insertResponse(ctx.db, { environmentId: tenant.environmentId, formId: form.id })),
    );
    expect(walked).toEqual(before.map((r) => r.id));
  });

  it('lets the admin token read an environment it names, and requires it to name one', async () => {
    const tenant = await createTenant(ctx.db);
    const form = await createForm(ctx.db, tenant.environmentId);
    const [id] = await insertResponses(ctx.db, [{ environmentId: tenant.environmentId, formId: form.id }]);
    const named = await environmentResponses({ environmentId: tenant.environmentId }, admin);
    expect(nodeIds(named.body.data.environmentResponses)).toEqual([id]);
    const viaForm = await formResponses({ formId: form.id, environmentId: tenant.environmentId }, admin);
    expect(nodeIds(viaForm.body.data.formResponses)).toEqual([id]);
    const wrongEnvironment = await formResponses({ formId: form.id, environmentId: a.environmentId }, admin);
    expect(wrongEnvironment.body.errors?.[0].extensions.code).toBe('NOT_FOUND');
    const unnamed = await environmentResponses({}, admin);
    expect(unnamed.body.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', errors: [{ path: ['environmentId'] }] } });
  });
});

describe('errors', () => {
  it('UNAUTHENTICATED without a key or with a revoked one', async () => {
    const tenant = await createTenant(ctx.db);
    await revokeApiKey(ctx.db, tenant.apiKeyId);
    const missing = await environmentResponses({}, {});
    expect(missing.body.errors?.[0]).toMatchObject({ message: 'Missing API key', extensions: { code: 'UNAUTHENTICATED' } });
    const revoked = await environmentResponses({}, key(tenant));
    expect(revoked.body.errors?.[0]).toMatchObject({ message: 'Invalid API key', extensions: { code: 'UNAUTHENTICATED' } });
  });

  it('BAD_USER_INPUT for first outside 1..100, a malformed cursor, or until not after since', async () => {
    const cases: [Record<string, unknown>, (string | number)[]][] = [
      [{ first: 0 }, ['first']],
      [{ first: 101 }, ['first']],
      [{ after: 'garbage' }, ['after']],
      [{ after: Buffer.from('{"createdAt":1,"id":"x"}').toString('base64url') }, ['after']],
      [{ filter: { since: '2024-02-01T00:00:00Z', until: '2024-01-01T00:00:00Z' } }, ['filter', 'until']],
      [{ filter: { since: '0000-01-01T00:00:00Z' } }, ['filter', 'since']],
    ];
    for (const [variables, path] of cases) {
      for (const run of [() => environmentResponses(variables), () => formResponses({ formId: a.templateId, ...variables })]) {
        const { body } = await run();
        expect(body.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', errors: [{ message: expect.any(String), path }] } });
      }
    }
  });

  it('rejects a since that is not a date-time', async () => {
    const { body } = await environmentResponses({ filter: { since: 'yesterday' } });
    expect(body.errors?.[0].message).toMatch(/DateTime/);
  });
});

describe('typed answers', () => {
  it('offer each answer typed by component beside the raw response', async () => {
    const form = await createForm(ctx.db, a.environmentId);
    await insertResponse(ctx.db, { environmentId: a.environmentId, formId: form.id, createdAt: '2030-01-01T00:00:00Z' });
    const { body } = await graphql(
      ctx.app,
      /* GraphQL */ `
        query ($formId: ID!) {
          formResponses(formId: $formId, first: 1) {
            edges {
              node {
                data {
                  questionId
                  answer {
                    __typename
                    ... on ShortInputAnswer { type headline input }
                    ... on LongInputAnswer { input }
                    ... on IdentityInfoAnswer { firstName lastName fullName emailAddress companyName phoneNumber }
                    ... on DropdownAnswer { selected isMulti }
                    ... on MultipleOptionsQuestionAnswer { choices { key value index } selectedOther }
                    ... on SchedulerAnswer { type eventScheduled uri meetingTime meetingEndTime ownerEmails guestEmails }
                    ... on DisclaimerAnswer { check }
                    ... on GraphicOptionsAnswer { index value }
                    ... on FileUploaderAnswer { fileUrl }
                    ... on PasswordInputAnswer { type headline componentShapeVersion }
                    ... on OtherAnswer { type headline }
                  }
                }
              }
            }
          }
        }
      `,
      { formId: form.id },
      key(a),
    );
    expect(body.errors).toBeUndefined();
    const answers = Object.fromEntries(body.data.formResponses.edges[0].node.data.map((d: any) => [d.questionId, d.answer]));
    expect(answers).toEqual({
      'q-identity': {
        __typename: 'IdentityInfoAnswer',
        firstName: 'Ada',
        lastName: 'Lovelace',
        fullName: 'Ada Lovelace',
        emailAddress: 'ada@example.com',
        companyName: 'Analytical',
        phoneNumber: null,
      },
      'q-short': { __typename: 'ShortInputAnswer', type: 'ShortInput', headline: 'Role?', input: 'Engineer' },
      'q-long': { __typename: 'LongInputAnswer', input: 'Line one\nLine two' },
      'q-dropdown': { __typename: 'DropdownAnswer', selected: ['M'], isMulti: false },
      'q-dropdown-multi': { __typename: 'DropdownAnswer', selected: ['Git', 'Vim'], isMulti: true },
      'q-options': {
        __typename: 'MultipleOptionsQuestionAnswer',
        choices: [
          { key: 'a', value: true, index: 0 },
          { key: 'b', value: false, index: 1 },
        ],
        selectedOther: false,
      },
      'q-calendar': {
        __typename: 'SchedulerAnswer',
        type: 'CalendlyScreen',
        eventScheduled: true,
        uri: 'https://api.calendly.com/scheduled_events/abc',
        meetingTime: '2026-01-02T10:00:00.000Z',
        meetingEndTime: '2026-01-02T10:30:00.000Z',
        ownerEmails: ['owner@example.com'],
        guestEmails: ['ada@example.com'],
      },
      'q-disclaimer': { __typename: 'DisclaimerAnswer', check: true },
      'q-graphic': { __typename: 'GraphicOptionsAnswer', index: 2, value: 'Bold' },
      'q-file': { __typename: 'FileUploaderAnswer', fileUrl: 'https://files.example.com/cv.pdf' },
      'q-password': { __typename: 'PasswordInputAnswer', type: 'PasswordInput', headline: 'Password', componentShapeVersion: '2.0' },
      'q-email': { __typename: 'OtherAnswer', type: 'EmailForm', headline: 'E-mail' },
    });
  });

  it('have no field that reveals a password answer', async () => {
    const { body } = await graphql(ctx.app, '{ __type(name: "PasswordInputAnswer") { fields { name } } }', {}, key(a));
    expect(body.data.__type.fields.map((f: any) => f.name).sort()).toEqual(['componentShapeVersion', 'headline', 'leadAttribute', 'type']);
  });
});
