/**
 * The `formloom` commands of the personal data lifecycle against a real server on an ephemeral port:
 * env settings, responses delete, lead erase, form retention, retention status, audit list.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli.ts';
import { leads, responses } from '../../src/db/schema.ts';
import type { Form } from '../../src/forms/forms.service.ts';
import { runRetentionJob } from '../../src/privacy/retention.service.ts';
import { ADMIN_TOKEN, appWith, createTenant, jsonRequest, setupIsolatedTestApp, type TestContext, type TestTenant } from '../support/helpers.ts';
import { insertResponses } from '../support/factories.ts';
import { componentAt, makeForm } from '../support/public-helpers.ts';

let ctx: TestContext;
let server: ServerType;
let url: string;
let tenant: TestTenant;
let other: TestTenant;
let form: Form;

const STEPS = [
  { name: 'You', components: [{ type: 'IdentityInfo', content: { fields: [{ key: 'emailAddress', label: 'E-mail', required: false }] } }] },
  { name: 'Thanks', components: [{ type: 'Header', content: { title: 'Thank you' } }] },
];

beforeAll(async () => {
  // `retention status` reads the one job_runs row: this file's own database.
  ctx = await setupIsolatedTestApp();
  const app = appWith(ctx.db, { trustProxy: 1 });
  server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  if (!server.listening) await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  tenant = await createTenant(ctx.db);
  other = await createTenant(ctx.db);
  form = await makeForm(ctx.db, tenant, STEPS);
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function cli(...args: string[]) {
  const { output } = await runCli([...args, '--url', url, '--admin-token', ADMIN_TOKEN, '--json']);
  return output as Record<string, any>;
}

async function submit(email: string) {
  const answers = { [componentAt(form, 0, 0).id]: { emailAddress: email } };
  const response = await fetch(`${url}/s/${form.id}/responses`, jsonRequest('POST', { answers, finished: true }, { 'x-forwarded-for': '192.0.2.44' }));
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

describe('formloom privacy commands', () => {
  it('env settings shows and changes IP storage and retention', async () => {
    const noOwnCaptchaKeys = {
      turnstile: { siteKey: null, secretKeySet: false },
      recaptcha: { siteKey: null, secretKeySet: false },
      smtp: { url: null, from: null, passwordSet: false },
      embedOrigins: null,
    };
    expect(await cli('env', 'settings', '--env', tenant.environmentId)).toEqual({ id: tenant.environmentId, ipStorage: 'full', retentionDays: null, ...noOwnCaptchaKeys });
    expect(await cli('env', 'settings', '--env', tenant.environmentId, '--ip-storage', 'truncated', '--retention-days', '365')).toEqual({
      id: tenant.environmentId,
      ipStorage: 'truncated',
      retentionDays: 365,
      ...noOwnCaptchaKeys,
    });
    const id = await submit('cli.ip@example.org');
    expect((await ctx.db.select({ ip: responses.ip }).from(responses).where(eq(responses.id, id)))[0]!.ip).toBe('192.0.2.0');
    expect(await cli('env', 'settings', '--env', tenant.environmentId, '--ip-storage', 'full', '--retention-days', 'none')).toMatchObject({
      ipStorage: 'full',
      retentionDays: null,
    });
    await expect(cli('env', 'settings', '--env', tenant.environmentId, '--ip-storage', 'hashed')).rejects.toThrow('--ip-storage must be full, truncated or none');
    await expect(cli('env', 'settings', '--env', tenant.environmentId, '--retention-days', '0')).rejects.toMatchObject({ details: { code: 'BAD_USER_INPUT' } });
  });

  it('env settings --embed-origins sets who may embed the forms: origins, *, none, default', async () => {
    const env = ['env', 'settings', '--env', tenant.environmentId, '--embed-origins'];
    expect(await cli(...env, 'https://www.example.com, http://localhost:8080')).toMatchObject({ embedOrigins: ['https://www.example.com', 'http://localhost:8080'] });
    const { output, text } = await runCli([...env, '*', '--url', url, '--admin-token', ADMIN_TOKEN]);
    expect(output).toMatchObject({ embedOrigins: ['*'] });
    expect(text).toMatch(/; embedding by \*; e-mail through the server's SMTP_URL$/);
    expect(await cli(...env, 'none')).toMatchObject({ embedOrigins: [] });
    expect(await cli(...env, 'default')).toMatchObject({ embedOrigins: null });
    await expect(cli(...env, 'https://www.example.com/contact')).rejects.toMatchObject({ details: { code: 'BAD_USER_INPUT' } });
  });

  it('responses delete: one by id, then by filter with a count; unknown ids fail as not found', async () => {
    const one = await submit('cli.one@example.org');
    expect(await cli('responses', 'delete', one)).toEqual({ id: one, deleted: true });
    await expect(cli('responses', 'delete', one)).rejects.toMatchObject({ message: 'Response not found', details: { code: 'NOT_FOUND' } });

    await insertResponses(
      ctx.db,
      [1, 2, 3].map(() => ({ environmentId: tenant.environmentId, formId: form.id, finished: false })),
    );
    const keep = await submit('cli.keep@example.org');
    expect(await cli('responses', 'delete', '--env', tenant.environmentId, '--form', form.id, '--partials-only')).toEqual({ deletedCount: 3, webhookEventsDeleted: 0 });
    expect(await ctx.db.select().from(responses).where(eq(responses.id, keep))).toHaveLength(1);
    // Another environment's form is unknown there.
    await expect(cli('responses', 'delete', '--env', other.environmentId, '--form', form.id)).rejects.toMatchObject({ message: 'Form not found' });
    await expect(cli('responses', 'delete', '--env', tenant.environmentId)).rejects.toMatchObject({ details: { code: 'BAD_USER_INPUT' } });
  });

  it('lead erase --env --email erases the person; again it finds nobody; by id it answers with the record', async () => {
    const email = 'Cli.Erase@Example.org';
    const id = await submit(email.toLowerCase());
    const leadId = (await ctx.db.select({ leadId: responses.leadId }).from(responses).where(eq(responses.id, id)))[0]!.leadId;

    expect(await cli('lead', 'erase', '--env', other.environmentId, '--email', email)).toEqual({ erased: false, alreadyErased: false, erasure: null });
    const erased = await cli('lead', 'erase', '--env', tenant.environmentId, '--email', email);
    expect(erased).toMatchObject({ erased: true, alreadyErased: false, erasure: { leadId, responsesDeleted: 1, actorKind: 'admin', actorKeyId: null } });
    expect(await ctx.db.select().from(leads).where(eq(leads.id, leadId))).toEqual([]);
    expect(await cli('lead', 'erase', '--env', tenant.environmentId, '--email', email)).toEqual({ erased: false, alreadyErased: false, erasure: null });
    expect(await cli('lead', 'erase', leadId)).toEqual({ ...erased, alreadyErased: true });
    await expect(cli('lead', 'erase', '--email', email)).rejects.toThrow(/^Missing --env/);
    await expect(cli('lead', 'erase', 'no-such-lead')).rejects.toMatchObject({ message: 'Lead not found' });
  });

  it('form retention and retention status', async () => {
    expect(await cli('form', 'retention', form.id, '--days', '14')).toEqual({ id: form.id, retentionDays: 14 });
    expect(await cli('form', 'retention', form.id, '--days', 'none')).toEqual({ id: form.id, retentionDays: null });
    await expect(cli('form', 'retention', form.id, '--days', 'soon')).rejects.toThrow('--days must be a whole number of days or none');

    expect(await cli('retention', 'status')).toEqual({ run: null });
    await runRetentionJob(ctx.handle, { intervalMs: 3_600_000, formPurgeDays: 30, node: 'cli-node' });
    expect(await cli('retention', 'status')).toMatchObject({
      run: { name: 'retention', status: 'succeeded', node: 'cli-node', responsesDeleted: 0, finishedAt: expect.any(String) },
    });
  });

  it('audit list pages through the environment log, newest first', async () => {
    const first = await cli('audit', 'list', '--env', tenant.environmentId, '--limit', '2');
    expect(first.entries.map((e: { action: string }) => e.action)).toEqual(['form.retention', 'form.retention']);
    expect(first.nextCursor).toEqual(expect.any(String));
    const next = await cli('audit', 'list', '--env', tenant.environmentId, '--limit', '3', '--after', first.nextCursor);
    expect(next.entries.map((e: { action: string }) => e.action)).toEqual(['lead.erase', 'responses.delete', 'response.delete']);
    expect(next.entries[0]).toMatchObject({ actorKind: 'admin', environmentId: tenant.environmentId });
    const text = (await runCli(['audit', 'list', '--env', tenant.environmentId, '--limit', '1', '--url', url, '--admin-token', ADMIN_TOKEN])).text;
    expect(text).toMatch(/^\S+Z {2}form\.retention +admin {2}\S+ {2}\{"retentionDays":null\}\n\(more: --after \S+\)$/);
  });
});
