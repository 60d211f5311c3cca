/**
 * generateForm and the admin mutations through GraphQL: success and read-back, validation errors,
 * missing/deleted/foreign source forms, authentication and tenancy, and that unexpected errors never leak.
 */
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { pino } from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import { forms } from '../../src/db/schema.ts';
import { defaultComponentStyle } from '../../src/forms/theme.ts';
import { ADMIN_TOKEN, createTenant, graphql, jsonRequest, openTestDatabase, setupTestApp, testConfig, validBody, type TestContext, type TestTenant } from '../support/helpers.ts';

const GENERATE = /* GraphQL */ `
  mutation Generate($environmentId: ID!, $input: GenerateFormInput!) {
    generateForm(environmentId: $environmentId, input: $input) {
      success
      form { id url status name sourceFormId environmentId }
    }
  }
`;

const READ_FORM = /* GraphQL */ `
  query ReadForm($id: ID!) {
    form(id: $id) {
      id
      name
      url
      status
      environmentId
      sourceFormId
      steps {
        id
        name
        components {
          __typename
          ... on ShortInput { id type question placeholder }
          ... on IdentityInfo { id type fields { key label placeholder required blockPersonalEmails } }
          ... on Dropdown { id type question options placeholder isMulti }
          ... on MultipleOptionsQuestion { id type question choices isMulti }
          ... on Scheduler { id type dataUrl calendarType message prefillEmail }
          ... on NextButton { id type label }
          ... on NextBackButtons { id type nextLabel backLabel }
          ... on DynamicScheduler { id type calendarType defaultCalendar { name dataUrl } calendars { name dataUrl } }
          ... on Header { id type title subheading }
          ... on Disclaimer { id type text }
          ... on OtherComponent { id type content }
        }
      }
      theme {
        fonts { heading body }
        colors { primary background text buttonText }
        background { type color from to angle url overlay }
        layout { align width showProgressBar logoUrl }
        componentStyles { componentType backgroundColor textColor borderColor accentColor borderRadius fontSize }
      }
    }
  }
`;

const FORM_EXISTS = /* GraphQL */ `
  query FormExists($id: ID!) { form(id: $id) { id } }
`;

const DELETE_FORM = /* GraphQL */ `
  mutation Delete($id: ID!) { deleteForm(id: $id) { id deleted } }
`;

const IMPORT_FORM = /* GraphQL */ `
  mutation Import($input: ImportFormInput!) {
    importForm(input: $input) {
      id
      url
      status
      environmentId
      name
      theme {
        fonts { heading body }
        colors { primary background text buttonText }
        background { type color }
        layout { align width showProgressBar }
        componentStyles { componentType backgroundColor textColor borderRadius }
      }
    }
  }
`;

const CREATE_ENVIRONMENT = /* GraphQL */ `
  mutation CreateEnv($input: CreateEnvironmentInput!) { createEnvironment(input: $input) { id name createdAt } }
`;

const CREATE_API_KEY = /* GraphQL */ `
  mutation CreateKey($input: CreateApiKeyInput!) {
    createApiKey(input: $input) { key apiKey { id environmentId name revoked revokedAt } }
  }
`;

const REVOKE_API_KEY = /* GraphQL */ `
  mutation Revoke($id: ID!) { revokeApiKey(id: $id) { id environmentId revoked revokedAt } }
`;

const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
const withKey = (apiKey: string): Record<string, string> => ({ 'x-api-key': apiKey });

/** Steps that exercise every union member and the aliases normalised into stored content. */
const richSteps = [
  {
    name: 'About you',
    components: [
      { type: 'Header', content: { title: 'Hello', subheading: 'Two steps' } },
      {
        type: 'IdentityInfo',
        content: {
          fields: [
            { key: 'firstName', label: 'First name', placeholder: 'Ada' },
            { key: 'workEmailAddress', label: 'Work e-mail', blockPersonalEmails: true },
          ],
        },
      },
      { type: 'Dropdown', content: { question: 'Team size?', choices: ['1-10', '11-50'], placeholder: 'Pick one' } },
      { type: 'MultipleChoiceSingleAnswer', content: { question: 'Role?', choices: ['Dev', 'Ops'] } },
      { type: 'NextButton', content: { buttonText: 'Continue' } },
    ],
  },
  {
    name: 'Book',
    components: [
      { type: 'CalendlyScreen', content: { url: 'https://calendly.com/acme/intro', message: 'Pick a slot' } },
      { type: 'PasswordInput', content: { question: 'Secret?', placeholder: '••••' } },
      { type: 'ShortInput', content: { question: 'Anything else?' } },
      { type: 'Disclaimer', content: { text: 'We keep your data safe.' } },
    ],
  },
];

function generate(ctx: TestContext, tenant: TestTenant, input: unknown, headers: Record<string, string> = withKey(tenant.apiKey), environmentId = tenant.environmentId) {
  return graphql(ctx.app, GENERATE, { environmentId, input }, headers);
}

/** The single error of a GraphQL response that has no data for the field. */
function onlyError(body: { data?: any; errors?: any[] }) {
  expect(body.errors).toHaveLength(1);
  return body.errors![0] as { message: string; extensions: { code: string; errors?: unknown }; path?: unknown[] };
}

let ctx: TestContext;
let tenant: TestTenant;
let other: TestTenant;

beforeAll(async () => {
  ctx = await setupTestApp();
  tenant = await createTenant(ctx.db);
  other = await createTenant(ctx.db);
});

describe('generateForm', () => {
  it('creates a published form and returns its id and /s/<id> url', async () => {
    const { status, body } = await generate(ctx, tenant, validBody(tenant.templateId));
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    const { success, form } = body.data.generateForm;
    expect(success).toBe(true);
    expect(form.id).toMatch(/^[a-z0-9]{10,}$/);
    expect(form).toEqual({
      id: form.id,
      url: `/s/${form.id}`,
      status: 'PUBLISHED',
      name: 'Generated form',
      sourceFormId: tenant.templateId,
      environmentId: tenant.environmentId,
    });
  });

  it('stores every component as its union member with aliases normalised and a unique id', async () => {
    const created = await generate(ctx, tenant, { sourceFormId: tenant.templateId, name: 'Rich form', steps: richSteps });
    expect(created.body.errors).toBeUndefined();
    const id = created.body.data.generateForm.form.id as string;

    const { status, body } = await graphql(ctx.app, READ_FORM, { id }, withKey(tenant.apiKey));
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    const form = body.data.form;
    expect(form).toMatchObject({ id, name: 'Rich form', url: `/s/${id}`, status: 'PUBLISHED', environmentId: tenant.environmentId, sourceFormId: tenant.templateId });
    expect(form.steps.map((s: { name: string }) => s.name)).toEqual(['About you', 'Book']);

    const [about, book] = form.steps as { id: string; components: Record<string, unknown>[] }[];
    const strip = ({ id: _id, ...rest }: Record<string, unknown>) => rest;
    expect(about!.components.map(strip)).toEqual([
      { __typename: 'Header', type: 'Header', title: 'Hello', subheading: 'Two steps' },
      {
        __typename: 'IdentityInfo',
        type: 'IdentityInfo',
        fields: [
          { key: 'firstName', label: 'First name', placeholder: 'Ada', required: null, blockPersonalEmails: null },
          { key: 'workEmailAddress', label: 'Work e-mail', placeholder: null, required: null, blockPersonalEmails: true },
        ],
      },
      { __typename: 'Dropdown', type: 'Dropdown', question: 'Team size?', options: ['1-10', '11-50'], placeholder: 'Pick one', isMulti: null },
      // The older name is stored under its current type; a single-answer question is not multi.
      { __typename: 'MultipleOptionsQuestion', type: 'MultipleOptionsQuestion', question: 'Role?', choices: ['Dev', 'Ops'], isMulti: false },
      { __typename: 'NextButton', type: 'NextButton', label: 'Continue' },
    ]);
    expect(book!.components.map(strip)).toEqual([
      {
        __typename: 'Scheduler',
        type: 'CalendlyScreen',
        dataUrl: 'https://calendly.com/acme/intro',
        calendarType: 'Calendly',
        message: 'Pick a slot',
        prefillEmail: null,
      },
      { __typename: 'OtherComponent', type: 'PasswordInput', content: { question: 'Secret?', placeholder: '••••' } },
      { __typename: 'ShortInput', type: 'ShortInput', question: 'Anything else?', placeholder: null },
      { __typename: 'Disclaimer', type: 'Disclaimer', text: 'We keep your data safe.' },
    ]);

    const ids = [...form.steps.map((s: { id: string }) => s.id), ...[...about!.components, ...book!.components].map((c) => c.id)];
    for (const componentId of ids) expect(componentId).toMatch(/^[a-z0-9]{10,}$/);
    expect(new Set(ids).size).toBe(ids.length);

    // The same form read again returns the same ids: they are stored, not made up per read.
    const again = await graphql(ctx.app, READ_FORM, { id }, withKey(tenant.apiKey));
    expect(again.body.data.form.steps).toEqual(form.steps);
  });

  it('accepts the older request shapes and stores them normalised', async () => {
    const steps = [
      {
        name: 'Legacy',
        components: [
          {
            type: 'IdentityInfo',
            content: {
              fields: [
                { type: 'text', name: 'firstName', label: 'First name', required: true },
                { type: 'tel', name: 'phone', label: 'Phone' },
              ],
            },
          },
          { type: 'MultipleChoiceQuestion', content: { question: 'Pick', choices: ['A', 'B'], isMulti: true } },
          { type: 'MultipleOptionsQuestion', content: { question: 'Alias', options: ['X', 'Y'] } },
          { type: 'NextBackButtons', content: { nextButtonText: 'Forward', backButtonText: 'Back' } },
        ],
      },
      {
        name: 'Schedulers',
        components: [
          { type: 'Scheduler', content: { calendarUrl: 'https://meetings.hubspot.com/acme', calendarType: 'Hubspot' } },
          { type: 'CalScreen', content: { dataUrl: 'https://cal.com/acme' } },
          {
            type: 'DynamicScheduler',
            content: {
              defaultCalendar: { name: 'Sales', url: 'https://calendly.com/acme/sales' },
              calendars: [{ name: 'Support', url: 'https://calendly.com/acme/support' }],
              calendarType: 'Calendly',
            },
          },
        ],
      },
    ];
    const created = await generate(ctx, tenant, { sourceFormId: tenant.templateId, name: 'Legacy', steps });
    expect(created.body.errors).toBeUndefined();
    const { body } = await graphql(ctx.app, READ_FORM, { id: created.body.data.generateForm.form.id }, withKey(tenant.apiKey));
    const strip = ({ id, ...rest }: Record<string, unknown>) => {
      expect(id).toMatch(/^[a-z0-9]{10,}$/);
      return rest;
    };
    const [legacy, schedulers] = body.data.form.steps as { components: Record<string, unknown>[] }[];
    expect(legacy!.components.map(strip)).toEqual([
      {
        __typename: 'IdentityInfo',
        type: 'IdentityInfo',
        fields: [
          { key: 'firstName', label: 'First name', placeholder: null, required: true, blockPersonalEmails: null },
          { key: 'phoneNumber', label: 'Phone', placeholder: null, required: null, blockPersonalEmails: null },
        ],
      },
      { __typename: 'MultipleOptionsQuestion', type: 'MultipleOptionsQuestion', question: 'Pick', choices: ['A', 'B'], isMulti: true },
      { __typename: 'MultipleOptionsQuestion', type: 'MultipleOptionsQuestion', question: 'Alias', choices: ['X', 'Y'], isMulti: null },
      { __typename: 'NextBackButtons', type: 'NextBackButtons', nextLabel: 'Forward', backLabel: 'Back' },
    ]);
    expect(schedulers!.components.map(strip)).toEqual([
      {
        __typename: 'Scheduler',
        type: 'Scheduler',
        dataUrl: 'https://meetings.hubspot.com/acme',
        calendarType: 'Hubspot',
        message: null,
        prefillEmail: null,
      },
      { __typename: 'Scheduler', type: 'CalScreen', dataUrl: 'https://cal.com/acme', calendarType: 'Cal', message: null, prefillEmail: null },
      {
        __typename: 'DynamicScheduler',
        type: 'DynamicScheduler',
        calendarType: 'Calendly',
        defaultCalendar: { name: 'Sales', dataUrl: 'https://calendly.com/acme/sales' },
        calendars: [{ name: 'Support', dataUrl: 'https://calendly.com/acme/support' }],
      },
    ]);
  });

  it("inherits the template's theme and gives uncovered component types default styles", async () => {
    const created = await generate(ctx, tenant, { sourceFormId: tenant.templateId, name: 'Themed', steps: richSteps });
    const id = created.body.data.generateForm.form.id as string;
    const { body } = await graphql(ctx.app, READ_FORM, { id }, withKey(tenant.apiKey));
    const theme = body.data.form.theme;
    expect(theme.fonts).toEqual({ heading: 'Playfair Display', body: 'Source Sans 3' });
    expect(theme.colors).toEqual({ primary: '#0f766e', background: '#f0fdfa', text: '#134e4a', buttonText: '#ffffff' });
    expect(theme.background).toEqual({ type: 'gradient', color: null, from: '#ccfbf1', to: '#f0fdfa', angle: 160, url: null, overlay: null });
    expect(theme.layout).toEqual({ align: 'left', width: 'narrow', showProgressBar: true, logoUrl: null });

    const styles = new Map<string, Record<string, unknown>>(theme.componentStyles.map((s: { componentType: string }) => [s.componentType, s]));
    // Covered by the template: taken as they are.
    expect(styles.get('NextButton')).toEqual({
      componentType: 'NextButton',
      backgroundColor: '#0f766e',
      textColor: '#ffffff',
      borderColor: null,
      accentColor: null,
      borderRadius: 24,
      fontSize: null,
    });
    expect(styles.get('IdentityInfo')).toMatchObject({ backgroundColor: '#ffffff', borderColor: '#5eead4', borderRadius: 12 });
    // Not covered by the template: default styling in the template's palette, for every type the new
    // form uses; exactly `defaultComponentStyle` (GraphQL shows the fields it leaves out as null).
    const unset = { backgroundColor: null, textColor: null, borderColor: null, accentColor: null, borderRadius: null, fontSize: null };
    for (const type of ['CalendlyScreen', 'PasswordInput', 'ShortInput', 'MultipleOptionsQuestion', 'Disclaimer']) {
      expect(styles.get(type), type).toEqual({ componentType: type, ...unset, ...defaultComponentStyle(type, tenant.template.theme!.colors) });
    }
    expect(styles.get('ShortInput')).toMatchObject({ backgroundColor: '#ffffff', borderRadius: 8 });
    expect(theme.componentStyles.map((s: { componentType: string }) => s.componentType)).toEqual([...styles.keys()].sort((a, b) => a.localeCompare(b)));
  });

  it('reports every validation problem at once, paths relative to the input', async () => {
    const input = {
      sourceFormId: tenant.templateId,
      name: '   ',
      steps: [
        {
          name: 'Only step',
          components: [
            { type: 'IdentityInfo', content: { fields: [{ key: 'shoeSize', label: 'Shoe size' }], extra: true } },
            { type: 'CalendlyScreen', content: { message: 'no url' } },
            { type: 'Dropdown', content: { question: 'Empty' } },
            { type: 'Teleporter', content: {} },
            { type: 'Scheduler', content: { dataUrl: 'ftp://example.com/cal', calendarType: 'Outlook' } },
          ],
        },
      ],
    };
    const { status, body } = await generate(ctx, tenant, input);
    expect(status).toBe(200);
    expect(body.data).toBeNull();
    const error = onlyError(body);
    expect(error.message).toBe('Invalid request body');
    expect(error.extensions.code).toBe('BAD_USER_INPUT');
    const errors = error.extensions.errors as { message: string; path: (string | number)[] }[];
    for (const entry of errors) {
      expect(typeof entry.message).toBe('string');
      expect(entry.message.length).toBeGreaterThan(0);
    }
    const paths = errors.map((e) => JSON.stringify(e.path)).sort();
    expect(paths).toEqual(
      [
        JSON.stringify(['name']),
        JSON.stringify(['steps']),
        JSON.stringify(['steps', 0, 'components', 0, 'content']),
        JSON.stringify(['steps', 0, 'components', 0, 'content', 'fields', 0, 'key']),
        JSON.stringify(['steps', 0, 'components', 1, 'content']),
        JSON.stringify(['steps', 0, 'components', 2, 'content']),
        JSON.stringify(['steps', 0, 'components', 3, 'type']),
        JSON.stringify(['steps', 0, 'components', 4, 'content', 'dataUrl']),
        JSON.stringify(['steps', 0, 'components', 4, 'content', 'calendarType']),
      ].sort(),
    );
    expect(errors).toContainEqual({ message: 'name must not be empty', path: ['name'] });
    expect(errors).toContainEqual({ message: 'A form needs at least 2 steps', path: ['steps'] });
    expect(errors).toContainEqual({ message: 'Unrecognized key: "extra"', path: ['steps', 0, 'components', 0, 'content'] });
    expect(errors).toContainEqual({ message: 'must be an http(s) URL', path: ['steps', 0, 'components', 4, 'content', 'dataUrl'] });
    expect(errors).toContainEqual({
      message: "CalendlyScreen requires a calendar URL (via 'dataUrl', 'url', or 'calendarUrl')",
      path: ['steps', 0, 'components', 1, 'content'],
    });
    expect(errors).toContainEqual({
      message: "Dropdown requires at least 1 option (via 'options' or 'choices')",
      path: ['steps', 0, 'components', 2, 'content'],
    });
    expect(errors).toContainEqual({ message: 'Unknown component type "Teleporter"', path: ['steps', 0, 'components', 3, 'type'] });
    // Nothing leaks: no stack trace in the error.
    expect(JSON.stringify(body)).not.toMatch(/\bat .+\.ts:\d+/);
    expect(error.extensions).not.toHaveProperty('stacktrace');
  });

  it('rejects a step without components and non-object content', async () => {
    const { body } = await generate(
      ctx,
      tenant,
      validBody(tenant.templateId, [
        { name: 'Empty', components: [] },
        { name: 'Odd', components: [{ type: 'ShortInput', content: 'not an object' }] },
      ]),
    );
    const error = onlyError(body);
    expect(error.extensions.code).toBe('BAD_USER_INPUT');
    expect(error.extensions.errors).toEqual([
      { message: 'A step needs at least 1 component', path: ['steps', 0, 'components'] },
      { message: 'Component content must be an object', path: ['steps', 1, 'components', 0, 'content'] },
    ]);
  });

  it("reports a variable of the wrong GraphQL type as the client's mistake, not an internal error", async () => {
    const { body } = await generate(ctx, tenant, { sourceFormId: tenant.templateId, name: 5, steps: validBody('x').steps });
    expect(body.data).toBeUndefined();
    const error = onlyError(body);
    expect(error.message).toBe(
      'Variable "$input" got invalid value 5 at "input.name"; Expected type "LocalizedText". LocalizedText must be a string or an object of one string per language, not 5',
    );
    expect(error.extensions?.code).not.toBe('INTERNAL_SERVER_ERROR');

    const missing = await generate(ctx, tenant, { sourceFormId: tenant.templateId, name: 'No steps' });
    expect(onlyError(missing.body).message).toMatch(/^Variable "\$input" got invalid value .*; Field "steps" of required type "\[StepInput!\]!" was not provided\.$/);
  });

  it('stores nothing when the input is invalid', async () => {
    const own = await createTenant(ctx.db);
    const count = async () => (await ctx.db.select({ id: forms.id }).from(forms).where(eq(forms.environmentId, own.environmentId))).length;
    expect(await count()).toBe(1);
    const { body } = await generate(ctx, own, validBody(own.templateId, [richSteps[0]]));
    expect(body.data).toBeNull();
    expect(onlyError(body).extensions).toEqual({
      code: 'BAD_USER_INPUT',
      errors: [{ message: 'A form needs at least 2 steps', path: ['steps'] }],
    });
    expect(await count()).toBe(1);
    await generate(ctx, own, validBody(own.templateId));
    expect(await count()).toBe(2);
  });

  describe('source form', () => {
    it('is NOT_FOUND when it does not exist', async () => {
      const { body } = await generate(ctx, tenant, validBody('no-such-form'));
      expect(body.data).toBeNull();
      const error = onlyError(body);
      expect(error.message).toBe('Source form not found');
      expect(error.extensions.code).toBe('NOT_FOUND');
    });

    it('is NOT_FOUND once it has been deleted', async () => {
      const own = await createTenant(ctx.db);
      const deleted = await graphql(ctx.app, DELETE_FORM, { id: own.templateId }, withKey(own.apiKey));
      expect(deleted.body).toEqual({ data: { deleteForm: { id: own.templateId, deleted: true } } });
      const { body } = await generate(ctx, own, validBody(own.templateId));
      const error = onlyError(body);
      expect(error.message).toBe('Source form not found');
      expect(error.extensions.code).toBe('NOT_FOUND');
    });

    it('is NOT_FOUND when it belongs to another environment, even for the admin', async () => {
      const viaKey = await generate(ctx, tenant, validBody(other.templateId));
      expect(onlyError(viaKey.body)).toMatchObject({ message: 'Source form not found', extensions: { code: 'NOT_FOUND' } });
      const viaAdmin = await generate(ctx, tenant, validBody(other.templateId), admin);
      expect(onlyError(viaAdmin.body)).toMatchObject({ message: 'Source form not found', extensions: { code: 'NOT_FOUND' } });
      // The admin can generate in any environment from that environment's own template.
      const ok = await generate(ctx, other, validBody(other.templateId), admin, other.environmentId);
      expect(ok.body.errors).toBeUndefined();
      expect(ok.body.data.generateForm.success).toBe(true);
    });
  });

  describe('authentication', () => {
    it('is UNAUTHENTICATED "Missing API key" without a key', async () => {
      const { body } = await generate(ctx, tenant, validBody(tenant.templateId), {});
      expect(body.data).toBeNull();
      expect(onlyError(body)).toMatchObject({ message: 'Missing API key', extensions: { code: 'UNAUTHENTICATED' } });
    });

    it('is UNAUTHENTICATED "Invalid API key" with a malformed or unknown key', async () => {
      for (const key of ['nonsense', `fl_aaaaaaaaaaaa_${'A'.repeat(43)}`, tenant.apiKey.slice(0, -1) + (tenant.apiKey.endsWith('A') ? 'B' : 'A')]) {
        const { body } = await generate(ctx, tenant, validBody(tenant.templateId), withKey(key));
        expect(onlyError(body), key).toMatchObject({ message: 'Invalid API key', extensions: { code: 'UNAUTHENTICATED' } });
      }
    });

    it('is UNAUTHENTICATED "Invalid API key" once the key is revoked', async () => {
      const own = await createTenant(ctx.db);
      expect((await generate(ctx, own, validBody(own.templateId))).body.data.generateForm.success).toBe(true);
      const revoked = await graphql(ctx.app, REVOKE_API_KEY, { id: own.apiKeyId }, admin);
      expect(revoked.body.errors).toBeUndefined();
      expect(revoked.body.data.revokeApiKey).toMatchObject({ id: own.apiKeyId, environmentId: own.environmentId, revoked: true });
      expect(Date.parse(revoked.body.data.revokeApiKey.revokedAt)).not.toBeNaN();
      const { body } = await generate(ctx, own, validBody(own.templateId));
      expect(onlyError(body)).toMatchObject({ message: 'Invalid API key', extensions: { code: 'UNAUTHENTICATED' } });
    });

    it("is FORBIDDEN with another environment's key", async () => {
      const { body } = await generate(ctx, tenant, validBody(tenant.templateId), withKey(other.apiKey));
      expect(body.data).toBeNull();
      expect(onlyError(body)).toMatchObject({
        message: 'API key does not grant access to this environment',
        extensions: { code: 'FORBIDDEN' },
      });
    });
  });
});

describe('form(id)', () => {
  it("returns null for another environment's form, exactly as for a missing one", async () => {
    const foreign = await graphql(ctx.app, FORM_EXISTS, { id: other.templateId }, withKey(tenant.apiKey));
    const missing = await graphql(ctx.app, FORM_EXISTS, { id: 'no-such-form' }, withKey(tenant.apiKey));
    expect(foreign).toEqual({ status: 200, body: { data: { form: null } } });
    expect(missing).toEqual(foreign);
    const own = await graphql(ctx.app, FORM_EXISTS, { id: other.templateId }, withKey(other.apiKey));
    expect(own.body).toEqual({ data: { form: { id: other.templateId } } });
  });

  it('returns null for a deleted form', async () => {
    const own = await createTenant(ctx.db);
    await graphql(ctx.app, DELETE_FORM, { id: own.templateId }, withKey(own.apiKey));
    const { body } = await graphql(ctx.app, FORM_EXISTS, { id: own.templateId }, withKey(own.apiKey));
    expect(body).toEqual({ data: { form: null } });
  });

  it('is UNAUTHENTICATED without credentials', async () => {
    const { body } = await graphql(ctx.app, FORM_EXISTS, { id: tenant.templateId });
    expect(onlyError(body)).toMatchObject({ message: 'Missing API key', extensions: { code: 'UNAUTHENTICATED' } });
  });
});

describe('admin mutations', () => {
  it('createEnvironment generates an id, or takes the one given', async () => {
    const generated = await graphql(ctx.app, CREATE_ENVIRONMENT, { input: { name: 'Generated id' } }, admin);
    expect(generated.body.errors).toBeUndefined();
    expect(generated.body.data.createEnvironment).toMatchObject({ name: 'Generated id' });
    expect(generated.body.data.createEnvironment.id).toMatch(/^[\w-]{10,64}$/);
    expect(Date.parse(generated.body.data.createEnvironment.createdAt)).not.toBeNaN();

    const id = `site-${Date.now().toString(36)}`;
    const chosen = await graphql(ctx.app, CREATE_ENVIRONMENT, { input: { name: 'Chosen id', id } }, admin);
    expect(chosen.body.errors).toBeUndefined();
    expect(chosen.body.data.createEnvironment).toMatchObject({ id, name: 'Chosen id' });

    const duplicate = await graphql(ctx.app, CREATE_ENVIRONMENT, { input: { name: 'Again', id } }, admin);
    expect(duplicate.body.data).toBeNull();
    expect(onlyError(duplicate.body)).toMatchObject({
      message: `An environment with id "${id}" already exists`,
      extensions: { code: 'CONFLICT' },
    });
  });

  it('createEnvironment rejects a bad id and an empty name as BAD_USER_INPUT', async () => {
    const { body } = await graphql(ctx.app, CREATE_ENVIRONMENT, { input: { name: ' ', id: 'has spaces/and slashes' } }, admin);
    const error = onlyError(body);
    expect(error.extensions.code).toBe('BAD_USER_INPUT');
    const errors = error.extensions.errors as { path: unknown[]; message: string }[];
    expect(errors.map((e) => e.path)).toEqual(expect.arrayContaining([['id'], ['name']]));
    expect(errors).toContainEqual({ path: ['id'], message: 'must be 1-64 letters, digits, "_" or "-"' });
  });

  it('createApiKey returns a key that works for REST generate; revokeApiKey stops it', async () => {
    const id = `rest-${Date.now().toString(36)}`;
    await graphql(ctx.app, CREATE_ENVIRONMENT, { input: { name: 'REST env', id } }, admin);
    const created = await graphql(ctx.app, CREATE_API_KEY, { input: { environmentId: id, name: 'ci' } }, admin);
    expect(created.body.errors).toBeUndefined();
    const { key, apiKey } = created.body.data.createApiKey;
    expect(apiKey).toEqual({ id: apiKey.id, environmentId: id, name: 'ci', revoked: false, revokedAt: null });
    expect(key).toMatch(new RegExp(`^fl_${apiKey.id}_[A-Za-z0-9_-]{43}$`));

    const imported = await graphql(ctx.app, IMPORT_FORM, { input: { environmentId: id, name: 'Template', steps: richSteps.slice(0, 1) } }, withKey(key));
    expect(imported.body.errors).toBeUndefined();
    const templateId = imported.body.data.importForm.id as string;

    const rest = () => ctx.app.request(`/api/v1/environments/${id}/forms/generate`, jsonRequest('POST', validBody(templateId), withKey(key)));
    const response = await rest();
    expect(response.status).toBe(200);
    const json = (await response.json()) as { success: boolean; result: { form: { id: string; url: string } } };
    expect(json).toEqual({ success: true, result: { form: { id: json.result.form.id, url: `/s/${json.result.form.id}` } } });

    const revoked = await graphql(ctx.app, REVOKE_API_KEY, { id: apiKey.id }, admin);
    expect(revoked.body.data.revokeApiKey).toMatchObject({ id: apiKey.id, revoked: true });
    // Revoking twice is harmless.
    const again = await graphql(ctx.app, REVOKE_API_KEY, { id: apiKey.id }, admin);
    expect(again.body.data.revokeApiKey).toMatchObject({ id: apiKey.id, revoked: true });

    const after = await rest();
    expect(after.status).toBe(401);
    expect(await after.json()).toEqual({ message: 'Invalid API key' });
  });

  it('createApiKey and revokeApiKey report unknown environments and keys as NOT_FOUND', async () => {
    const key = await graphql(ctx.app, CREATE_API_KEY, { input: { environmentId: 'no-such-env' } }, admin);
    expect(onlyError(key.body)).toMatchObject({ message: 'Environment not found', extensions: { code: 'NOT_FOUND' } });
    const revoke = await graphql(ctx.app, REVOKE_API_KEY, { id: 'nosuchkey000' }, admin);
    expect(onlyError(revoke.body)).toMatchObject({ message: 'API key not found', extensions: { code: 'NOT_FOUND' } });
  });

  it('importForm stores a form with its theme, defaults filling what is left out', async () => {
    const theme = {
      fonts: { heading: 'Lora', body: 'Inter' },
      colors: { primary: '#123456', background: '#fafafa', text: '#222222', buttonText: '#ffffff' },
      componentStyles: { ShortInput: { backgroundColor: '#eeeeee', textColor: '#111111', borderRadius: 4 } },
    };
    const { body } = await graphql(ctx.app, IMPORT_FORM, { input: { environmentId: tenant.environmentId, name: 'Imported', theme, steps: richSteps.slice(1) } }, admin);
    expect(body.errors).toBeUndefined();
    const form = body.data.importForm;
    expect(form).toMatchObject({ url: `/s/${form.id}`, status: 'PUBLISHED', environmentId: tenant.environmentId, name: 'Imported' });
    expect(form.theme).toEqual({
      fonts: { heading: 'Lora', body: 'Inter' },
      colors: { primary: '#123456', background: '#fafafa', text: '#222222', buttonText: '#ffffff' },
      background: { type: 'color', color: '#ffffff' },
      layout: { align: 'center', width: 'medium', showProgressBar: true },
      componentStyles: [{ componentType: 'ShortInput', backgroundColor: '#eeeeee', textColor: '#111111', borderRadius: 4 }],
    });

    // The imported form is a usable template: a generated form inherits that theme.
    const generated = await generate(ctx, tenant, validBody(form.id));
    const read = await graphql(ctx.app, READ_FORM, { id: generated.body.data.generateForm.form.id }, withKey(tenant.apiKey));
    expect(read.body.data.form.theme.colors.primary).toBe('#123456');
    expect(read.body.data.form.theme.fonts.heading).toBe('Lora');
  });

  it('importForm rejects an invalid theme with paths under theme', async () => {
    const { body } = await graphql(
      ctx.app,
      IMPORT_FORM,
      {
        input: {
          environmentId: tenant.environmentId,
          name: 'Bad theme',
          theme: {
            colors: { primary: 'red', background: '#fff', text: '#000', buttonText: '#fff' },
            componentStyles: { ShortInput: { textColor: 'url(javascript:alert(1))' } },
          },
          steps: richSteps.slice(1),
        },
      },
      admin,
    );
    expect(body.data).toBeNull();
    const error = onlyError(body);
    expect(error.extensions.code).toBe('BAD_USER_INPUT');
    expect(error.extensions.errors).toEqual([
      { message: 'must be a hex colour such as "#1f2937"', path: ['theme', 'colors', 'primary'] },
      { message: 'must be a hex colour such as "#1f2937"', path: ['theme', 'componentStyles', 'ShortInput', 'textColor'] },
    ]);
  });

  it('importForm validates steps like generate does (one step is enough)', async () => {
    const { body } = await graphql(
      ctx.app,
      IMPORT_FORM,
      { input: { environmentId: tenant.environmentId, name: 'Bad steps', steps: [{ name: 'S', components: [{ type: 'Scheduler', content: {} }] }] } },
      admin,
    );
    expect(onlyError(body).extensions).toEqual({
      code: 'BAD_USER_INPUT',
      errors: [{ message: "Scheduler requires a calendar URL (via 'dataUrl', 'url', or 'calendarUrl')", path: ['steps', 0, 'components', 0, 'content'] }],
    });
  });

  it('deleteForm soft-deletes a form as the admin; deleting again is NOT_FOUND', async () => {
    const own = await createTenant(ctx.db);
    const { body } = await graphql(ctx.app, DELETE_FORM, { id: own.templateId }, admin);
    expect(body).toEqual({ data: { deleteForm: { id: own.templateId, deleted: true } } });
    const again = await graphql(ctx.app, DELETE_FORM, { id: own.templateId }, admin);
    expect(onlyError(again.body)).toMatchObject({ message: 'Form not found', extensions: { code: 'NOT_FOUND' } });
    const generated = await generate(ctx, own, validBody(own.templateId));
    expect(onlyError(generated.body).message).toBe('Source form not found');
  });

  describe('with an API key', () => {
    it('cannot createEnvironment, nor create or revoke keys of another environment (keys:manage covers its own only)', async () => {
      const env = await graphql(ctx.app, CREATE_ENVIRONMENT, { input: { name: 'Nope' } }, withKey(tenant.apiKey));
      expect(env.body.data).toBeNull();
      expect(onlyError(env.body)).toMatchObject({ message: 'This operation needs the admin token', extensions: { code: 'FORBIDDEN' } });
      const key = await graphql(ctx.app, CREATE_API_KEY, { input: { environmentId: other.environmentId } }, withKey(tenant.apiKey));
      expect(onlyError(key.body)).toMatchObject({ message: 'API key does not grant access to this environment', extensions: { code: 'FORBIDDEN' } });
      const revoke = await graphql(ctx.app, REVOKE_API_KEY, { id: other.apiKeyId }, withKey(tenant.apiKey));
      expect(onlyError(revoke.body)).toMatchObject({ message: 'API key not found', extensions: { code: 'NOT_FOUND' } });
      // And the other tenant's key still works.
      expect((await generate(ctx, other, validBody(other.templateId))).body.data.generateForm.success).toBe(true);
    });

    it('admin mutations without any credentials are UNAUTHENTICATED', async () => {
      const env = await graphql(ctx.app, CREATE_ENVIRONMENT, { input: { name: 'Nope' } });
      expect(onlyError(env.body)).toMatchObject({ message: 'Missing admin token', extensions: { code: 'UNAUTHENTICATED' } });
      const wrong = await graphql(ctx.app, CREATE_ENVIRONMENT, { input: { name: 'Nope' } }, { authorization: 'Bearer not-the-admin-token' });
      expect(onlyError(wrong.body)).toMatchObject({ message: 'Invalid admin token', extensions: { code: 'UNAUTHENTICATED' } });
    });

    it('can importForm and deleteForm in its own environment', async () => {
      const own = await createTenant(ctx.db);
      const imported = await graphql(ctx.app, IMPORT_FORM, { input: { environmentId: own.environmentId, name: 'Mine', steps: richSteps.slice(0, 1) } }, withKey(own.apiKey));
      expect(imported.body.errors).toBeUndefined();
      const id = imported.body.data.importForm.id as string;
      expect(imported.body.data.importForm).toMatchObject({ status: 'PUBLISHED', environmentId: own.environmentId, url: `/s/${id}` });
      const deleted = await graphql(ctx.app, DELETE_FORM, { id }, withKey(own.apiKey));
      expect(deleted.body).toEqual({ data: { deleteForm: { id, deleted: true } } });
      expect((await graphql(ctx.app, FORM_EXISTS, { id }, withKey(own.apiKey))).body).toEqual({ data: { form: null } });
    });

    it('cannot importForm into or deleteForm from another environment', async () => {
      const imported = await graphql(
        ctx.app,
        IMPORT_FORM,
        { input: { environmentId: other.environmentId, name: 'Intruder', steps: richSteps.slice(0, 1) } },
        withKey(tenant.apiKey),
      );
      expect(imported.body.data).toBeNull();
      expect(onlyError(imported.body)).toMatchObject({
        message: 'API key does not grant access to this environment',
        extensions: { code: 'FORBIDDEN' },
      });

      const deleted = await graphql(ctx.app, DELETE_FORM, { id: other.templateId }, withKey(tenant.apiKey));
      expect(deleted.body.data).toBeNull();
      // Indistinguishable from a form that does not exist.
      expect(onlyError(deleted.body)).toMatchObject({ message: 'Form not found', extensions: { code: 'NOT_FOUND' } });
      const stillThere = await graphql(ctx.app, FORM_EXISTS, { id: other.templateId }, withKey(other.apiKey));
      expect(stillThere.body).toEqual({ data: { form: { id: other.templateId } } });
    });
  });
});

describe('unexpected errors', () => {
  let broken: ReturnType<typeof createApp>;
  const logLines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    const handle = await openTestDatabase();
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n')) if (line.trim()) logLines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    broken = createApp({ config: testConfig(), db: handle.db, logger: pino({ level: 'error' }, sink), adminToken: ADMIN_TOKEN });
    await handle.close();
  });

  it('are a generic INTERNAL_SERVER_ERROR in GraphQL, with the cause only in the log', async () => {
    const { status, body } = await graphql(broken, FORM_EXISTS, { id: tenant.templateId }, admin);
    expect(status).toBe(200);
    expect(body.data).toEqual({ form: null });
    const error = onlyError(body);
    expect(error.message).toBe('Unexpected error.');
    expect(error.extensions).toEqual({ code: 'INTERNAL_SERVER_ERROR' });
    const text = JSON.stringify(body);
    expect(text).not.toMatch(/stack|closed|ended|\.ts:\d+|node_modules/i);
    expect(logLines.some((line) => line.level === 50 && typeof line.err === 'object')).toBe(true);
  });

  it('are 500 {message: "Internal server error"} through REST', async () => {
    for (const headers of [admin, withKey(tenant.apiKey)]) {
      const response = await broken.request(`/api/v1/environments/${tenant.environmentId}/forms/generate`, jsonRequest('POST', validBody(tenant.templateId), headers));
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ message: 'Internal server error' });
    }
  });

  it('make /readyz 503 while /healthz stays 200', async () => {
    const ready = await broken.request('/readyz');
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'unavailable', message: 'Database not reachable' });
    const health = await broken.request('/healthz');
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const healthyReady = await ctx.app.request('/readyz');
    expect(healthyReady.status).toBe(200);
  });
});

describe('GraphiQL', () => {
  it('is served at GET /graphql to browsers, without any CDN', async () => {
    const response = await ctx.app.request('/graphql', { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain('formloom GraphQL');
    expect(html.toLowerCase()).toContain('graphiql');
    expect(html).not.toMatch(/unpkg\.com|jsdelivr|cdnjs|esm\.sh|googleapis/);
    // No script, stylesheet or icon fetched from elsewhere (minified HTML may leave attributes unquoted).
    expect(html).not.toMatch(/<script[^>]+src=["']?(?:https?:)?\/\//);
    expect(html).not.toMatch(/<link[^>]+href=["']?(?:https?:)?\/\//);
  });
});
