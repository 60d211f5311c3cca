/**
 * IdentityInfo field objects are strict, like the IdentityInfo content: an unknown key inside a field
 * is a 400 at `["steps", i, "components", j, "content", "fields", k]` on every way a form comes in
 * (REST generate, GraphQL generateForm, importForm), and the documented older field shape
 * `{type, name, label, required}` keeps working.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createTenant, graphql, jsonRequest, setupTestApp, validBody, type TestContext, type TestTenant } from '../support/helpers.ts';

let ctx: TestContext;
let tenant: TestTenant;

beforeAll(async () => {
  ctx = await setupTestApp();
  tenant = await createTenant(ctx.db);
});

const GENERATE = /* GraphQL */ `
  mutation Generate($environmentId: ID!, $input: GenerateFormInput!) {
    generateForm(environmentId: $environmentId, input: $input) { success form { id } }
  }
`;
const IMPORT = /* GraphQL */ `
  mutation Import($input: ImportFormInput!) { importForm(input: $input) { id } }
`;
const READ_FIELDS = /* GraphQL */ `
  query Read($id: ID!) { form(id: $id) { steps { components { ... on IdentityInfo { fields { key label required } } } } } }
`;

/** A body whose second step's IdentityInfo (component 1) has these fields. */
function bodyWithFields(fields: unknown[]) {
  const body = validBody(tenant.templateId);
  body.steps[1] = {
    name: 'About you',
    components: [
      { type: 'Header', content: { title: 'About you' } },
      { type: 'IdentityInfo', content: { fields } },
    ],
  };
  return body;
}
const FIELDS_PATH = ['steps', 1, 'components', 1, 'content', 'fields'];

const current = { key: 'emailAddress', label: 'E-mail' };
const cases = [
  { name: 'a field of the current shape', fields: [current, { key: 'city', label: 'City', colour: 'red' }], unknown: 'colour' },
  { name: 'a field of the older shape', fields: [current, { type: 'tel', name: 'phone', label: 'Phone', required: true, autofill: 'tel' }], unknown: 'autofill' },
];

async function restGenerate(body: unknown) {
  const response = await ctx.app.request(`/api/v1/environments/${tenant.environmentId}/forms/generate`, jsonRequest('POST', body, { 'x-api-key': tenant.apiKey }));
  return { status: response.status, body: await response.json() };
}

describe('an unknown key inside an IdentityInfo field', () => {
  for (const { name, fields, unknown } of cases) {
    const expected = [{ message: `Unrecognized key: "${unknown}"`, path: [...FIELDS_PATH, 1] }];

    it(`is a 400 at the field in REST generate (${name})`, async () => {
      expect(await restGenerate(bodyWithFields(fields))).toEqual({ status: 400, body: { message: 'Invalid request body', errors: expected } });
    });

    it(`is BAD_USER_INPUT at the field in GraphQL generateForm and importForm (${name})`, async () => {
      const headers = { 'x-api-key': tenant.apiKey };
      const { sourceFormId, ...input } = bodyWithFields(fields);
      const generated = await graphql(ctx.app, GENERATE, { environmentId: tenant.environmentId, input: { sourceFormId, ...input } }, headers);
      expect(generated.body.data).toBeNull();
      expect(generated.body.errors).toHaveLength(1);
      expect(generated.body.errors![0].extensions).toEqual({ code: 'BAD_USER_INPUT', errors: expected });

      const imported = await graphql(ctx.app, IMPORT, { input: { environmentId: tenant.environmentId, ...input } }, headers);
      expect(imported.body.data).toBeNull();
      expect(imported.body.errors![0].extensions).toEqual({ code: 'BAD_USER_INPUT', errors: expected });
    });
  }
});

describe('the older field shape {type, name, label, required}', () => {
  it('is still accepted by REST generate and GraphQL generateForm, stored under `key`', async () => {
    const fields = [
      { type: 'email', name: 'emailAddress', label: 'E-mail', required: true },
      { type: 'text', name: 'phone', label: 'Phone', required: false },
    ];
    const stored = [
      { key: 'emailAddress', label: 'E-mail', required: true },
      { key: 'phoneNumber', label: 'Phone', required: false },
    ];
    const rest = await restGenerate(bodyWithFields(fields));
    expect(rest.status).toBe(200);
    const { sourceFormId, ...input } = bodyWithFields(fields);
    const generated = await graphql(ctx.app, GENERATE, { environmentId: tenant.environmentId, input: { sourceFormId, ...input } }, { 'x-api-key': tenant.apiKey });
    expect(generated.body.data.generateForm.success).toBe(true);
    for (const id of [rest.body.result.form.id, generated.body.data.generateForm.form.id]) {
      const read = await graphql(ctx.app, READ_FIELDS, { id }, { 'x-api-key': tenant.apiKey });
      expect(read.body.data.form.steps[1].components[1]).toEqual({ fields: stored });
    }
  });
});
