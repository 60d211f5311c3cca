/**
 * The admin token at rest (README "Security", "Running several nodes"): generated on first start, it lives
 * in the data dir (mode 0600) and nowhere in the database, whose every table is scanned for it. On
 * PostgreSQL the database holds its hash, through which a second node (another data dir, no copy of the
 * token) accepts it, and the signing keys every node shares. An install whose database still holds the
 * token in clear (as earlier releases kept it) is upgraded at start: the clear token replaced by its
 * hash, the same token accepted, and what was signed before the upgrade still valid.
 */
import { mkdtempSync, readFileSync, existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { AdminCredential, type StartedSecrets } from '../../src/auth/admin-token.ts';
import { prepareDatabase } from '../../src/bootstrap.ts';
import { createApp } from '../../src/app.ts';
import { openDatabase, type Database, type DatabaseHandle } from '../../src/db/client.ts';
import { instanceSecrets } from '../../src/db/schema.ts';
import { checkedApp, createTenant, jsonRequest, setupIsolatedTestApp, testConfig, type TestContext } from '../support/helpers.ts';
import { makeForm } from '../support/public-helpers.ts';
import { onFileEnd } from '../support/cleanup.ts';
import { tablesHolding } from '../support/db-scan.ts';
import { deriveSecret } from '../../src/auth/secrets.ts';

const onPostgres = Boolean(inject('testDatabaseUrl'));
const silent = pino({ level: 'silent' });

let ctx: TestContext;
let first: StartedSecrets;
let firstDataDir: string;

const tempDir = () => mkdtempSync(join(tmpdir(), 'formloom-secrets-'));

function appOn(db: Database, secrets: StartedSecrets['secrets']) {
  return checkedApp(createApp({ config: testConfig(), db, logger: silent, secrets }));
}

const asAdmin = (token: string) => ({ authorization: `Bearer ${token}` });
const createEnvironment = (app: ReturnType<typeof appOn>, token: string) =>
  app.request('/graphql', jsonRequest('POST', { query: 'mutation { createEnvironment(input: {name: "Admin check"}) { name } }' }, asAdmin(token)));

beforeAll(async () => {
  // A database of this file's own: the scan must see only what this start wrote.
  ctx = await setupIsolatedTestApp();
  firstDataDir = tempDir();
  first = await prepareDatabase({ adminToken: undefined, dataDir: firstDataDir }, ctx.handle, silent);
});

describe('the generated admin token', () => {
  it('lives in the data dir, readable by its owner only, and in no table of the database', async () => {
    expect(first.adminToken.generated).toBe(true);
    const token = first.adminToken.token!;
    expect(token).toMatch(/^fladm_[\w-]{43}$/);
    const file = join(firstDataDir, 'admin-token');
    expect(readFileSync(file, 'utf8').trim()).toBe(token);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await tablesHolding(ctx.db, token)).toEqual([]);
    // The scan does find what is there (the table and the search are right).
    expect(await tablesHolding(ctx.db, first.secrets.signing.cookies.current)).toEqual(['public.instance_secrets']);
  });

  it('is the admin token of the app on this node, and nothing else is', async () => {
    const app = appOn(ctx.db, first.secrets);
    const accepted = await createEnvironment(app, first.adminToken.token!);
    expect(await accepted.json()).toEqual({ data: { createEnvironment: { name: 'Admin check' } } });
    const refused = await createEnvironment(app, `${first.adminToken.token!}x`);
    expect(((await refused.json()) as { errors: { message: string }[] }).errors[0]!.message).toBe('Invalid admin token');
  });

  it('a restart finds the same token and the same keys', async () => {
    const again = await prepareDatabase({ adminToken: undefined, dataDir: firstDataDir }, ctx.handle, silent);
    expect(again.adminToken).toEqual({ token: first.adminToken.token, generated: false });
    expect(again.secrets.signing.cookies.current).toBe(first.secrets.signing.cookies.current);
    expect(again.secrets.signing.fileUrls.current).toBe(first.secrets.signing.fileUrls.current);
    expect(again.secrets.secretBox.open(first.secrets.secretBox.seal('x', 'here'), 'here')).toBe('x');
  });
});

describe.runIf(onPostgres)('on PostgreSQL, several nodes', () => {
  let second: DatabaseHandle;

  beforeAll(async () => {
    second = await openDatabase({ databaseUrl: ctx.databaseUrl!, maxConnections: 2 });
    onFileEnd(() => second.close());
  });

  it('a second node with a data dir of its own (no copy of the token) accepts the token through its hash, and signs alike', async () => {
    const dataDir = tempDir();
    const started = await prepareDatabase({ adminToken: undefined, dataDir }, second, silent);
    expect(started.adminToken).toEqual({ token: undefined, generated: false });
    expect(existsSync(join(dataDir, 'admin-token'))).toBe(false);
    const app = appOn(second.db, started.secrets);
    expect(await (await createEnvironment(app, first.adminToken.token!)).json()).toEqual({ data: { createEnvironment: { name: 'Admin check' } } });
    expect(((await (await createEnvironment(app, 'fladm_wrong')).json()) as { errors: { message: string }[] }).errors[0]!.message).toBe('Invalid admin token');
    expect(started.secrets.signing.cookies.current).toBe(first.secrets.signing.cookies.current);
    expect(started.secrets.signing.fileUrls.current).toBe(first.secrets.signing.fileUrls.current);
    expect(started.secrets.secretBox.open(first.secrets.secretBox.seal('captcha secret', 'environment:a:turnstile'), 'environment:a:turnstile')).toBe('captcha secret');
    expect(await tablesHolding(ctx.db, first.adminToken.token!)).toEqual([]);
  });

  it('upgrading from a clear token in the database: replaced by its hash at start, the same token accepted, earlier signatures still valid', async () => {
    // The database as an earlier release left it: the generated token in clear, nothing else.
    const legacyToken = `fladm_${'L'.repeat(43)}`;
    await ctx.db.delete(instanceSecrets);
    await ctx.db.insert(instanceSecrets).values({ name: 'admin-token', value: legacyToken });
    // A response started on a node of the earlier release (every secret derived from the token).
    const tenant = await createTenant(ctx.db);
    const form = await makeForm(ctx.db, tenant, [
      { name: 'One', components: [{ type: 'ShortInput', content: { question: 'Name?' } }] },
      { name: 'Two', components: [{ type: 'LongInput', content: { question: 'More?' } }] },
    ]);
    const earlier = checkedApp(createApp({ config: testConfig(), db: ctx.db, logger: silent, adminToken: legacyToken }));
    const started = await earlier.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers: { [form.steps[0]!.components[0]!.id]: 'Ada' } }));
    expect(started.status).toBe(201);
    const { id, resumeToken, visitorToken } = (await started.json()) as { id: string; resumeToken: string; visitorToken: string };

    // The first upgraded node to start: its data dir has no copy of the token (it gets one).
    const dataDir = tempDir();
    const upgraded = await prepareDatabase({ adminToken: undefined, dataDir }, second, silent);
    expect(upgraded.adminToken).toEqual({ token: legacyToken, generated: false });
    expect(readFileSync(join(dataDir, 'admin-token'), 'utf8').trim()).toBe(legacyToken);
    expect(statSync(join(dataDir, 'admin-token')).mode & 0o777).toBe(0o600);
    expect(await tablesHolding(ctx.db, legacyToken)).toEqual([]);
    const names = (await ctx.db.select({ name: instanceSecrets.name }).from(instanceSecrets)).map((row) => row.name).sort();
    expect(names).toEqual(['admin-token-sha256', 'environment-secrets-key', 'file-urls', 'file-urls:previous', 'public-cookies', 'public-cookies:previous', 'signing-keys-random']);
    // New keys are random; those the earlier release derived are the previous ones: its cookies, tokens and URLs stay valid for the grace period.
    expect(upgraded.secrets.signing.cookies.current).not.toBe(deriveSecret(legacyToken, 'public-cookies'));
    expect(upgraded.secrets.signing.cookies.previous?.key).toBe(deriveSecret(legacyToken, 'public-cookies'));
    expect(upgraded.secrets.signing.fileUrls.previous?.key).toBe(deriveSecret(legacyToken, 'file-urls'));
    const app = appOn(second.db, upgraded.secrets);
    const finished = await app.request(`/s/${form.id}/responses/${id}`, jsonRequest('PATCH', { answers: {}, finished: true }, { authorization: `Bearer ${resumeToken}` }));
    expect(finished.status).toBe(200);
    const again = await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers: {}, visitorToken }));
    // The same lead, its token signed again with the new key.
    expect(((await again.json()) as { visitorToken: string }).visitorToken.split('.')[0]).toBe(visitorToken.split('.')[0]);
    expect(await (await createEnvironment(app, legacyToken)).json()).toEqual({ data: { createEnvironment: { name: 'Admin check' } } });

    // Another node of the deployment (no copy either) accepts the same token.
    const other = await prepareDatabase({ adminToken: undefined, dataDir: tempDir() }, ctx.handle, silent);
    expect(other.adminToken).toEqual({ token: undefined, generated: false });
    expect(other.secrets.admin.matches(legacyToken)).toBe(true);
    expect(other.secrets.signing.cookies.current).toBe(upgraded.secrets.signing.cookies.current);
  });

  it('an older node writing the clear token back during a rolling upgrade: removed again at the next start', async () => {
    const [hash] = await ctx.db
      .select()
      .from(instanceSecrets)
      .where(sql`${instanceSecrets.name} = 'admin-token-sha256'`);
    const token = `fladm_${'L'.repeat(43)}`;
    expect(AdminCredential.ofHash(hash!.value).matches(token)).toBe(true);
    await ctx.db.insert(instanceSecrets).values({ name: 'admin-token', value: token });
    const restarted = await prepareDatabase({ adminToken: undefined, dataDir: tempDir() }, second, silent);
    expect(restarted.secrets.admin.matches(token)).toBe(true);
    expect(await tablesHolding(ctx.db, token)).toEqual([]);
  });

  it('with ADMIN_TOKEN set, a clear token an earlier release left is removed too', async () => {
    const leftOver = `fladm_${'Z'.repeat(43)}`;
    await ctx.db.delete(instanceSecrets);
    await ctx.db.insert(instanceSecrets).values({ name: 'admin-token', value: leftOver });
    const configured = 'configured-admin-token-0123456789';
    const started = await prepareDatabase({ adminToken: configured, dataDir: tempDir() }, second, silent);
    expect(started.adminToken).toEqual({ token: configured, generated: false });
    expect(started.secrets.admin.matches(configured)).toBe(true);
    expect(started.secrets.admin.matches(leftOver)).toBe(false);
    expect(await tablesHolding(ctx.db, leftOver)).toEqual([]);
    expect(await tablesHolding(ctx.db, configured)).toEqual([]);
  });
});
