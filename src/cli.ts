/**
 * The `formloom` command: a client of the running server's GraphQL API, authorised by the admin token.
 * It finds the local server as the server itself reads its settings (src/config.ts: HOST, PORT,
 * DATA_DIR, ADMIN_TOKEN and their defaults): the URL from `--url`, FORMLOOM_URL, or HOST and PORT, the token from `--admin-token`,
 * else ADMIN_TOKEN, else the file the server writes into DATA_DIR. When it can't, its error says where
 * it looked and what to set.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { createGunzip } from 'node:zlib';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import { adminTokenFile, readAdminTokenFile } from './auth/admin-token.ts';
import { isScope, KEY_EXPIRY_FORMAT, parseKeyExpiry, scopeEnumName, scopeOfEnumName, SCOPES } from './auth/scopes.ts';
import { loadConfig, type Config } from './config.ts';
import { restoreDataDir, RestoreError } from './db/backup.ts';
import { documentHash } from './graphql/trusted-documents.ts';
import { ROOT } from './paths.ts';
import { relayStdio } from './mcp/stdio.ts';
import {
  CreateApiKeyDocument,
  CreateEnvironmentDocument,
  EnvironmentApiKeysDocument,
  DeleteFormDocument,
  ImportFormDocument,
  ReopenFormDocument,
  RevokeApiKeyDocument,
  CloseFormDocument,
  CreateWebhookEndpointDocument,
  DeleteWebhookEndpointDocument,
  ResendWebhookDeliveryDocument,
  TestWebhookEndpointDocument,
  UpdateWebhookEndpointDocument,
  WebhookDeliveriesDocument,
  WebhookEndpointsDocument,
  AuditLogDocument,
  DeleteResponseDocument,
  DeleteResponsesDocument,
  EraseLeadDocument,
  RetentionStatusDocument,
  CreateShareLinkDocument,
  FormShareLinksDocument,
  RevokeShareLinkDocument,
  RotateSigningKeysDocument,
  SetFormRetentionDocument,
  UpdateEnvironmentSettingsDocument,
  TrustDocumentDocument,
  TrustedDocumentsDocument,
  type EnvironmentSettingsInput,
  type FormStatus,
  type Scope,
} from './graphql/generated/graphql.ts';

const USAGE = `Usage: formloom <command> [options]

Commands:
  env create --name NAME [--id SITE_ID]        create an environment
  key create --env ENV_ID [--name NAME] [--scopes SCOPES] [--form FORM_ID]... [--expires 30d|ISO]
                                               create an API key (the key is shown only once);
                                               comma-separated scopes (forms:read, forms:write,
                                               responses:read, responses:delete, webhooks:manage,
                                               settings:manage, audit:read, keys:manage; left out:
                                               every scope); expiry as a duration (s, m, h, d) or an
                                               ISO 8601 instant (left out: never); each --form
                                               limits the key to that form (at most 100)
  key list --env ENV_ID                        the environment's keys: scopes, expiry, last use
  key revoke KEY_ID                            revoke an API key
  mcp                                          the server's MCP tools over stdio for desktop clients,
                                               as the API key in FORMLOOM_API_KEY (docs/mcp.md)
  form import --env ENV_ID --file PATH         store a form ({name, theme, steps}) in an environment
  form delete FORM_ID                          soft-delete a form
  form close FORM_ID                           close a published form to new responses
  form reopen FORM_ID                          publish a closed form again
  env settings --env ENV_ID [--ip-storage full|truncated|none] [--retention-days DAYS|none]
               [--turnstile-site-key KEY|none] [--turnstile-secret-key -|none]
               [--recaptcha-site-key KEY|none] [--recaptcha-secret-key -|none]
               [--embed-origins ORIGINS|*|none|default]
               [--smtp-url URL|none] [--smtp-password -|none] [--mail-from FROM|none]
                                               show or change an environment's settings: privacy, and
                                               its own captcha keys (none removes one; a secret key is
                                               read from stdin with -, never shown afterwards); who may
                                               embed its forms (comma-separated origins, * for any site,
                                               none for no other site, default for FRAME_ANCESTORS);
                                               its own SMTP server for e-mail notifications (the URL
                                               without password; the password read from stdin with -)
  responses delete RESPONSE_ID                 delete one response for good
  responses delete --env ENV_ID [--form FORM_ID] [--since ISO] [--until ISO] [--date-field createdAt|updatedAt]
                   [--partials-only]           delete every response matching the filter (batched)
  lead erase --env ENV_ID --email ADDRESS      erase a person: the lead, its responses in every form,
  lead erase LEAD_ID                           their files and webhook events (idempotent)
  form retention FORM_ID --days DAYS|none      a form's own retention (none: the environment's)
  retention status                             the retention job's last run
  secrets rotate                               new random signing keys (cookies, visitor and embed
                                               tokens, file URLs) on every node; what the old keys
                                               signed stays valid for SIGNING_KEY_GRACE_HOURS
  audit list --env ENV_ID [--limit N] [--after CURSOR]
                                               the environment's audit log, newest first
  responses export [--form FORM_ID | --env ENV_ID] [--format csv|ndjson] [--partials] [--out FILE]
                                               write responses as CSV (default) or NDJSON to stdout,
                                               or to FILE (written whole, then renamed into place)
  webhook create --env ENV_ID --target URL --events TYPES [--forms FORM_IDS] [--description TEXT]
                                               add a webhook endpoint (comma-separated event types:
                                               response.created, response.updated, response.finished,
                                               form.generated, form.updated); the signing secret is
                                               shown only once
  webhook list --env ENV_ID                    list an environment's webhook endpoints
  webhook delete ENDPOINT_ID                   delete an endpoint and its deliveries
  webhook test ENDPOINT_ID                     send a webhook.test event to the endpoint
  webhook enable|disable ENDPOINT_ID           enable (also after auto-disable) or disable an endpoint
  webhook deliveries ENDPOINT_ID [--status S] [--limit N]
                                               recent deliveries with their attempts
  webhook resend DELIVERY_ID                   send a delivery again (same webhook-id)
  share-link create --form FORM_ID [--expires 30d|ISO] [--text-answers]
                                               a link to the form's read-only results page (its URL is
                                               shown only once); --text-answers lists free-text answers
  share-link list --form FORM_ID               the form's share links (never their URLs)
  share-link revoke LINK_ID --form FORM_ID     revoke a share link at once, on every node
  graphql trust FILE                           trust the GraphQL document in FILE on every node: clients
                                               may send its hash instead (also with GRAPHQL_PERSISTED_ONLY)
  graphql trusted                              list the trusted documents and their hashes
  backup --out FILE                            write a consistent backup of the running server's embedded
                                               database (gzip-compressed tar); PostgreSQL: use pg_dump
  restore --in FILE [--data-dir DIR] [--force] restore a backup into a stopped server's data dir
                                               (default DATA_DIR); --force replaces an existing database

Options:
  --json                 print one JSON object
  --url URL              server base URL (default FORMLOOM_URL, else http://HOST:PORT with the server's
                         defaults 127.0.0.1 and 4000)
  --admin-token TOKEN    admin token (default ADMIN_TOKEN, else the file DATA_DIR/admin-token the server
                         writes; DATA_DIR defaults to ./.data, as for the server)
  -h, --help             show this help`;

class CliError extends Error {
  constructor(
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

interface GraphQLResponse<T> {
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string; errors?: unknown } }[];
}

/** The server the command talks to and the admin token it sends, each with where it came from (for errors). */
interface ServerTarget {
  url: string;
  /** How the URL was chosen: `--url`, `FORMLOOM_URL`, or the HOST and PORT it was made of. */
  urlFrom: string;
  adminToken: { value: string; from: string; given: boolean } | undefined;
  /** Where the token was looked for, in order, with what was found there. */
  tokenSearch: string[];
}

/** The server's URL: `--url`, else FORMLOOM_URL, else made of HOST and PORT (a wildcard address means this machine). */
function serverUrl(option: string | undefined, config: Config): { url: string; urlFrom: string } {
  if (option) return { url: option, urlFrom: '--url' };
  if (config.formloomUrl) return { url: config.formloomUrl, urlFrom: 'FORMLOOM_URL' };
  const host = config.host === '0.0.0.0' ? '127.0.0.1' : config.host === '::' ? '::1' : config.host;
  return { url: `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`, urlFrom: `HOST=${config.host}, PORT=${config.port}` };
}

/**
 * The local server, found as the server reads its own settings: HOST and PORT (a wildcard address means
 * this machine), and the admin token from --admin-token, ADMIN_TOKEN or DATA_DIR/admin-token. A relative
 * DATA_DIR is looked up from here and, failing that, from the formloom folder, where `npm start` runs.
 */
function findServer(options: { url?: string | undefined; adminToken?: string | undefined }, config: Config): ServerTarget {
  const { url, urlFrom } = serverUrl(options.url, config);
  const tokenSearch: string[] = [];
  if (options.adminToken) return { url, urlFrom, adminToken: { value: options.adminToken, from: '--admin-token', given: true }, tokenSearch };
  tokenSearch.push('--admin-token: not given');
  if (config.adminToken) return { url, urlFrom, adminToken: { value: config.adminToken, from: 'ADMIN_TOKEN', given: false }, tokenSearch };
  tokenSearch.push('ADMIN_TOKEN: not set');
  const dataDirs = [resolve(config.dataDir)];
  if (!isAbsolute(config.dataDir) && resolve(ROOT, config.dataDir) !== dataDirs[0]) dataDirs.push(resolve(ROOT, config.dataDir));
  for (const dataDir of dataDirs) {
    const file = adminTokenFile(dataDir);
    const token = readAdminTokenFile(dataDir);
    if (token) return { url, urlFrom, adminToken: { value: token, from: file, given: false }, tokenSearch };
    tokenSearch.push(`${file}: no such file (DATA_DIR=${config.dataDir}${dataDir === dataDirs[0] ? '' : ', from the formloom folder'})`);
  }
  return { url, urlFrom, adminToken: undefined, tokenSearch };
}

/**
 * A request to the server with the admin token. Throws a CliError that says where the command looked
 * when it has no token or cannot reach the server.
 */
async function send(target: ServerTarget, path: string | URL, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Response> {
  if (!target.adminToken) {
    throw new CliError(
      [
        'No admin token found. Looked in:',
        ...target.tokenSearch.map((place) => `  ${place}`),
        'The server writes its admin token to DATA_DIR/admin-token on first start (unless ADMIN_TOKEN is set);',
        'on PostgreSQL only the node that generated it has that file.',
        'Run this command with the DATA_DIR the server has (or from the folder it runs in), or set ADMIN_TOKEN to its token, or pass --admin-token.',
      ].join('\n'),
    );
  }
  try {
    return await fetch(new URL(path, target.url), { ...init, headers: { ...init.headers, authorization: `Bearer ${target.adminToken.value}` } });
  } catch (error) {
    // fetch's TypeError carries the socket's error (ECONNREFUSED …) as its cause.
    const cause = error instanceof Error ? (error.cause instanceof Error ? String(error.cause) : error.message) : String(error);
    throw new CliError(
      `Cannot reach the formloom server at ${target.url} (${target.urlFrom}): ${cause}\n` +
        (target.urlFrom === '--url' || target.urlFrom === 'FORMLOOM_URL'
          ? 'Check the URL, and that the server is running.'
          : 'Is it running? Start it with `npm start`, or set FORMLOOM_URL to its address (or HOST and PORT as the server has them), or pass --url.'),
    );
  }
}

/** An authentication failure, with where the token came from unless the caller typed it in. */
function authenticationFailure(target: ServerTarget, message: string): string {
  const token = target.adminToken;
  if (!token || token.given) return message;
  return `${message} (the admin token was read from ${token.from}): the server at ${target.url} has another one. Set ADMIN_TOKEN or DATA_DIR as the server has them, or pass --admin-token.`;
}

/** A server of another version may not know the document by its hash: then it is sent as text. */
const UNKNOWN_HASH = new Set(['PERSISTED_QUERY_NOT_FOUND', 'PERSISTED_QUERY_NOT_IN_LIST']);

/**
 * Runs one of schema/operations/' operations. It is sent by hash (every server trusts these, also with
 * GRAPHQL_PERSISTED_ONLY), and as text with its hash when the server does not know the hash.
 */
async function call<TData, TVariables>(target: ServerTarget, document: TypedDocumentNode<TData, TVariables>, variables: TVariables): Promise<TData> {
  const query = print(document);
  const extensions = { persistedQuery: { version: 1, sha256Hash: documentHash(query) } };
  const post = async (body: object) => {
    const response = await send(target, '/graphql', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) });
    return { response, payload: (await response.json().catch(() => null)) as GraphQLResponse<TData> | null };
  };
  let { response, payload } = await post({ variables, extensions });
  if (UNKNOWN_HASH.has(payload?.errors?.[0]?.extensions?.code ?? '')) ({ response, payload } = await post({ query, variables, extensions }));
  const first = payload?.errors?.[0];
  if (first) {
    const code = first.extensions?.code;
    const message = code === 'UNAUTHENTICATED' ? authenticationFailure(target, first.message) : first.message;
    throw new CliError(message, { code, errors: first.extensions?.errors });
  }
  if (!payload?.data) throw new CliError(`Unexpected answer from the server (HTTP ${response.status})`);
  return payload.data;
}

/** The error of a REST answer that is not a success. */
async function restFailure(target: ServerTarget, response: Response): Promise<CliError> {
  const payload = (await response.json().catch(() => null)) as { message?: string; errors?: unknown } | null;
  const message = payload?.message ?? `Unexpected answer from the server (HTTP ${response.status})`;
  return new CliError(response.status === 401 ? authenticationFailure(target, message) : message, {
    status: response.status,
    ...(payload?.errors ? { errors: payload.errors } : {}),
  });
}

/** `what` is an option (`--name`) or a positional argument (`KEY_ID`). */
function required(value: string | undefined, what: string): string {
  if (!value) throw new CliError(`Missing ${what}\n\n${USAGE}`);
  return value;
}

/**
 * Downloads the server's backup to `out`. The file appears only once complete and checked (the gzip
 * stream read to its end, CRC included): a cut connection leaves no half file behind.
 */
async function downloadBackup(target: ServerTarget, out: string): Promise<{ file: string; bytes: number }> {
  const response = await send(target, '/api/v1/admin/backup');
  if (!response.ok || !response.body) throw await restFailure(target, response);
  const partial = `${out}.partial-${randomBytes(4).toString('hex')}`;
  try {
    await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), createWriteStream(partial, { mode: 0o600 }));
    await pipeline(createReadStream(partial), createGunzip(), new Writable({ write: (_chunk, _encoding, done) => done() }));
    renameSync(partial, out);
  } catch (error) {
    rmSync(partial, { force: true });
    throw new CliError(`Backup failed, nothing written to ${out}: ${(error as Error).message}`);
  }
  return { file: out, bytes: statSync(out).size };
}

const OPTIONS = {
  json: { type: 'boolean', default: false },
  url: { type: 'string' },
  'admin-token': { type: 'string' },
  name: { type: 'string' },
  id: { type: 'string' },
  env: { type: 'string' },
  file: { type: 'string' },
  out: { type: 'string' },
  in: { type: 'string' },
  'data-dir': { type: 'string' },
  force: { type: 'boolean', default: false },
  // Repeatable for `key create` (the forms a key is limited to); one for the other commands.
  form: { type: 'string', multiple: true },
  format: { type: 'string' },
  partials: { type: 'boolean', default: false },
  target: { type: 'string' },
  events: { type: 'string' },
  forms: { type: 'string' },
  description: { type: 'string' },
  status: { type: 'string' },
  limit: { type: 'string' },
  after: { type: 'string' },
  email: { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  'date-field': { type: 'string' },
  'partials-only': { type: 'boolean', default: false },
  'ip-storage': { type: 'string' },
  'retention-days': { type: 'string' },
  'turnstile-site-key': { type: 'string' },
  'turnstile-secret-key': { type: 'string' },
  'recaptcha-site-key': { type: 'string' },
  'recaptcha-secret-key': { type: 'string' },
  'embed-origins': { type: 'string' },
  'smtp-url': { type: 'string' },
  'smtp-password': { type: 'string' },
  'mail-from': { type: 'string' },
  days: { type: 'string' },
  scopes: { type: 'string' },
  expires: { type: 'string' },
  'text-answers': { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h' },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

type CliValues = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

/** What a command runs with: the server, the parsed options and the positional arguments after its name. */
interface CommandContext {
  target: ServerTarget;
  config: Config;
  values: CliValues;
  /** The command's second word (`enable` in `webhook enable`). */
  action: string | undefined;
  /** The positional argument after the command (an id). */
  argument: string | undefined;
  stdout: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
}

interface CliResult {
  output: Record<string, unknown>;
  text: string;
  streamed?: boolean;
}

type Command = (context: CommandContext) => Promise<CliResult>;

export async function runCli(argv: string[], stdout: NodeJS.WritableStream = process.stdout, stdin: NodeJS.ReadableStream = process.stdin): Promise<CliResult> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  const [group, action, argument] = positionals;
  if (values.help || !group) return { output: {}, text: USAGE };

  const config = loadConfig();
  const target = findServer({ url: values.url, adminToken: values['admin-token'] }, config);
  const command = COMMANDS[`${group} ${action ?? ''}`.trim()];
  if (!command) throw new CliError(`Unknown command "${positionals.join(' ')}"\n\n${USAGE}`);
  return command({ target, config, values, action, argument, stdout, stdin });
}

// ---------------------------------------------------------------- environments, keys, forms

const envCreate: Command = async ({ target, values }) => {
  const { createEnvironment } = await call(target, CreateEnvironmentDocument, {
    input: { name: required(values.name, '--name'), id: values.id },
  });
  return { output: createEnvironment, text: `Created environment "${createEnvironment.name}" (Site ID ${createEnvironment.id})` };
};

const keyCreate: Command = async ({ target, values }) => {
  const { createApiKey } = await call(target, CreateApiKeyDocument, {
    input: {
      environmentId: required(values.env, '--env'),
      name: values.name,
      scopes: scopesOption(values.scopes),
      expiresAt: expiresOption(values.expires),
      formIds: values.form,
    },
  });
  const key = cliApiKey(createApiKey.apiKey);
  const output = { id: key.id, environmentId: key.environmentId, scopes: key.scopes, formIds: key.formIds ?? null, expiresAt: key.expiresAt, key: createApiKey.key };
  const forms = key.formIds ? `, forms ${key.formIds.join(', ')}` : '';
  const grant = `${key.fullAccess ? 'every scope' : key.scopes.join(', ')}${forms}${key.expiresAt ? `, expires ${key.expiresAt}` : ''}`;
  return { output, text: `Created API key ${output.id} for environment ${output.environmentId} (${grant})\nKey (shown only now): ${output.key}` };
};

const keyList: Command = async ({ target, values }) => {
  const { environment } = await call(target, EnvironmentApiKeysDocument, { id: required(values.env, '--env') });
  const keys = environment.apiKeys.map(cliApiKey);
  const lines = keys.map(
    (k) =>
      `${k.id}  ${k.name}  ${k.fullAccess ? 'every scope' : k.scopes.join(',')}  forms ${k.formIds?.join(',') ?? 'all'}  expires ${k.expiresAt ?? 'never'}  last used ${k.lastUsedAt ?? 'never'}${k.revoked ? '  revoked' : ''}`,
  );
  return { output: { data: keys }, text: lines.join('\n') || 'No API keys' };
};

/** `formloom mcp`: the server's MCP tools over stdio, as FORMLOOM_API_KEY (src/mcp/stdio.ts); runs until stdin ends. */
const mcpStdio: Command = async ({ target, config }) => {
  if (!config.formloomApiKey) throw new CliError('formloom mcp needs FORMLOOM_API_KEY: the API key the MCP client acts with (docs/mcp.md)');
  await relayStdio(new URL('/mcp', target.url), config.formloomApiKey);
  return { output: {}, text: '', streamed: true };
};

const keyRevoke: Command = async ({ target, argument }) => {
  const { revokeApiKey } = await call(target, RevokeApiKeyDocument, { id: required(argument, 'KEY_ID') });
  return { output: { id: revokeApiKey.id, revoked: revokeApiKey.revoked }, text: `Revoked API key ${revokeApiKey.id}` };
};

const formImport: Command = async ({ target, values }) => {
  const path = required(values.file, '--file');
  let file: Record<string, unknown>;
  try {
    file = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    throw new CliError(`Cannot read ${path} as JSON: ${(error as Error).message}`);
  }
  // `status` in the file: "published" (the default) or "draft", in the case the CLI prints it.
  const status = typeof file.status === 'string' ? (file.status.toUpperCase() as FormStatus) : undefined;
  const { importForm } = await call(target, ImportFormDocument, {
    input: {
      environmentId: required(values.env, '--env'),
      name: file.name as string,
      theme: file.theme,
      steps: file.steps as never,
      status,
      locale: file.locale as string | undefined,
      languages: file.languages as never,
    },
  });
  const output = { id: importForm.id, url: importForm.url, status: importForm.status.toLowerCase() };
  return { output, text: `Imported form ${output.id} (${output.status}) at ${output.url}` };
};

const formDelete: Command = async ({ target, argument }) => {
  const { deleteForm } = await call(target, DeleteFormDocument, { id: required(argument, 'FORM_ID') });
  return { output: deleteForm, text: `Deleted form ${deleteForm.id}` };
};

const formClose: Command = async ({ target, argument }) => {
  const { closeForm } = await call(target, CloseFormDocument, { id: required(argument, 'FORM_ID') });
  const output = { id: closeForm.id, status: closeForm.status.toLowerCase() };
  return { output, text: `Closed form ${output.id}` };
};

const formReopen: Command = async ({ target, argument }) => {
  const { reopenForm } = await call(target, ReopenFormDocument, { id: required(argument, 'FORM_ID') });
  const output = { id: reopenForm.id, status: reopenForm.status.toLowerCase() };
  return { output, text: `Reopened form ${output.id}` };
};

/** The settings `env settings` changes, from its options; the secret keys read from stdin. */
async function environmentSettingsInput(values: CliValues, stdin: NodeJS.ReadableStream): Promise<EnvironmentSettingsInput> {
  const input: EnvironmentSettingsInput = {};
  if (values['ip-storage'] !== undefined) {
    const mode = values['ip-storage'].toUpperCase();
    if (mode !== 'FULL' && mode !== 'TRUNCATED' && mode !== 'NONE') throw new CliError('--ip-storage must be full, truncated or none');
    input.ipStorage = mode;
  }
  if (values['retention-days'] !== undefined) input.retentionDays = daysOption(values['retention-days'], '--retention-days');
  for (const provider of ['turnstile', 'recaptcha'] as const) {
    const siteKey = values[`${provider}-site-key`];
    const secretKey = values[`${provider}-secret-key`];
    if (siteKey === undefined && secretKey === undefined) continue;
    input[provider] = {
      ...(siteKey !== undefined ? { siteKey: siteKey === 'none' ? null : siteKey } : {}),
      ...(secretKey !== undefined ? { secretKey: await secretOption(secretKey, `--${provider}-secret-key`, stdin) } : {}),
    };
  }
  const embedOrigins = values['embed-origins'];
  if (embedOrigins !== undefined) {
    const list = embedOrigins.trim();
    input.embedOrigins =
      list === 'default'
        ? null
        : list === 'none'
          ? []
          : list
              .split(',')
              .map((origin) => origin.trim())
              .filter(Boolean);
  }
  const [smtpUrl, smtpPassword, mailFrom] = [values['smtp-url'], values['smtp-password'], values['mail-from']];
  if (smtpUrl !== undefined || smtpPassword !== undefined || mailFrom !== undefined) {
    input.smtp = {
      ...(smtpUrl !== undefined ? { url: smtpUrl === 'none' ? null : smtpUrl } : {}),
      ...(smtpPassword !== undefined ? { password: await secretOption(smtpPassword, '--smtp-password', stdin) } : {}),
      ...(mailFrom !== undefined ? { from: mailFrom === 'none' ? null : mailFrom } : {}),
    };
  }
  return input;
}

const envSettings: Command = async ({ target, values, stdin }) => {
  const input = await environmentSettingsInput(values, stdin);
  const { updateEnvironmentSettings: env } = await call(target, UpdateEnvironmentSettingsDocument, {
    environmentId: required(values.env, '--env'),
    input,
  });
  const output = { ...env, ipStorage: env.ipStorage.toLowerCase(), retentionDays: env.retentionDays ?? null, embedOrigins: env.embedOrigins ?? null };
  const embedding =
    output.embedOrigins === null
      ? "embedding per the server's FRAME_ANCESTORS"
      : output.embedOrigins.length === 0
        ? 'embedding by no other site'
        : `embedding by ${output.embedOrigins.join(', ')}`;
  const keys = (name: string, keys: typeof env.turnstile) =>
    `${name} ${keys.siteKey ?? "the server's site key"}, ${keys.secretKeySet ? 'own secret key set' : "the server's secret key"}`;
  return {
    output,
    text: `Environment ${output.id}: IP storage ${output.ipStorage}, retention ${output.retentionDays === null ? 'none (responses kept)' : `${output.retentionDays} days`}; ${keys('Turnstile', env.turnstile)}; ${keys('reCAPTCHA', env.recaptcha)}; ${embedding}; ${env.smtp.url === null ? "e-mail through the server's SMTP_URL" : `e-mail through ${env.smtp.url}${env.smtp.passwordSet ? ' (password set)' : ''}`}`,
  };
};

// ---------------------------------------------------------------- responses and personal data

const responsesDelete: Command = async ({ target, values, argument }) => {
  if (argument !== undefined) {
    const { deleteResponse } = await call(target, DeleteResponseDocument, { id: argument });
    return { output: deleteResponse, text: `Deleted response ${deleteResponse.id}` };
  }
  const dateField = values['date-field'];
  if (dateField !== undefined && dateField !== 'createdAt' && dateField !== 'updatedAt') throw new CliError('--date-field must be createdAt or updatedAt');
  const { deleteResponses } = await call(target, DeleteResponsesDocument, {
    environmentId: required(values.env, '--env (or a RESPONSE_ID)'),
    filter: {
      formId: oneForm(values.form),
      since: values.since,
      until: values.until,
      dateField: dateField === 'updatedAt' ? 'UPDATED_AT' : 'CREATED_AT',
      partialOnly: values['partials-only'],
    },
  });
  return { output: deleteResponses, text: `Deleted ${deleteResponses.deletedCount} responses` };
};

const leadErase: Command = async ({ target, values, argument }) => {
  const variables =
    argument !== undefined
      ? { id: argument, environmentId: values.env ?? null }
      : { email: required(values.email, '--email (or a LEAD_ID)'), environmentId: required(values.env, '--env') };
  const { eraseLead } = await call(target, EraseLeadDocument, variables);
  const { erasure } = eraseLead;
  const text = !eraseLead.erased
    ? 'No such person in this environment: nothing to erase'
    : `${eraseLead.alreadyErased ? 'Already erased' : 'Erased'} lead ${erasure!.leadId}: ${erasure!.responsesDeleted} responses, ${erasure!.webhookEventsDeleted} webhook events (erasure ${erasure!.id}, ${erasure!.erasedAt})`;
  return { output: eraseLead, text };
};

const formRetention: Command = async ({ target, values, argument }) => {
  const { setFormRetention } = await call(target, SetFormRetentionDocument, {
    formId: required(argument, 'FORM_ID'),
    retentionDays: daysOption(required(values.days, '--days'), '--days'),
  });
  return {
    output: setFormRetention,
    text: `Form ${setFormRetention.id}: retention ${setFormRetention.retentionDays === null || setFormRetention.retentionDays === undefined ? "the environment's" : `${setFormRetention.retentionDays} days`}`,
  };
};

const secretsRotate: Command = async ({ target }) => {
  const { rotateSigningKeys: rotation } = await call(target, RotateSigningKeysDocument, {});
  return { output: rotation, text: `Signing keys rotated at ${rotation.rotatedAt}; the previous keys are accepted until ${rotation.previousKeysAcceptedUntil}` };
};

const retentionStatus: Command = async ({ target }) => {
  const { retentionStatus: run } = await call(target, RetentionStatusDocument, {});
  const text = !run
    ? 'The retention job has not run yet'
    : `Last run ${run.startedAt} on ${run.node}: ${run.status}${run.finishedAt ? `, finished ${run.finishedAt}` : ''}, ${run.responsesDeleted} responses deleted, ${run.formsPurged} deleted forms purged${run.error ? ` (${run.error})` : ''}`;
  return { output: { run: run ?? null }, text };
};

const auditList: Command = async ({ target, values }) => {
  const limit = limitOption(values.limit);
  const { auditLog } = await call(target, AuditLogDocument, { environmentId: required(values.env, '--env'), first: limit, after: values.after ?? null });
  const entries = auditLog.edges.map((edge) => edge.node);
  const nextCursor = auditLog.pageInfo.hasNextPage ? (auditLog.pageInfo.endCursor ?? null) : null;
  const lines = entries.map(
    (e) => `${e.at}  ${e.action.padEnd(20)} ${e.actorKind === 'apiKey' ? `key ${e.actorKeyId}` : e.actorKind}  ${e.targetIds.join(',')}  ${JSON.stringify(e.details)}`,
  );
  if (nextCursor) lines.push(`(more: --after ${nextCursor})`);
  return { output: { entries, nextCursor }, text: entries.length === 0 ? 'No audit entries' : lines.join('\n') };
};

const responsesExport: Command = async ({ target, values, stdout }) => {
  const output = await exportResponses(target, { form: oneForm(values.form), env: values.env, format: values.format, partials: values.partials, out: values.out }, stdout);
  if (output.file === undefined) return { output, text: '', streamed: true };
  return { output, text: `Exported ${output.bytes} bytes to ${output.file}` };
};

// ---------------------------------------------------------------- share links

const shareLinkCreate: Command = async ({ target, values }) => {
  const formId = required(oneForm(values.form), '--form');
  const { createShareLink } = await call(target, CreateShareLinkDocument, {
    formId,
    input: { expiresAt: expiresOption(values.expires), includeTextAnswers: values['text-answers'] },
  });
  const url = new URL(createShareLink.url, target.url).toString();
  const output = { ...createShareLink.shareLink, url };
  return { output, text: `Created share link ${output.id} for form ${formId}${output.expiresAt ? ` (expires ${output.expiresAt})` : ''}\nResults page (shown only now): ${url}` };
};

const shareLinkList: Command = async ({ target, values }) => {
  const { shareLinks } = await call(target, FormShareLinksDocument, { formId: required(oneForm(values.form), '--form') });
  const text =
    shareLinks.length === 0
      ? 'No share links'
      : shareLinks.map((l) => `${l.id}  created ${l.createdAt}  expires ${l.expiresAt ?? 'never'}${l.includeTextAnswers ? '  with text answers' : ''}`).join('\n');
  return { output: { shareLinks }, text };
};

const shareLinkRevoke: Command = async ({ target, values, argument }) => {
  const { revokeShareLink } = await call(target, RevokeShareLinkDocument, { formId: required(oneForm(values.form), '--form'), id: required(argument, 'LINK_ID') });
  return { output: revokeShareLink, text: `Revoked share link ${revokeShareLink.id}` };
};

// ---------------------------------------------------------------- webhooks

const webhookCreate: Command = async ({ target, values }) => {
  const { createWebhookEndpoint } = await call(target, CreateWebhookEndpointDocument, {
    input: {
      environmentId: required(values.env, '--env'),
      url: required(values.target, '--target'),
      eventTypes: list(required(values.events, '--events')),
      formIds: values.forms ? list(values.forms) : null,
      description: values.description,
    },
  });
  const { endpoint, secret } = createWebhookEndpoint;
  const output = { ...endpoint, secret };
  return { output, text: `Created webhook endpoint ${endpoint.id} → ${endpoint.url} (${endpoint.eventTypes.join(', ')})\nSigning secret (shown only now): ${secret}` };
};

const webhookList: Command = async ({ target, values }) => {
  const { webhookEndpoints } = await call(target, WebhookEndpointsDocument, { environmentId: required(values.env, '--env') });
  const text =
    webhookEndpoints.length === 0
      ? 'No webhook endpoints'
      : webhookEndpoints.map((e) => `${e.id}  ${e.enabled ? 'enabled ' : `disabled (${e.disabledReason})`}  ${e.url}  ${e.eventTypes.join(',')}`).join('\n');
  return { output: { endpoints: webhookEndpoints }, text };
};

const webhookDelete: Command = async ({ target, argument }) => {
  const { deleteWebhookEndpoint } = await call(target, DeleteWebhookEndpointDocument, { id: required(argument, 'ENDPOINT_ID') });
  return { output: deleteWebhookEndpoint, text: `Deleted webhook endpoint ${deleteWebhookEndpoint.id}` };
};

const webhookEnable: Command = async ({ target, action, argument }) => {
  const { updateWebhookEndpoint } = await call(target, UpdateWebhookEndpointDocument, {
    id: required(argument, 'ENDPOINT_ID'),
    input: { enabled: action === 'enable' },
  });
  return { output: updateWebhookEndpoint, text: `Webhook endpoint ${updateWebhookEndpoint.id} is ${updateWebhookEndpoint.enabled ? 'enabled' : 'disabled'}` };
};

const webhookTest: Command = async ({ target, argument }) => {
  const { testWebhookEndpoint } = await call(target, TestWebhookEndpointDocument, { id: required(argument, 'ENDPOINT_ID') });
  const output = { ...testWebhookEndpoint, status: testWebhookEndpoint.status.toLowerCase() };
  return { output, text: `Queued test delivery ${output.id} (see: formloom webhook deliveries ${output.endpointId})` };
};

const webhookDeliveries: Command = async ({ target, values, argument }) => {
  const status = values.status?.toUpperCase();
  if (status !== undefined && !['PENDING', 'DELIVERING', 'SUCCEEDED', 'FAILED'].includes(status)) {
    throw new CliError('--status must be pending, delivering, succeeded or failed');
  }
  const limit = limitOption(values.limit);
  const { webhookEndpoint } = await call(target, WebhookDeliveriesDocument, {
    id: required(argument, 'ENDPOINT_ID'),
    first: limit,
    status: (status ?? null) as never,
  });
  const deliveries = webhookEndpoint.deliveries.map((d) => ({ ...d, status: d.status.toLowerCase() }));
  const text =
    deliveries.length === 0
      ? 'No deliveries'
      : deliveries
          .map((d) => {
            const attempts = d.attempts.map((a) => `    #${a.attempt} ${a.startedAt} ${a.statusCode ?? '-'} ${a.durationMs} ms${a.error ? ` ${a.error}` : ''}`);
            return [`${d.id}  ${d.eventType}  ${d.status}  attempts ${d.attemptCount}`, ...attempts].join('\n');
          })
          .join('\n');
  return { output: { deliveries }, text };
};

const webhookResend: Command = async ({ target, argument }) => {
  const { resendWebhookDelivery } = await call(target, ResendWebhookDeliveryDocument, { id: required(argument, 'DELIVERY_ID') });
  const output = { ...resendWebhookDelivery, status: resendWebhookDelivery.status.toLowerCase() };
  return { output, text: `Queued delivery ${output.id} again` };
};

// ---------------------------------------------------------------- GraphQL documents

const graphqlTrust: Command = async ({ target, argument }) => {
  const path = required(argument, 'FILE');
  let document: string;
  try {
    document = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliError(`Cannot read ${path}: ${(error as Error).message}`);
  }
  const { trustGraphQLDocument: trusted } = await call(target, TrustDocumentDocument, { document });
  const names = trusted.operationNames.length > 0 ? trusted.operationNames.join(', ') : 'an anonymous operation';
  return { output: trusted, text: `Trusted ${names}${trusted.builtIn ? ' (built in already)' : ''}: sha256Hash ${trusted.hash}` };
};

const graphqlTrusted: Command = async ({ target }) => {
  const { trustedGraphQLDocuments: documents } = await call(target, TrustedDocumentsDocument, {});
  const lines = documents.map((d) => `${d.hash}  ${d.builtIn ? 'built in' : (d.createdAt ?? '')}  ${d.operationNames.join(', ')}`);
  return { output: { documents }, text: lines.join('\n') };
};

// ---------------------------------------------------------------- backups

const backup: Command = async ({ target, values }) => {
  const output = await downloadBackup(target, required(values.out, '--out'));
  return { output, text: `Backup written to ${output.file} (${output.bytes} bytes)` };
};

const restore: Command = async ({ config, values }) => {
  const file = required(values.in, '--in');
  try {
    const restored = await restoreDataDir({ file, dataDir: values['data-dir'] ?? config.dataDir, force: values.force });
    const output = { dataDir: restored.dataDir, file, migrations: restored.migrations };
    const text = [
      `Restored ${file} into ${restored.dataDir}; start the server with DATA_DIR=${restored.dataDir}`,
      'The admin token is not in backups: set ADMIN_TOKEN (the old one keeps visitor cookies and tokens valid), or a new one is generated into the data dir.',
    ].join('\n');
    return { output, text };
  } catch (error) {
    if (error instanceof RestoreError) throw new CliError(error.message);
    throw error;
  }
};

/** Every command, by its words (`webhook enable`); `backup` and `restore` are one word. */
const COMMANDS: Record<string, Command | undefined> = {
  'env create': envCreate,
  'env settings': envSettings,
  'key create': keyCreate,
  mcp: mcpStdio,
  'key list': keyList,
  'key revoke': keyRevoke,
  'form import': formImport,
  'form delete': formDelete,
  'form close': formClose,
  'form reopen': formReopen,
  'form retention': formRetention,
  'responses delete': responsesDelete,
  'responses export': responsesExport,
  'lead erase': leadErase,
  'retention status': retentionStatus,
  'secrets rotate': secretsRotate,
  'audit list': auditList,
  'webhook create': webhookCreate,
  'webhook list': webhookList,
  'webhook delete': webhookDelete,
  'webhook enable': webhookEnable,
  'webhook disable': webhookEnable,
  'webhook test': webhookTest,
  'webhook deliveries': webhookDeliveries,
  'webhook resend': webhookResend,
  'share-link create': shareLinkCreate,
  'share-link list': shareLinkList,
  'share-link revoke': shareLinkRevoke,
  'graphql trust': graphqlTrust,
  'graphql trusted': graphqlTrusted,
  backup,
  restore,
};

/** `--limit`: a whole number, 20 when not given. */
function limitOption(value: string | undefined): number {
  const limit = value === undefined ? 20 : Number(value);
  if (!Number.isInteger(limit)) throw new CliError('--limit must be a whole number');
  return limit;
}
/**
 * Streams `GET /api/v1/responses/export` to `out` (a file, written under a temporary name and renamed
 * once complete) or to `stdout`.
 */
async function exportResponses(
  target: ServerTarget,
  options: { form?: string | undefined; env?: string | undefined; format?: string | undefined; partials: boolean; out?: string | undefined },
  stdout: NodeJS.WritableStream,
): Promise<{ bytes: number; file?: string }> {
  if (!options.form && !options.env) throw new CliError(`Give --form FORM_ID or --env ENV_ID\n\n${USAGE}`);
  const url = new URL('/api/v1/responses/export', target.url);
  if (options.form) url.searchParams.set('formId', options.form);
  if (options.env) url.searchParams.set('environmentId', options.env);
  url.searchParams.set('format', options.format ?? 'csv');
  if (options.partials) url.searchParams.set('returnPartials', 'true');
  const response = await send(target, url);
  if (!response.ok || !response.body) throw await restFailure(target, response);
  let bytes = 0;
  const body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream).on('data', (chunk: Buffer) => {
    bytes += chunk.length;
  });
  if (!options.out) {
    await pipeline(body, stdout, { end: false });
    return { bytes };
  }
  const partial = `${options.out}.partial-${randomBytes(4).toString('hex')}`;
  try {
    await pipeline(body, createWriteStream(partial, { mode: 0o600 }));
    renameSync(partial, options.out);
  } catch (error) {
    rmSync(partial, { force: true });
    throw new CliError(`Export failed, nothing written to ${options.out}: ${(error as Error).message}`);
  }
  return { bytes, file: options.out };
}

/**
 * A secret key option: `-` reads it from stdin (so it stays out of the process list and the shell's
 * history), `none` removes it. Given on the command line itself, it is refused.
 */
async function secretOption(value: string, what: string, stdin: NodeJS.ReadableStream): Promise<string | null> {
  if (value === 'none') return null;
  if (value !== '-') throw new CliError(`${what} takes - (the key read from stdin) or none, so the key stays out of the process list and shell history`);
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  const secret = Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
  if (secret === '') throw new CliError(`${what} -: nothing was read from stdin`);
  return secret;
}

/** A number of days, or `none` (null). */
function daysOption(value: string, what: string): number | null {
  if (value === 'none') return null;
  if (!/^\d+$/.test(value)) throw new CliError(`${what} must be a whole number of days or none`);
  return Number(value);
}

/** A comma-separated option as a list. */
/** A key as the CLI prints it: scopes as their strings (`responses:read`), as REST writes them. */
const cliApiKey = <T extends { scopes: readonly Scope[] }>(key: T) => ({ ...key, scopes: key.scopes.map((name) => scopeOfEnumName(name)!) });

/** `--scopes forms:read,responses:read`: the scopes as GraphQL's enum names (an unknown one is the server's to refuse, by name). */
/** The one `--form` of a command that takes one (only `key create` takes several). */
function oneForm(values: string[] | undefined): string | undefined {
  if (values !== undefined && values.length > 1) throw new CliError('--form: this command takes one form');
  return values?.[0];
}

function scopesOption(value: string | undefined): Scope[] | undefined {
  if (value === undefined) return undefined;
  return list(value).map((scope) => (isScope(scope) ? (scopeEnumName(scope) as Scope) : failScope(scope)));
}
function failScope(scope: string): never {
  throw new CliError(`--scopes: unknown scope "${scope}"; one of ${SCOPES.join(', ')}`);
}

/** `--expires 30d` or an ISO 8601 instant, as the instant it names. */
function expiresOption(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const at = parseKeyExpiry(value);
  if (!at) throw new CliError(`--expires must be ${KEY_EXPIRY_FORMAT}`);
  return at.toISOString();
}

const list = (value: string) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** Runs the command line and sets the exit code; used by bin/formloom.mjs. */
export async function main(argv: string[]): Promise<void> {
  const json = argv.includes('--json');
  try {
    const { output, text, streamed } = await runCli(argv);
    // An export to stdout has written its data there; nothing more goes after it.
    if (streamed) return;
    process.stdout.write(`${json ? JSON.stringify(output) : text}\n`);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const details = error instanceof CliError ? (error.details as object | undefined) : undefined;
    process.stderr.write(json ? `${JSON.stringify({ error: { message, ...details } })}\n` : `formloom: ${message}\n${details ? `${JSON.stringify(details, null, 2)}\n` : ''}`);
    process.exitCode = 1;
  }
}
