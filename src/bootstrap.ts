/**
 * First start on an empty database: a demo environment, a styled template form imported from
 * examples/template.json, and an API key, announced once with a copy-paste curl and the shell line that
 * sets the README walk-through's variables. Runs under an advisory lock so two instances starting
 * together set up one demo.
 */
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Logger } from 'pino';
import { adminTokenFile, resolveInstanceSecrets, type ResolvedAdminToken } from './auth/admin-token.ts';
import { createApiKey } from './auth/auth.service.ts';
import type { Config } from './config.ts';
import { fromRoot } from './paths.ts';
import type { Database, DatabaseHandle } from './db/client.ts';
import { runSerially } from './db/locks.ts';
import { createEnvironment, hasAnyEnvironment } from './environments/environments.service.ts';
import { importFormNameSchema, importStepsSchema } from './forms/components.ts';
import { importForm } from './forms/forms.service.ts';
import { themeSchema } from './forms/theme.ts';

const BOOTSTRAP_LOCK = 7_240_301;

/** The file `formloom form import` reads: `{name, theme, steps}`. */
const formFileSchema = z.object({ name: importFormNameSchema, theme: themeSchema.optional(), steps: importStepsSchema });

export function readTemplateExample() {
  const file = fromRoot('examples/template.json');
  return formFileSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
}

export interface BootstrapResult {
  environmentId: string;
  templateFormId: string;
  apiKey: string;
}

/** Sets up the demo when the database has no environment yet; returns what it made, or null. */
async function bootstrapDemo(db: Database): Promise<BootstrapResult | null> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${BOOTSTRAP_LOCK})`);
    if (await hasAnyEnvironment(tx)) return null;
    const template = readTemplateExample();
    const environment = await createEnvironment(tx, { name: 'Demo' });
    const form = await importForm(tx, { environmentId: environment.id, name: template.name, theme: template.theme ?? themeSchema.parse({}), steps: template.steps });
    const { key } = await createApiKey(tx, { environmentId: environment.id, name: 'Demo key' });
    return { environmentId: environment.id, templateFormId: form.id, apiKey: key };
  });
}

/**
 * A node's start-up work on the database, one node at a time (several may start together): the
 * migrations, the admin token and secrets every node shares, and the demo on an empty database.
 */
export async function prepareDatabase(
  config: Pick<Config, 'adminToken' | 'dataDir'> & Partial<Pick<Config, 'signingKeyGraceMs'>>,
  database: DatabaseHandle,
  logger?: Pick<Logger, 'warn'>,
) {
  return runSerially(database, 'start-up', async () => {
    await database.migrate();
    const { adminToken, secrets } = await resolveInstanceSecrets(config, database, logger);
    const demo = await bootstrapDemo(database.db);
    return { adminToken, secrets, demo };
  });
}

/** Shown once when this start generated the admin token but set up no demo (whose banner shows it). */
export function adminTokenBanner(adminToken: ResolvedAdminToken, dataDir: string): string {
  return adminToken.generated ? `\nadmin token (shown once; also kept in ${adminTokenFile(dataDir)}): ${adminToken.token}\n\n` : '';
}

/**
 * One shell line that sets the walk-through's variables (README.md): BASE, SITE, TEMPLATE and KEY, and
 * FORMLOOM_URL, where the `formloom` command finds this server.
 */
function walkthroughVariables(result: BootstrapResult, baseUrl: string): string {
  // An IPv6 address's brackets would be a glob pattern to some shells: quote the URL then.
  const base = /^[\w:/.-]+$/.test(baseUrl) ? baseUrl : `'${baseUrl}'`;
  return `export BASE=${base} FORMLOOM_URL=${base} SITE=${result.environmentId} TEMPLATE=${result.templateFormId} KEY=${result.apiKey}`;
}

export function bootstrapBanner(result: BootstrapResult, baseUrl: string, adminToken: ResolvedAdminToken): string {
  const body = JSON.stringify({
    sourceFormId: result.templateFormId,
    name: 'My first generated form',
    steps: [
      { name: 'Contact', components: [{ type: 'IdentityInfo', content: { fields: [{ key: 'emailAddress', label: 'E-mail' }] } }] },
      { name: 'Book a call', components: [{ type: 'CalendlyScreen', content: { url: 'https://calendly.com/acme/intro' } }] },
    ],
  });
  return [
    '',
    '================ formloom is set up (shown once) ================',
    `environment (Site ID): ${result.environmentId}`,
    `template form:         ${result.templateFormId}`,
    `API key:               ${result.apiKey}`,
    adminToken.generated ? `admin token:           ${adminToken.token}  (also kept in the data dir)` : 'admin token:           as configured (ADMIN_TOKEN or the data dir)',
    '',
    "The README's walk-through uses these; paste them into the shell you try it in:",
    walkthroughVariables(result, baseUrl),
    '',
    'Generate a form from the template:',
    `curl -s -X POST ${baseUrl}/api/v1/environments/${result.environmentId}/forms/generate \\`,
    `  -H 'x-api-key: ${result.apiKey}' -H 'content-type: application/json' \\`,
    `  -d '${body}'`,
    '==================================================================',
    '',
  ].join('\n');
}
