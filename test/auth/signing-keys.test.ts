/**
 * Signing keys (docs/security.md "Signing keys"): random, independent of the admin token; an install
 * whose keys were derived from the token gets random ones at start, the derived ones accepted for the
 * grace period only; `rotateSigningKeys` (the CLI's `secrets rotate`) replaces them on every node, the
 * replaced key accepted within the grace period and refused after it.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { eq } from 'drizzle-orm';
import { pino } from 'pino';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/app.ts';
import { runCli } from '../../src/cli.ts';
import type { StartedSecrets } from '../../src/auth/admin-token.ts';
import { deriveSecret } from '../../src/auth/secrets.ts';
import { KEYRING_MAX_AGE_MS } from '../../src/auth/signing-keys.ts';
import { prepareDatabase } from '../../src/bootstrap.ts';
import { instanceSecrets } from '../../src/db/schema.ts';
import { signedFileUrl } from '../../src/uploads/file-urls.ts';
import { makeForm } from '../support/public-helpers.ts';
import { checkedApp, createTenant, jsonRequest, setupIsolatedTestApp, testConfig, type TestContext } from '../support/helpers.ts';

const silent = pino({ level: 'silent' });
const ADMIN_TOKEN = 'signing-keys-admin-token-0123456789';
const GRACE_MS = 24 * 3_600_000;
/** A well-formed upload id no upload has: a good signature reaches the lookup (404), a bad one stops at 403. */
const UPLOAD_ID = 'upl_nosuchfile';

let ctx: TestContext;

const start = () => prepareDatabase({ adminToken: ADMIN_TOKEN, dataDir: testConfig().dataDir, signingKeyGraceMs: GRACE_MS }, ctx.handle, silent);
const nodeOf = (started: StartedSecrets) => checkedApp(createApp({ config: testConfig(), db: ctx.db, logger: silent, secrets: started.secrets }));
type Node = ReturnType<typeof nodeOf>;

/** 404: the signature was accepted (no such file); 403: refused. */
const fileStatus = async (node: Node, key: string) => (await node.request(signedFileUrl(key, UPLOAD_ID, 600))).status;

async function rotate(node: Node) {
  const response = await node.request(
    '/graphql',
    jsonRequest('POST', { query: 'mutation { rotateSigningKeys { rotatedAt previousKeysAcceptedUntil } }' }, { authorization: `Bearer ${ADMIN_TOKEN}` }),
  );
  const body = (await response.json()) as {
    data: { rotateSigningKeys: { rotatedAt: string; previousKeysAcceptedUntil: string } };
  };
  return body.data.rotateSigningKeys;
}

const storedKey = async (name: string) => (await ctx.db.select().from(instanceSecrets).where(eq(instanceSecrets.name, name)))[0]?.value;

beforeAll(async () => {
  ctx = await setupIsolatedTestApp();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('signing keys', () => {
  it('an install whose keys were derived from the admin token: random keys at start, the derived ones accepted for the grace period', async () => {
    // The database as the release that derived the keys left it.
    const derived = {
      cookies: deriveSecret(ADMIN_TOKEN, 'public-cookies'),
      files: deriveSecret(ADMIN_TOKEN, 'file-urls'),
    };
    await ctx.db.insert(instanceSecrets).values([
      { name: 'public-cookies', value: derived.cookies },
      { name: 'file-urls', value: derived.files },
    ]);
    const started = await start();
    expect(started.secrets.signing.cookies.current).not.toBe(derived.cookies);
    expect(started.secrets.signing.fileUrls.current).not.toBe(derived.files);
    expect(started.secrets.signing.fileUrls.accepted()).toEqual([started.secrets.signing.fileUrls.current, derived.files]);
    const node = nodeOf(started);
    expect(await fileStatus(node, started.secrets.signing.fileUrls.current)).toBe(404);
    expect(await fileStatus(node, derived.files)).toBe(404);
    // A restart keeps the random keys (the migration runs once).
    const again = await start();
    expect(again.secrets.signing.fileUrls.current).toBe(started.secrets.signing.fileUrls.current);
  });

  it('after a rotation, the token-derived key no longer signs a valid file URL, and the replaced key works within the grace period only', async () => {
    const node = nodeOf(await start());
    const before = (await storedKey('file-urls'))!;
    const rotation = await rotate(node);
    expect(Date.parse(rotation.previousKeysAcceptedUntil) - Date.parse(rotation.rotatedAt)).toBe(GRACE_MS);
    const after = (await storedKey('file-urls'))!;
    expect(after).not.toBe(before);
    expect(await fileStatus(node, after)).toBe(404);
    expect(await fileStatus(node, before)).toBe(404);
    expect(await fileStatus(node, deriveSecret(ADMIN_TOKEN, 'file-urls'))).toBe(403);

    // The grace period over (the rotation moved back past it): the replaced key is refused.
    await ctx.db
      .update(instanceSecrets)
      .set({ createdAt: new Date(Date.now() - GRACE_MS - 60_000) })
      .where(eq(instanceSecrets.name, 'file-urls:previous'));
    const later = nodeOf(await start());
    expect(await fileStatus(later, before)).toBe(403);
    expect(await fileStatus(later, after)).toBe(404);
  });

  it('several nodes on one database agree: a rotation on one reaches the others within the keyring age, and each accepts what the other signs', async () => {
    const a = await start();
    const b = await start();
    const nodeA = nodeOf(a);
    const nodeB = nodeOf(b);
    const old = b.secrets.signing.fileUrls.current;
    expect(a.secrets.signing.fileUrls.current).toBe(old);
    await rotate(nodeA);
    const fresh = a.secrets.signing.fileUrls.current;
    expect(fresh).not.toBe(old);
    // Until B reads the keys again it signs with the old key, which A accepts (the previous key).
    expect(await fileStatus(nodeA, old)).toBe(404);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + KEYRING_MAX_AGE_MS + 1_000 });
    expect(await fileStatus(nodeB, fresh)).toBe(404);
    expect(b.secrets.signing.fileUrls.current).toBe(fresh);
    expect(await fileStatus(nodeB, old)).toBe(404);
    expect(b.secrets.signing.cookies.current).toBe(a.secrets.signing.cookies.current);
  });

  it('a visitor token signed before a rotation identifies its lead within the grace period, and is refused after it', async () => {
    const node = nodeOf(await start());
    const tenant = await createTenant(ctx.db);
    const form = await makeForm(ctx.db, tenant, [
      { name: 'One', components: [{ type: 'ShortInput', content: { question: 'Name?' } }] },
      { name: 'Two', components: [{ type: 'LongInput', content: { question: 'More?' } }] },
    ]);
    const post = (body: object) => node.request(`/s/${form.id}/responses`, jsonRequest('POST', body));
    const { visitorToken } = (await (await post({ answers: {} })).json()) as { visitorToken: string };
    await rotate(node);
    const again = await post({ answers: {}, visitorToken });
    expect(again.status).toBe(201);
    const renewed = ((await again.json()) as { visitorToken: string }).visitorToken;
    expect(renewed.split('.')[0]).toBe(visitorToken.split('.')[0]);
    expect(renewed).not.toBe(visitorToken);

    await ctx.db
      .update(instanceSecrets)
      .set({ createdAt: new Date(Date.now() - GRACE_MS - 60_000) })
      .where(eq(instanceSecrets.name, 'public-cookies:previous'));
    const later = nodeOf(await start());
    const refused = await later.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers: {}, visitorToken }));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      errors: [{ message: 'Unknown visitor token', path: ['visitorToken'] }],
    });
  });

  it("`formloom secrets rotate` rotates the running server's keys", async () => {
    const started = await start();
    const server = serve({ fetch: nodeOf(started).fetch, port: 0, hostname: '127.0.0.1' });
    if (!server.listening) await once(server, 'listening');
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const before = started.secrets.signing.fileUrls.current;
      const { output } = await runCli(['secrets', 'rotate', '--url', url, '--admin-token', ADMIN_TOKEN, '--json']);
      const rotation = output as { rotatedAt: string; previousKeysAcceptedUntil: string };
      expect(Date.parse(rotation.previousKeysAcceptedUntil) - Date.parse(rotation.rotatedAt)).toBe(GRACE_MS);
      expect(await storedKey('file-urls:previous')).toBe(before);
      expect(started.secrets.signing.fileUrls.current).toBe(await storedKey('file-urls'));
      expect((await fetch(`${url}${signedFileUrl(before, UPLOAD_ID, 600)}`)).status).toBe(404);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('rotation is for the admin token only', async () => {
    const node = nodeOf(await start());
    const response = await node.request('/graphql', jsonRequest('POST', { query: 'mutation { rotateSigningKeys { rotatedAt } }' }));
    const body = (await response.json()) as { errors: { extensions: { code: string } }[] };
    expect(body.errors[0]!.extensions.code).toBe('UNAUTHENTICATED');
  });
});
