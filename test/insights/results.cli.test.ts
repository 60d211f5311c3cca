/** `formloom share-link …` (the admin token) against a real server on an ephemeral port: the link it prints opens the page, revoked it is 404. */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli.ts';
import type { Form } from '../../src/forms/forms.service.ts';
import { ADMIN_TOKEN, createTenant, setupTestApp, type TestContext } from '../support/helpers.ts';
import { makeForm } from '../support/public-helpers.ts';

let ctx: TestContext;
let server: ServerType;
let url: string;
let form: Form;

beforeAll(async () => {
  ctx = await setupTestApp();
  server = serve({ fetch: ctx.app.fetch, port: 0, hostname: '127.0.0.1' });
  if (!server.listening) await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const tenant = await createTenant(ctx.db);
  form = await makeForm(
    ctx.db,
    tenant,
    [
      { name: 'One', components: [{ type: 'ShortInput', content: { question: 'Why?' } }] },
      { name: 'Two', components: [{ type: 'ShortInput', content: { question: 'How?' } }] },
    ],
    'CLI results',
  );
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const cli = (...args: string[]) => runCli([...args, '--url', url, '--admin-token', ADMIN_TOKEN]);
const json = async (...args: string[]) => (await cli(...args, '--json')).output as any;

describe('formloom share-link', () => {
  it('creates (the full URL once), lists without it, and revokes', async () => {
    const created = await cli('share-link', 'create', '--form', form.id, '--expires', '30d', '--text-answers');
    const link = /^Results page \(shown only now\): (\S+)$/m.exec(created.text)![1]!;
    expect(link).toMatch(new RegExp(`^${url}/r/[\\w-]{43}$`));
    expect(created.output).toMatchObject({
      formId: form.id,
      includeTextAnswers: true,
      expiresAt: expect.any(String),
      url: link,
    });
    expect((await fetch(link)).status).toBe(200);
    const listed = await json('share-link', 'list', '--form', form.id);
    expect(listed.shareLinks.map((l: { id: string }) => l.id)).toEqual([created.output.id]);
    expect(JSON.stringify(listed)).not.toContain(link.slice(-43));
    const id = String(created.output.id);
    expect((await cli('share-link', 'revoke', id, '--form', form.id)).text).toBe(`Revoked share link ${id}`);
    expect((await fetch(link)).status).toBe(404);
    expect((await cli('share-link', 'list', '--form', form.id)).text).toBe('No share links');
  });

  it('names what is missing or wrong', async () => {
    await expect(cli('share-link', 'create')).rejects.toThrow('--form');
    await expect(cli('share-link', 'create', '--form', form.id, '--expires', 'soon')).rejects.toThrow('--expires must be');
    await expect(cli('share-link', 'create', '--form', 'nope')).rejects.toThrow('Form not found');
    await expect(cli('share-link', 'revoke', 'nope', '--form', form.id)).rejects.toThrow('Share link not found');
  });
});
