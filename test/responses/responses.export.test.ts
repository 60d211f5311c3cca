/** GET /api/v1/responses/export: CSV and NDJSON, the listing's filters, streamed, formula cells neutralised. */
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/auth.service.ts';
import { responseRow, type ExportedResponse } from '../../src/responses/export.ts';
import { ADMIN_TOKEN, createTenant, setupTestApp, type TestContext, type TestTenant } from '../support/helpers.ts';
import { bulkInsertResponses, createForm, createLead, insertResponse, insertResponses, insertTimeline } from '../support/factories.ts';
import { componentAt, makeForm } from '../support/public-helpers.ts';
import { deleteForm, type Form } from '../../src/forms/forms.service.ts';
import { readToEnd } from '../support/streams.ts';
import type { ResponseAnswer } from '../../src/db/json-columns.ts';

let ctx: TestContext;
let a: TestTenant;
let b: TestTenant;

beforeAll(async () => {
  ctx = await setupTestApp();
  a = await createTenant(ctx.db);
  b = await createTenant(ctx.db);
});

async function exportOf(query: string, headers: Record<string, string> = { 'x-api-key': a.apiKey }) {
  const response = await ctx.app.request(`/api/v1/responses/export${query}`, { headers });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

const csvRows = (text: string): string[][] => parse(text); // every row as long as the header (csv-parse's default)
const ndjson = (text: string) =>
  text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { id: string; [key: string]: unknown });

const HOSTILE_HEADLINE = 'Name, "nick"\nand more';
const FORMULA_HEADLINE = '=HYPERLINK("http://evil.example","click")';

/** A form whose headlines hold commas, quotes, a line break and a formula; and one response answering everything. */
async function hostileForm(): Promise<{ form: Form; responseId: string; leadId: string }> {
  const form = await makeForm(ctx.db, a, [
    {
      name: 'One',
      components: [
        { type: 'Header', content: { title: 'Welcome' } },
        { type: 'ShortInput', content: { question: HOSTILE_HEADLINE } },
        { type: 'LongInput', content: { question: FORMULA_HEADLINE } },
        {
          type: 'IdentityInfo',
          content: {
            fields: [
              { key: 'emailAddress', label: 'E-mail' },
              { key: 'firstName', label: '+First' },
            ],
          },
        },
      ],
    },
    {
      name: 'Two',
      components: [
        { type: 'Dropdown', content: { question: 'Tools', options: ['Excel, LibreOffice', 'Sheets', '-minus'], isMulti: true } },
        { type: 'MultipleOptionsQuestion', content: { question: 'Size', choices: ['S', 'M', 'L'], isMulti: true, allowOther: true } },
        { type: 'Disclaimer', content: { text: 'I agree' } },
        { type: 'CalendlyScreen', content: { url: 'https://calendly.com/acme/intro', message: 'Book' } },
        { type: 'PasswordInput', content: { question: 'Secret' } },
        { type: 'NextButton', content: { label: 'Send' } },
      ],
    },
  ]);
  const id = (step: number, index: number) => componentAt(form, step, index).id;
  const base = { componentShapeVersion: '2.0' };
  const data: ResponseAnswer[] = [
    { questionId: id(0, 1), response: { ...base, type: 'ShortInput', headline: HOSTILE_HEADLINE, input: 'a "quoted", multi\r\nline answer' } },
    { questionId: id(0, 2), response: { ...base, type: 'LongInput', headline: FORMULA_HEADLINE, input: '=1+1' } },
    { questionId: id(0, 3), response: { ...base, type: 'IdentityInfo', headline: 'E-mail, +First', emailAddress: '@ada@example.com', firstName: '\tAda' } },
    { questionId: id(1, 0), response: { ...base, type: 'Dropdown', headline: 'Tools', selected: ['Excel, LibreOffice', '-minus'] } },
    {
      questionId: id(1, 1),
      response: {
        ...base,
        type: 'MultipleOptionsQuestion',
        headline: 'Size',
        choices: [
          { key: 'S', value: true, index: 0 },
          { key: 'M', value: false, index: 1 },
          { key: 'L', value: true, index: 2 },
        ],
        selectedOther: true,
        other: 'XXL',
      },
    },
    { questionId: id(1, 2), response: { ...base, type: 'Disclaimer', headline: 'I agree', check: true } },
    { questionId: id(1, 3), response: { ...base, type: 'CalendlyScreen', headline: 'Book', eventScheduled: true, meetingTime: '2026-02-01T10:00:00.000Z' } },
    { questionId: id(1, 4), response: { ...base, type: 'PasswordInput', headline: 'Secret', input: 'scrypt$hash' } },
  ];
  const lead = await createLead(ctx.db, a.environmentId);
  const responseId = await insertResponse(ctx.db, {
    environmentId: a.environmentId,
    formId: form.id,
    leadId: lead.id,
    data,
    createdAt: '2026-01-05T10:00:00.123456Z',
    ip: '-1+1',
    country: 'DE',
  });
  return { form, responseId, leadId: lead.id };
}

describe('CSV of one form', () => {
  it('has the fixed columns, then one per question (IdentityInfo one per key), parsed back exactly; formula cells start with a quote', async () => {
    const { form, responseId, leadId } = await hostileForm();
    const res = await exportOf(`?formId=${form.id}&format=csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv; charset=utf-8/);
    expect(res.headers.get('content-disposition')).toMatch(new RegExp(`^attachment; filename="responses-${form.id}-\\d{4}-\\d{2}-\\d{2}\\.csv"$`));
    // RFC 4180: CRLF between records.
    expect(res.text.endsWith('\r\n')).toBe(true);

    const rows = csvRows(res.text);
    expect(rows).toHaveLength(2);
    const id = (step: number, index: number) => componentAt(form, step, index).id;
    expect(rows[0]).toEqual([
      'id',
      'createdAt',
      'updatedAt',
      'finished',
      'status',
      'formId',
      'leadId',
      'ip',
      'country',
      'formVersion',
      'path',
      'language',
      `${HOSTILE_HEADLINE} [${id(0, 1)}]`,
      `'${FORMULA_HEADLINE} [${id(0, 2)}]`,
      `E-mail [${id(0, 3)}.emailAddress]`,
      `'+First [${id(0, 3)}.firstName]`,
      `Tools [${id(1, 0)}]`,
      `Size [${id(1, 1)}]`,
      `I agree [${id(1, 2)}]`,
      `Book [${id(1, 3)}]`,
      `Secret [${id(1, 4)}]`,
    ]);
    expect(rows[1]).toEqual([
      responseId,
      '2026-01-05T10:00:00.123Z',
      '2026-01-05T10:00:00.123Z',
      'true',
      '4',
      form.id,
      leadId,
      "'-1+1",
      'DE',
      '1',
      '',
      '',
      'a "quoted", multi\r\nline answer',
      "'=1+1",
      "'@ada@example.com",
      "'\tAda",
      'Excel, LibreOffice; -minus',
      'S; L; XXL',
      'true',
      '2026-02-01T10:00:00.000Z',
      '',
    ]);
  });

  it('quotes a field holding a lone LF or CR (not only CRLF), so every line break stays inside its cell', async () => {
    const form = await makeForm(ctx.db, a, [
      { name: 'One', components: [{ type: 'LongInput', content: { question: 'Address' } }] },
      { name: 'Two', components: [{ type: 'NextButton', content: { label: 'Send' } }] },
    ]);
    const input = 'first line\nsecond line\rthird';
    const data: ResponseAnswer[] = [{ questionId: componentAt(form, 0, 0).id, response: { componentShapeVersion: '2.0', type: 'LongInput', headline: 'Address', input } }];
    const lead = await createLead(ctx.db, a.environmentId);
    await insertResponse(ctx.db, { environmentId: a.environmentId, formId: form.id, leadId: lead.id, data });
    const res = await exportOf(`?formId=${form.id}&format=csv`);
    expect(res.status).toBe(200);
    expect(res.text).toContain(`,"${input}"\r\n`);
    const rows = csvRows(res.text);
    expect(rows).toHaveLength(2);
    expect(rows[1]!.at(-1)).toBe(input);
  });

  it('never reads an inherited property: a hidden field named toString or constructor, a meta without path or leadId', () => {
    const response = {
      id: 'r1',
      createdAt: '2024-01-01T00:00:00.000Z',
      updatedAt: '2024-01-01T00:00:00.000Z',
      finished: false,
      status: 2,
      formId: 'f1',
      meta: { hiddenFields: { plan: 'pro' } },
      personAttributes: { ip: '', country: '' },
      data: [],
    } as unknown as ExportedResponse;
    const columns = ['toString', 'constructor', '__proto__', 'plan'].map((name) => ({ header: `${name} [hidden]`, hiddenField: name, questionId: '', type: '' }));
    const row = responseRow(response, columns);
    expect(row.slice(-4)).toEqual(['', '', '', 'pro']);
    // The leadId and path cells: nothing (not Object.prototype's members) when the metadata has none.
    expect(row.join(',')).not.toMatch(/function|native code|\[object/);
  });

  it('writes the header row alone when there is nothing to export', async () => {
    const form = await createForm(ctx.db, a.environmentId, 'Empty');
    const res = await exportOf(`?formId=${form.id}`);
    expect(res.status).toBe(200);
    const rows = csvRows(res.text);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.slice(0, 10)).toEqual(['id', 'createdAt', 'updatedAt', 'finished', 'status', 'formId', 'leadId', 'ip', 'country', 'formVersion']);
  });
});

describe('NDJSON and filters', () => {
  it("writes every response of a form (more than a page) newest first, each the listing's response object", async () => {
    const form = await createForm(ctx.db, a.environmentId, 'Many');
    const timeline = await insertTimeline(ctx.db, { environmentId: a.environmentId, formId: form.id, count: 230, finished: (i) => i % 3 !== 0 });
    const all = await exportOf(`?formId=${form.id}&format=ndjson&returnPartials=true`);
    expect(all.status).toBe(200);
    expect(all.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const lines = ndjson(all.text);
    expect(lines.map((r) => r.id)).toEqual(timeline.map((r) => r.id));

    const finished = ndjson((await exportOf(`?formId=${form.id}&format=ndjson`)).text);
    expect(finished.map((r) => r.id)).toEqual(timeline.filter((r) => r.finished).map((r) => r.id));

    // The same objects as GET /api/v1/responses.
    const listing = await ctx.app.request(`/api/v1/responses?formId=${form.id}&returnPartials=true`, { headers: { 'x-api-key': a.apiKey } });
    const { data } = (await listing.json()) as { data: unknown[] };
    expect(lines.slice(0, 10)).toEqual(data);

    const since = timeline[99]!.createdAt;
    const until = timeline[20]!.createdAt;
    const window = ndjson((await exportOf(`?formId=${form.id}&format=ndjson&returnPartials=true&since=${since}&until=${until}`)).text);
    expect(window.map((r) => r.id)).toEqual(timeline.slice(21, 100).map((r) => r.id));
  });

  it("exports the whole environment with a `data` column of answers as JSON, and never another environment's", async () => {
    const tenant = await createTenant(ctx.db);
    const form = await createForm(ctx.db, tenant.environmentId);
    const other = await createForm(ctx.db, b.environmentId);
    const mine = await insertTimeline(ctx.db, { environmentId: tenant.environmentId, formId: form.id, count: 3 });
    await insertTimeline(ctx.db, { environmentId: b.environmentId, formId: other.id, count: 3 });
    const res = await exportOf('', { 'x-api-key': tenant.apiKey });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain(`responses-${tenant.environmentId}-`);
    const rows = csvRows(res.text);
    expect(rows[0]).toEqual(['id', 'createdAt', 'updatedAt', 'finished', 'status', 'formId', 'leadId', 'ip', 'country', 'formVersion', 'path', 'language', 'hiddenFields', 'data']);
    expect(rows.slice(1).map((row) => row[0])).toEqual(mine.map((r) => r.id));
    const answers = JSON.parse(rows[1]![13]!) as { questionId: string }[];
    expect(answers.map((answer) => answer.questionId)).toContain('q-identity');
  });

  it("writes the rows after the first page (the service's batches) as it writes the first page's", async () => {
    // The first 100 come from the GraphQL operation, the rest from rows whose answers are written from
    // jsonb text: every CSV row must be what responseRow makes of that response's NDJSON object.
    const tenant = await createTenant(ctx.db);
    const form = await createForm(ctx.db, tenant.environmentId);
    const lead = await createLead(ctx.db, tenant.environmentId);
    // Answers with text that jsonb writes otherwise (blanks after , and :, escapes, non-ASCII), in every batch.
    const answers = (i: number): ResponseAnswer[] => [
      { questionId: 'q1', response: { type: 'ShortInput', headline: 'Name, "nick": ü', componentShapeVersion: '2.0', input: `a\\b "${i}"` } },
    ];
    await insertResponses(
      ctx.db,
      Array.from({ length: 300 }, (_, i) => ({
        environmentId: tenant.environmentId,
        formId: form.id,
        leadId: lead.id,
        finished: i % 3 !== 0,
        data: answers(i),
        // The form version, read from the metadata's text in the later batches; a user agent cannot fake it.
        meta: i % 4 === 0 ? { source: 'page' as const } : { source: 'api' as const, userAgent: `ua "formVersion": 9, \\"formVersion\\": 8}`, formVersion: 1 + (i % 3) },
        createdAt: new Date(Date.UTC(2024, 0, 1, 0, 0, i)),
      })),
    );
    const headers = { 'x-api-key': tenant.apiKey };
    const objects = ndjson((await exportOf('?format=ndjson&returnPartials=true', headers)).text);
    const rows = csvRows((await exportOf('?returnPartials=true', headers)).text).slice(1);
    expect(rows.length).toBe(300);
    expect(rows).toEqual(objects.map((object) => responseRow(object as unknown as ExportedResponse, undefined)));
    expect(new Set(rows.map((row) => row[13])).size).toBe(300);
    expect(new Set(rows.map((row) => row[9]))).toEqual(new Set(['1', '2', '3']));
  });

  it('streams a 10,000-response export page by page instead of building it whole', async () => {
    const tenant = await createTenant(ctx.db);
    const form = await createForm(ctx.db, tenant.environmentId);
    const lead = await createLead(ctx.db, tenant.environmentId);
    await bulkInsertResponses(ctx.db, { environmentId: tenant.environmentId, formIds: [form.id], count: 10_000, leadId: lead.id });
    const response = await ctx.app.request('/api/v1/responses/export?format=ndjson&returnPartials=true', { headers: { 'x-api-key': tenant.apiKey } });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let chunks = 0;
    let lines = 0;
    let rest = '';
    // ~400 bytes a line here: an export that goes on past 1 KB a line fails instead of running on.
    await readToEnd(reader, 10_000 * 1024, (chunk) => {
      chunks++;
      const text = rest + decoder.decode(chunk, { stream: true });
      const parts = text.split('\n');
      rest = parts.pop()!;
      lines += parts.length;
    });
    expect(rest).toBe('');
    expect(lines).toBe(10_000);
    // One chunk per page of 100: a body built whole before sending would arrive as one.
    expect(chunks).toBeGreaterThanOrEqual(100);
  });
  it('cuts the body, never completes it, when the form is deleted while its export streams', async () => {
    const tenant = await createTenant(ctx.db);
    const form = await createForm(ctx.db, tenant.environmentId);
    const lead = await createLead(ctx.db, tenant.environmentId);
    const count = 3_000; // well past what the stream queues (256 KB) ahead of the client
    await bulkInsertResponses(ctx.db, { environmentId: tenant.environmentId, formIds: [form.id], count, leadId: lead.id });
    // app.fetch: the tests' app.request reads a copy of the body whole, which would read it all before the delete.
    const res = await ctx.app.fetch(
      new Request(`http://localhost/api/v1/responses/export?format=ndjson&returnPartials=true&formId=${form.id}`, { headers: { 'x-api-key': tenant.apiKey } }),
    );
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value, { stream: true });
    await deleteForm(ctx.db, tenant.environmentId, form.id);
    const rest = readToEnd(reader, count * 1024, (chunk) => (text += decoder.decode(chunk, { stream: true })));
    await expect(rest).rejects.toMatchObject({ message: 'Form not found' });
    expect(text.split('\n').length - 1).toBeLessThan(count);
  });
});

describe('access and parameters', () => {
  it('needs a key (401) before looking at the parameters', async () => {
    const res = await exportOf('?format=xlsx', {});
    expect(res.status).toBe(401);
    expect(JSON.parse(res.text)).toEqual({ message: 'Missing API key' });
  });

  it('lets a key holding responses:read alone export a form (its CSV names the questions), not another environment’s', async () => {
    const { form } = await hostileForm();
    const reader = (await createApiKey(ctx.db, { environmentId: a.environmentId, scopes: ['responses:read'] })).key;
    const res = await exportOf(`?formId=${form.id}`, { 'x-api-key': reader });
    expect(res.status, res.text).toBe(200);
    expect(res.text).toBe((await exportOf(`?formId=${form.id}`)).text);
    expect(csvRows(res.text)[0]).toContain(`${HOSTILE_HEADLINE} [${componentAt(form, 0, 1).id}]`);
    const foreign = await exportOf(`?formId=${b.templateId}`, { 'x-api-key': reader });
    expect({ status: foreign.status, body: JSON.parse(foreign.text) }).toEqual({ status: 404, body: { message: 'Form not found' } });
    const formsOnly = (await createApiKey(ctx.db, { environmentId: a.environmentId, scopes: ['forms:read'] })).key;
    expect(JSON.parse((await exportOf(`?formId=${form.id}`, { 'x-api-key': formsOnly })).text)).toEqual({ message: 'API key lacks the scope responses:read' });
  });

  it("answers 404 for another environment's form, like an unknown one", async () => {
    const other = await createForm(ctx.db, b.environmentId);
    for (const formId of [other.id, 'no-such-form']) {
      const res = await exportOf(`?formId=${formId}`);
      expect(res.status).toBe(404);
      expect(JSON.parse(res.text)).toEqual({ message: 'Form not found' });
    }
  });

  it('rejects a bad format, date or boolean with the documented 400, all at once', async () => {
    const res = await exportOf('?format=xlsx&since=yesterday&returnPartials=yes');
    expect(res.status).toBe(400);
    const body = JSON.parse(res.text) as { message: string; errors: { path: string[] }[] };
    expect(body.message).toBe('Invalid query parameters');
    expect(body.errors.map((e) => e.path[0]).sort()).toEqual(['format', 'returnPartials', 'since']);
  });

  it('lets the admin token export any form, and an environment it names (required without a form)', async () => {
    const form = await createForm(ctx.db, b.environmentId, 'Admin');
    const [made] = await insertTimeline(ctx.db, { environmentId: b.environmentId, formId: form.id, count: 1 });
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const byForm = await exportOf(`?formId=${form.id}&format=ndjson`, admin);
    expect(byForm.status).toBe(200);
    expect(ndjson(byForm.text).map((r) => r.id)).toEqual([made!.id]);

    const noEnvironment = await exportOf('', admin);
    expect(noEnvironment.status).toBe(400);
    expect(JSON.parse(noEnvironment.text).errors[0].path).toEqual(['environmentId']);

    const byEnvironment = await exportOf(`?environmentId=${b.environmentId}&format=ndjson`, admin);
    expect(byEnvironment.status).toBe(200);
    expect(ndjson(byEnvironment.text).map((r) => r.id)).toContain(made!.id);
  });

  it('refuses an API key naming another environment (403)', async () => {
    const res = await exportOf(`?environmentId=${b.environmentId}`);
    expect(res.status).toBe(403);
  });

  it('answers 405 with Allow: GET to other methods', async () => {
    const response = await ctx.app.request('/api/v1/responses/export', { method: 'POST', headers: { 'x-api-key': a.apiKey } });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
  });
});
