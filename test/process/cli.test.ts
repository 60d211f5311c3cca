/**
 * The `formloom` command against a real server on an ephemeral port: each subcommand's JSON output,
 * that what it creates works through the REST API, and its errors.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { serve, type ServerType } from '@hono/node-server';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapBanner } from '../../src/bootstrap.ts';
import { runCli } from '../../src/cli.ts';
import { freePort } from '../support/server-process.ts';
import { ADMIN_TOKEN, appWith, createTenant, jsonRequest, setupTestApp, testConfig, validBody, type TestContext } from '../support/helpers.ts';
import { createForm, insertTimeline } from '../support/factories.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TEMPLATE_FILE = fileURLToPath(new URL('../../examples/template.json', import.meta.url));

let ctx: TestContext;
let server: ServerType;
let url: string;
let tmp: string;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'formloom-cli-'));
  ctx = await setupTestApp();
  server = serve({ fetch: ctx.app.fetch, port: 0, hostname: '127.0.0.1' });
  if (!server.listening) await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  url = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  rmSync(tmp, { recursive: true, force: true });
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** Runs the command as an admin against the test server and returns its JSON output. */
async function cli(...args: string[]) {
  const { output } = await runCli([...args, '--url', url, '--admin-token', ADMIN_TOKEN, '--json']);
  return output;
}

function generateOverRest(environmentId: string, key: string, sourceFormId: string) {
  return fetch(`${url}/api/v1/environments/${environmentId}/forms/generate`, jsonRequest('POST', validBody(sourceFormId), { 'x-api-key': key }));
}

const uniqueId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;

describe('formloom CLI', () => {
  it('env create prints {id, name}, with a generated or a chosen Site ID', async () => {
    const generated = await cli('env', 'create', '--name', 'CLI generated');
    expect(Object.keys(generated).sort()).toEqual(['id', 'name']);
    expect(generated.name).toBe('CLI generated');
    expect(generated.id).toMatch(/^[\w-]{10,64}$/);

    const id = uniqueId('cli-site');
    expect(await cli('env', 'create', '--name', 'CLI chosen', '--id', id)).toEqual({ id, name: 'CLI chosen' });
  });

  it('env create with a taken Site ID fails with the conflict', async () => {
    const id = uniqueId('cli-dup');
    await cli('env', 'create', '--name', 'First', '--id', id);
    await expect(cli('env', 'create', '--name', 'Second', '--id', id)).rejects.toMatchObject({
      message: `An environment with id "${id}" already exists`,
      details: { code: 'CONFLICT' },
    });
  });

  it('walks the whole admin flow: env, key, import, generate, delete, revoke', async () => {
    const environmentId = uniqueId('cli-flow');
    await cli('env', 'create', '--name', 'Flow', '--id', environmentId);

    const key = await cli('key', 'create', '--env', environmentId, '--name', 'ci');
    expect(Object.keys(key).sort()).toEqual(['environmentId', 'expiresAt', 'formIds', 'id', 'key', 'scopes']);
    expect(key.formIds).toBeNull();
    expect(key.environmentId).toBe(environmentId);
    expect(key.key).toMatch(new RegExp(`^fl_${String(key.id)}_[A-Za-z0-9_-]{43}$`));

    const form = await cli('form', 'import', '--env', environmentId, '--file', TEMPLATE_FILE);
    expect(form).toEqual({ id: form.id, url: `/s/${String(form.id)}`, status: 'published' });
    expect(form.id).toMatch(/^[a-z0-9]{10,}$/);

    // --form, repeatable: a key limited to these forms.
    const second = await cli('form', 'import', '--env', environmentId, '--file', TEMPLATE_FILE);
    const limited = await cli('key', 'create', '--env', environmentId, '--scopes', 'forms:read', '--form', String(form.id), '--form', String(second.id));
    expect(limited.formIds).toEqual([form.id, second.id]);
    const listed = (await cli('key', 'list', '--env', environmentId)) as { data: { id: string; formIds: string[] | null }[] };
    expect(listed.data.find((k) => k.id === limited.id)?.formIds).toEqual([form.id, second.id]);
    await expect(cli('key', 'create', '--env', environmentId, '--form', 'k4n2iogu5ks9ut7lahuxkl27')).rejects.toMatchObject({
      message: 'Invalid arguments',
      details: { errors: [{ message: 'No form with this id in the environment', path: ['formIds', 0] }] },
    });

    const generated = await generateOverRest(environmentId, String(key.key), String(form.id));
    expect(generated.status).toBe(200);
    const body = (await generated.json()) as { success: boolean; result: { form: { id: string; url: string } } };
    expect(body).toEqual({ success: true, result: { form: { id: body.result.form.id, url: `/s/${body.result.form.id}` } } });

    expect(await cli('form', 'delete', String(form.id))).toEqual({ id: form.id, deleted: true });
    const fromDeleted = await generateOverRest(environmentId, String(key.key), String(form.id));
    expect(fromDeleted.status).toBe(404);
    expect(await fromDeleted.json()).toEqual({ message: 'Source form not found' });

    expect(await cli('key', 'revoke', String(key.id))).toEqual({ id: key.id, revoked: true });
    const revoked = await generateOverRest(environmentId, String(key.key), body.result.form.id);
    expect(revoked.status).toBe(401);
    expect(await revoked.json()).toEqual({ message: 'Invalid API key' });
  });

  it('key create without a name still makes a working key', async () => {
    const environmentId = uniqueId('cli-noname');
    await cli('env', 'create', '--name', 'No name', '--id', environmentId);
    const key = await cli('key', 'create', '--env', environmentId);
    expect(key.environmentId).toBe(environmentId);
    const form = await cli('form', 'import', '--env', environmentId, '--file', TEMPLATE_FILE);
    expect((await generateOverRest(environmentId, String(key.key), String(form.id))).status).toBe(200);
  });

  it('form delete of an unknown form fails as not found', async () => {
    await expect(cli('form', 'delete', 'no-such-form')).rejects.toMatchObject({
      message: 'Form not found',
      details: { code: 'NOT_FOUND' },
    });
  });

  it('form import reports an unreadable file', async () => {
    await expect(cli('form', 'import', '--env', 'x', '--file', '/nonexistent/template.json')).rejects.toThrow(/^Cannot read \/nonexistent\/template\.json as JSON: /);
  });

  it("form import takes the file's status: a draft stays a draft; an unknown status is refused", async () => {
    const environmentId = uniqueId('cli-draft');
    await cli('env', 'create', '--name', 'Drafts', '--id', environmentId);
    const template = JSON.parse(readFileSync(TEMPLATE_FILE, 'utf8')) as Record<string, unknown>;
    const draft = join(tmp, 'draft.json');
    writeFileSync(draft, JSON.stringify({ ...template, status: 'draft' }));
    const imported = await cli('form', 'import', '--env', environmentId, '--file', draft);
    expect(imported.status).toBe('draft');
    expect((await fetch(`${url}${String(imported.url)}`)).status).toBe(404); // a draft is not served
    expect((await cli('form', 'import', '--env', environmentId, '--file', TEMPLATE_FILE)).status).toBe('published');
    const archived = join(tmp, 'archived.json');
    writeFileSync(archived, JSON.stringify({ ...template, status: 'archived' }));
    await expect(cli('form', 'import', '--env', environmentId, '--file', archived)).rejects.toMatchObject({ details: { code: 'BAD_USER_INPUT' } });
  });

  it('form import reports every problem of an invalid form file with its path', async () => {
    const environmentId = uniqueId('cli-bad');
    await cli('env', 'create', '--name', 'Bad file', '--id', environmentId);
    const file = join(tmp, 'bad-theme.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'Bad',
        theme: { colors: { primary: 'red', background: '#ffffff', text: '#000000', buttonText: '#ffffff' } },
        steps: [{ name: 'S', components: [{ type: 'Nope', content: {} }] }],
      }),
    );
    await expect(cli('form', 'import', '--env', environmentId, '--file', file)).rejects.toMatchObject({
      message: 'Invalid request body',
      details: {
        code: 'BAD_USER_INPUT',
        errors: [
          { message: 'must be a hex colour such as "#1f2937"', path: ['theme', 'colors', 'primary'] },
          { message: 'Unknown component type "Nope"', path: ['steps', 0, 'components', 0, 'type'] },
        ],
      },
    });
  });

  it('form import of a file without steps says what is wrong (not "Unexpected error.")', async () => {
    const environmentId = uniqueId('cli-nosteps');
    await cli('env', 'create', '--name', 'No steps', '--id', environmentId);
    const file = join(tmp, 'no-steps.json');
    writeFileSync(file, JSON.stringify({ name: 'No steps here' }));
    const error = (await cli('form', 'import', '--env', environmentId, '--file', file).then(
      () => expect.unreachable('the import should fail'),
      (e: unknown) => e,
    )) as Error & { details?: { code?: string } };
    expect(error.message).not.toBe('Unexpected error.');
    expect(error.message).toMatch(/steps/);
    expect(error.details?.code).not.toBe('INTERNAL_SERVER_ERROR');
  });

  it('rejects a wrong admin token', async () => {
    await expect(runCli(['env', 'create', '--name', 'Nope', '--url', url, '--admin-token', 'wrong-admin-token-123456', '--json'])).rejects.toMatchObject({
      message: 'Invalid admin token',
      details: { code: 'UNAUTHENTICATED' },
    });
  });

  it('rejects an API key in place of the admin token for admin commands; a key makes keys only within its own scopes', async () => {
    const environmentId = uniqueId('cli-apikey');
    await cli('env', 'create', '--name', 'Key as token', '--id', environmentId);
    const key = await cli('key', 'create', '--env', environmentId, '--scopes', 'forms:read');
    await expect(runCli(['env', 'create', '--name', 'Nope', '--url', url, '--admin-token', String(key.key), '--json'])).rejects.toMatchObject({
      message: 'This operation needs the admin token',
      details: { code: 'FORBIDDEN' },
    });
    await expect(runCli(['key', 'create', '--env', environmentId, '--url', url, '--admin-token', String(key.key), '--json'])).rejects.toMatchObject({
      message: 'API key lacks the scope keys:manage',
      details: { code: 'FORBIDDEN' },
    });
  });

  it('rejects an unknown command, naming it', async () => {
    await expect(cli('frobnicate', 'everything')).rejects.toThrow(/^Unknown command "frobnicate everything"/);
    await expect(cli('env', 'destroy')).rejects.toThrow(/^Unknown command "env destroy"/);
  });

  it('rejects a missing required option, naming it', async () => {
    await expect(cli('env', 'create')).rejects.toThrow(/^Missing --name/);
    await expect(cli('key', 'create')).rejects.toThrow(/^Missing --env/);
    await expect(cli('key', 'revoke')).rejects.toThrow(/^Missing KEY_ID/);
    await expect(cli('form', 'delete')).rejects.toThrow(/^Missing FORM_ID/);
  });

  it('says clearly when the server cannot be reached', async () => {
    const port = await freePort();
    const target = `http://127.0.0.1:${port}`;
    await expect(runCli(['env', 'create', '--name', 'Nope', '--url', target, '--admin-token', ADMIN_TOKEN, '--json'])).rejects.toThrow(
      `Cannot reach the formloom server at ${target}`,
    );
  });

  it('prints usage for --help', async () => {
    const { output, text } = await runCli(['--help']);
    expect(output).toEqual({});
    expect(text).toMatch(/^Usage: formloom <command>/);
    for (const command of ['env create', 'key create', 'key revoke', 'form import', 'form delete']) expect(text).toContain(command);
  });
});

describe('graphql trust', () => {
  it("trusts a file's document on the server: it then runs by its hash; graphql trusted lists it beside the built-in ones", async () => {
    const text = `query Trusted${uniqueId('q').replaceAll('-', '_')} { viewer { kind } }`;
    const file = join(tmp, 'trusted.graphql');
    writeFileSync(file, text);
    const hash = createHash('sha256').update(text).digest('hex');
    const trusted = await cli('graphql', 'trust', file);
    expect(trusted).toEqual({ hash, operationNames: [text.split(' ')[1]], builtIn: false, createdAt: expect.any(String) });
    const { text: line } = await runCli(['graphql', 'trust', file, '--url', url, '--admin-token', ADMIN_TOKEN]);
    expect(line).toBe(`Trusted ${text.split(' ')[1]}: sha256Hash ${hash}`);

    const byHash = await fetch(
      `${url}/graphql`,
      jsonRequest('POST', { extensions: { persistedQuery: { version: 1, sha256Hash: hash } } }, { authorization: `Bearer ${ADMIN_TOKEN}` }),
    );
    expect(await byHash.json()).toEqual({ data: { viewer: { kind: 'ADMIN' } } });

    const { documents } = (await cli('graphql', 'trusted')) as { documents: { hash: string; builtIn: boolean }[] };
    expect(documents).toContainEqual(expect.objectContaining({ hash, builtIn: false }));
    expect(documents.filter((document) => document.builtIn).length).toBeGreaterThan(30);
  });

  it('refuses a document the schema does not have, and a missing file', async () => {
    const file = join(tmp, 'invalid.graphql');
    writeFileSync(file, '{ nope }');
    await expect(cli('graphql', 'trust', file)).rejects.toMatchObject({ message: 'Invalid GraphQL document', details: { code: 'BAD_USER_INPUT' } });
    await expect(cli('graphql', 'trust', join(tmp, 'missing.graphql'))).rejects.toThrow(`Cannot read ${join(tmp, 'missing.graphql')}`);
  });

  it('every command works against a server with GRAPHQL_PERSISTED_ONLY=1: they are sent by hash', async () => {
    const strict = serve({ fetch: appWith(ctx.db, { graphql: { ...testConfig().graphql, persistedOnly: true } }).fetch, port: 0, hostname: '127.0.0.1' });
    if (!strict.listening) await once(strict, 'listening');
    try {
      const strictUrl = `http://127.0.0.1:${(strict.address() as AddressInfo).port}`;
      const id = uniqueId('cli-strict');
      const { output } = await runCli(['env', 'create', '--name', 'Strict', '--id', id, '--url', strictUrl, '--admin-token', ADMIN_TOKEN, '--json']);
      expect(output).toEqual({ id, name: 'Strict' });
      const refused = await fetch(`${strictUrl}/graphql`, jsonRequest('POST', { query: '{ viewer { kind } }' }, { authorization: `Bearer ${ADMIN_TOKEN}` }));
      expect(refused.status).toBe(400);
    } finally {
      await new Promise<void>((resolve) => strict.close(() => resolve()));
    }
  });
});

/** Runs the installed command (bin/formloom.mjs) in a child process, in `cwd` with exactly `env`. */
async function runBin(args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [join(ROOT, 'bin/formloom.mjs'), ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

describe('bin/formloom.mjs', () => {
  /** The suite's environment without ADMIN_TOKEN, from the formloom folder. */
  function run(args: string[]) {
    const env = { ...process.env };
    delete env.ADMIN_TOKEN;
    return runBin(args, ROOT, env);
  }

  it('prints one JSON object on stdout and exits 0', async () => {
    const id = uniqueId('cli-bin');
    const { code, stdout, stderr } = await run(['env', 'create', '--name', 'From bin', '--id', id, '--url', url, '--admin-token', ADMIN_TOKEN, '--json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout.endsWith('\n')).toBe(true);
    expect(stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(stdout)).toEqual({ id, name: 'From bin' });
  }, 60_000);

  it('prints a JSON error on stderr and exits 1', async () => {
    const { code, stdout, stderr } = await run(['env', 'create', '--name', 'x', '--url', url, '--admin-token', 'wrong-admin-token-123456', '--json']);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(JSON.parse(stderr)).toEqual({ error: { message: 'Invalid admin token', code: 'UNAUTHENTICATED' } });
  }, 60_000);

  it('responses export --form writes the CSV to stdout, nothing else', async () => {
    const tenant = await createTenant(ctx.db);
    const form = await createForm(ctx.db, tenant.environmentId, 'Exported');
    const made = await insertTimeline(ctx.db, { environmentId: tenant.environmentId, formId: form.id, count: 3 });
    const { code, stdout, stderr } = await run(['responses', 'export', '--form', form.id, '--format', 'csv', '--url', url, '--admin-token', ADMIN_TOKEN]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const rows = parse(stdout);
    expect(rows[0]!.slice(0, 3)).toEqual(['id', 'createdAt', 'updatedAt']);
    expect(rows.slice(1).map((row) => row[0])).toEqual(made.map((r) => r.id));
  }, 60_000);
});

describe('responses export', () => {
  it('--out writes NDJSON to the file; an unknown form is an error and leaves no file', async () => {
    const tenant = await createTenant(ctx.db);
    const form = await createForm(ctx.db, tenant.environmentId, 'Exported');
    const made = await insertTimeline(ctx.db, { environmentId: tenant.environmentId, formId: form.id, count: 2, finished: (i) => i === 0 });
    const out = join(tmp, 'export.ndjson');
    const output = await cli('responses', 'export', '--env', tenant.environmentId, '--format', 'ndjson', '--partials', '--out', out);
    expect(output).toEqual({ bytes: expect.any(Number), file: out });
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string });
    expect(lines.map((line) => line.id)).toEqual(made.map((r) => r.id));

    const missing = join(tmp, 'missing.csv');
    await expect(cli('responses', 'export', '--form', 'no-such-form', '--out', missing)).rejects.toThrow('Form not found');
    expect(readdirSync(tmp).filter((name) => name.startsWith('missing'))).toEqual([]);
  });
});

describe('finding the local server and its admin token', () => {
  /**
   * Runs bin/formloom.mjs in `cwd` with only the variables given (and PATH, HOME): no --url, no
   * --admin-token, as someone types it on the machine that runs the server.
   */
  const runHere = (args: string[], cwd: string, variables: Record<string, string>) => runBin(args, cwd, { PATH: process.env.PATH, HOME: process.env.HOME, ...variables });
  const port = () => new URL(url).port;

  it.each<{ case: string; folder: string; variables: Record<string, string>; tokenIn: string; absolute: boolean }>([
    {
      case: 'from HOST and PORT, with the token the server wrote into DATA_DIR',
      folder: '',
      variables: { HOST: '127.0.0.1', DATA_DIR: 'server-data' },
      tokenIn: 'server-data',
      absolute: true,
    },
    { case: "without DATA_DIR, from the server's default ./.data", folder: 'default-folder', variables: {}, tokenIn: 'default-folder/.data', absolute: false },
    {
      case: 'with a relative DATA_DIR, from the current folder as the server reads it; a wildcard HOST means this machine',
      folder: '',
      variables: { HOST: '0.0.0.0', DATA_DIR: 'relative-data' },
      tokenIn: 'relative-data',
      absolute: false,
    },
  ])(
    'finds the server and its token $case',
    async ({ folder, variables, tokenIn, absolute }) => {
      mkdirSync(join(tmp, tokenIn), { recursive: true });
      writeFileSync(join(tmp, tokenIn, 'admin-token'), `${ADMIN_TOKEN}\n`, { mode: 0o600 });
      const env: Record<string, string> = { ...variables, PORT: port() };
      if (absolute && env.DATA_DIR) env.DATA_DIR = join(tmp, env.DATA_DIR);
      const id = uniqueId('cli-found');
      const { code, stdout, stderr } = await runHere(['env', 'create', '--name', 'Found', '--id', id, '--json'], join(tmp, folder), env);
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(JSON.parse(stdout)).toEqual({ id, name: 'Found' });
    },
    60_000,
  );

  it('without a token says where it looked and what to set', async () => {
    const empty = mkdtempSync(join(tmp, 'no-token-'));
    const dataDir = `no-such-data-${uniqueId('dir')}`;
    const { code, stdout, stderr } = await runHere(['env', 'create', '--name', 'Nope'], empty, { PORT: port(), DATA_DIR: dataDir });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain('No admin token found. Looked in:');
    expect(stderr).toContain('--admin-token: not given');
    expect(stderr).toContain('ADMIN_TOKEN: not set');
    // A relative DATA_DIR: from the current folder, then from the formloom folder (where `npm start` runs).
    expect(stderr).toContain(`${join(empty, dataDir, 'admin-token')}: no such file (DATA_DIR=${dataDir})`);
    expect(stderr).toContain(`${join(ROOT, dataDir, 'admin-token')}: no such file (DATA_DIR=${dataDir}, from the formloom folder)`);
    expect(stderr).toMatch(/set ADMIN_TOKEN .*or pass --admin-token/);
  }, 60_000);

  it('when nothing listens says which URL it tried, made of which HOST and PORT, and what to set', async () => {
    const closed = await freePort();
    const { code, stderr } = await runHere(['env', 'create', '--name', 'Nope', '--json'], tmp, { PORT: String(closed), ADMIN_TOKEN });
    expect(code).toBe(1);
    const { message } = (JSON.parse(stderr) as { error: { message: string } }).error;
    expect(message).toContain(`Cannot reach the formloom server at http://127.0.0.1:${closed} (HOST=127.0.0.1, PORT=${closed}): `);
    expect(message).toContain('ECONNREFUSED');
    expect(message).toContain('set FORMLOOM_URL to its address (or HOST and PORT as the server has them), or pass --url');
  }, 60_000);

  it('finds the server from FORMLOOM_URL, whatever PORT says; --url comes first', async () => {
    const closed = String(await freePort());
    const id = uniqueId('cli-url');
    const found = await runHere(['env', 'create', '--name', 'By URL', '--id', id, '--json'], tmp, { FORMLOOM_URL: url, PORT: closed, ADMIN_TOKEN });
    expect(found.stderr).toBe('');
    expect(JSON.parse(found.stdout)).toEqual({ id, name: 'By URL' });

    const elsewhere = `http://127.0.0.1:${closed}`;
    const refused = await runHere(['env', 'create', '--name', 'Nope', '--json'], tmp, { FORMLOOM_URL: elsewhere, ADMIN_TOKEN });
    expect(refused.code).toBe(1);
    const { message } = (JSON.parse(refused.stderr) as { error: { message: string } }).error;
    expect(message).toContain(`Cannot reach the formloom server at ${elsewhere} (FORMLOOM_URL): `);
    expect(message).toContain('Check the URL, and that the server is running.');

    const overridden = await runHere(['key', 'create', '--env', id, '--url', url, '--json'], tmp, { FORMLOOM_URL: elsewhere, ADMIN_TOKEN });
    expect(overridden.stderr).toBe('');
    expect(JSON.parse(overridden.stdout)).toMatchObject({ environmentId: id });
  }, 60_000);

  it('refuses a FORMLOOM_URL that is not an http(s) URL, before sending anything', async () => {
    const { code, stderr } = await runHere(['env', 'create', '--name', 'Nope'], tmp, { FORMLOOM_URL: '127.0.0.1:4000', ADMIN_TOKEN });
    expect(code).toBe(1);
    expect(stderr).toContain('FORMLOOM_URL: must be an http(s) URL (got "127.0.0.1:4000")');
  }, 60_000);

  it("after the first start's export line, on any port, closes a form with no other setting", async () => {
    const tenant = await createTenant(ctx.db);
    const form = await createForm(ctx.db, tenant.environmentId, 'Closed by the walk-through');
    const banner = bootstrapBanner({ environmentId: tenant.environmentId, templateFormId: form.id, apiKey: tenant.apiKey }, url, { token: ADMIN_TOKEN, generated: false });
    const line = /^export .*$/m.exec(banner)?.[0];
    expect(line).toContain(`FORMLOOM_URL=${url} `);
    const script = `${line}\nexec "${process.execPath}" "${join(ROOT, 'bin/formloom.mjs')}" form close "$TEMPLATE"`;
    const child = spawn('bash', ['-c', script], { cwd: tmp, env: { PATH: process.env.PATH, HOME: process.env.HOME, ADMIN_TOKEN }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toBe(`Closed form ${form.id}\n`);
  }, 60_000);

  it('with a token file from another server names the file', async () => {
    const stale = join(tmp, 'stale-data');
    mkdirSync(stale);
    writeFileSync(join(stale, 'admin-token'), 'fladm_a-token-of-another-server-00000000\n', { mode: 0o600 });
    const { code, stderr } = await runHere(['env', 'create', '--name', 'Nope', '--json'], tmp, { PORT: port(), DATA_DIR: stale });
    expect(code).toBe(1);
    expect(JSON.parse(stderr)).toEqual({
      error: {
        message: `Invalid admin token (the admin token was read from ${join(stale, 'admin-token')}): the server at ${url} has another one. Set ADMIN_TOKEN or DATA_DIR as the server has them, or pass --admin-token.`,
        code: 'UNAUTHENTICATED',
      },
    });
  }, 60_000);
});
