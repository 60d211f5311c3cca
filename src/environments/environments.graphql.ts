/**
 * GraphQL of environments: the Environment type with all its fields (its forms, API keys, leads and
 * responses, its privacy settings and captcha keys), API keys, and the admin mutations.
 */
import { actorOf, recordAudit } from '../audit/audit.service.ts';
import {
  createApiKey,
  grantFor,
  listApiKeys,
  loadApiKeys,
  MAX_KEY_FORMS,
  readScope,
  requireAdmin,
  requireEnvironmentAccess,
  revokeApiKey,
  usableScopes,
} from '../auth/auth.service.ts';
import { formsFilterOf, coversForms } from '../auth/form-limits.ts';
import { SCOPE_DESCRIPTIONS, SCOPES, scopeEnumName } from '../auth/scopes.ts';
import { IP_STORAGE_MODES } from '../db/schema.ts';
import { checkFormListingArgs, FormConnection, formListingArgs } from '../forms/forms.graphql.ts';
import { listForms } from '../forms/forms.service.ts';
import { builder } from '../graphql/builder.ts';
import { NodeRef } from '../graphql/node.ts';
import { keysetConnection, pageComplexity } from '../graphql/pagination.ts';
import { checkLeadListingArgs, LeadConnection, leadListingArgs } from '../leads/leads.graphql.ts';
import { listLeads } from '../leads/leads.service.ts';
import { FormResponseConnection, resolveListing, responseListingArgs } from '../responses/responses.graphql.ts';
import { notFound } from '../errors.ts';
import { visibleSmtpSettings, type VisibleSmtpSettings } from '../notifications/smtp-settings.ts';
import { INSIGHTS_COST, InsightsFilterInput, InsightsRef, resolveInsights } from '../insights/insights.graphql.ts';
import { MAX_SECRET_KEY_LENGTH, MAX_SITE_KEY_LENGTH, visibleCaptchaKeys, type VisibleCaptchaKeys } from './captcha-keys.service.ts';
import { createEnvironment, getEnvironment, loadEnvironments, type Environment } from './environments.service.ts';

/** Loaded by id through the request's dataloader, which answers only the caller's own environment (any for the admin token). */
export const EnvironmentRef = builder.loadableObjectRef<Environment | null, string, string, Environment>('Environment', {
  load: (ids: string[], ctx) => loadEnvironments(ctx.db, readScope(ctx.principal), ids),
});
const CaptchaKeysRef = builder.objectRef<VisibleCaptchaKeys>('CaptchaKeys').implement({
  description: "An environment's own keys of one captcha provider. The secret key is write-only: only whether one is set is shown.",
  fields: (t) => ({
    siteKey: t.exposeString('siteKey', { nullable: true, description: "The environment's own site key; null: the server's (TURNSTILE_SITE_KEY / RECAPTCHA_SITE_KEY) applies." }),
    secretKeySet: t.exposeBoolean('secretKeySet', {
      description: "Whether the environment has a secret key of its own (else the server's applies, if it has one). The key itself is never returned.",
    }),
  }),
});

const SmtpSettingsRef = builder.objectRef<VisibleSmtpSettings>('SmtpSettings').implement({
  description: "An environment's own SMTP server for e-mail notifications. The password is write-only: only whether one is set is shown.",
  fields: (t) => ({
    url: t.exposeString('url', {
      nullable: true,
      description: "smtp://user@host:587 (STARTTLS, required) or smtps://user@host:465, without the password; null: the server's SMTP_URL applies.",
    }),
    from: t.exposeString('from', { nullable: true, description: "The sender; null: the server's MAIL_FROM." }),
    passwordSet: t.exposeBoolean('passwordSet', { description: 'Whether a password is set (it is never returned).' }),
  }),
});

/** An environment's SMTP server in updateEnvironmentSettings: a field left out stays, null removes it. */
export const SmtpSettingsInput = builder.inputType('SmtpSettingsInput', {
  description:
    "An environment's own SMTP server and sender. A field left out stays as it is; null removes it (url: null removes the password too, and the server's SMTP_URL applies again).",
  fields: (t) => ({
    url: t.string({ description: 'smtp://user@host:587 or smtps://user@host:465, without the password.' }),
    password: t.string({ description: 'The SMTP password: write-only (never returned, logged or audited), stored encrypted.' }),
    from: t.string({ description: 'The sender: an address, or "Name <address>".' }),
  }),
});

export const IpStorageEnum = builder.enumType('IpStorage', {
  description: "How respondents' IP addresses are stored: FULL as received (the default), TRUNCATED to IPv4 /24 or IPv6 /48, NONE (stored empty). `country` is kept in every mode.",
  values: Object.fromEntries(IP_STORAGE_MODES.map((mode) => [mode.toUpperCase(), { value: mode }])),
});

EnvironmentRef.implement({
  description: 'A tenant. Its id is the Site ID used in API paths.',
  interfaces: [NodeRef],
  fields: (t) => ({
    name: t.exposeString('name'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    turnstile: t.field({
      authScopes: { scope: 'settings:manage' },
      type: CaptchaKeysRef,
      description: "The environment's own Cloudflare Turnstile keys (TurnstileWidget).",
      resolve: (e) => visibleCaptchaKeys(e, 'turnstile'),
    }),
    recaptcha: t.field({
      authScopes: { scope: 'settings:manage' },
      type: CaptchaKeysRef,
      description: "The environment's own Google reCAPTCHA keys (Recaptcha).",
      resolve: (e) => visibleCaptchaKeys(e, 'recaptcha'),
    }),
    smtp: t.field({
      authScopes: { scope: 'settings:manage' },
      type: SmtpSettingsRef,
      description: "The environment's own SMTP server for e-mail notifications (docs/notifications.md).",
      resolve: (e) => visibleSmtpSettings(e),
    }),
    ipStorage: t.field({
      authScopes: { scope: 'settings:manage' },
      type: IpStorageEnum,
      description: 'How IP addresses of new responses are stored.',
      resolve: (e) => e.ipStorage,
    }),
    retentionDays: t.int({
      authScopes: { scope: 'settings:manage' },
      nullable: true,
      description: 'Responses older than this many days are deleted by the retention job (a form may set its own); null: kept.',
      resolve: (e) => e.retentionDays,
    }),
    embedOrigins: t.stringList({
      authScopes: { scope: 'settings:manage' },
      nullable: true,
      description:
        "Sites that may embed the environment's forms in a frame (the pages' CSP frame-ancestors): origins, or `[\"*\"]` for any site; `[]`: no other site. null: the server's FRAME_ANCESTORS applies.",
      resolve: (e) => e.embedOrigins ?? null,
    }),
    insights: t.field({
      authScopes: { scope: 'forms:read' },
      type: InsightsRef,
      description: 'Views, conversion and time to complete over every form of the environment (deleted forms aside), with a time series and breakdowns.',
      args: { filter: t.arg({ type: InsightsFilterInput }) },
      complexity: INSIGHTS_COST,
      resolve: (e, args, ctx) => resolveInsights(ctx, { environmentId: e.id, formIds: formsFilterOf(ctx.principal).ids }, args.filter),
    }),
    forms: t.field({
      type: FormConnection,
      authScopes: { scope: 'forms:read' },
      description: 'Forms of the environment (deleted ones excepted), newest first.',
      args: formListingArgs,
      complexity: pageComplexity,
      resolve: async (environment, args, ctx) => {
        const { filter, first, after } = checkFormListingArgs(args);
        const page = await listForms(ctx.db, { environmentId: environment.id, filter: { ...filter, ...formsFilterOf(ctx.principal) }, after, limit: first });
        return keysetConnection(page.rows, page.hasNextPage, after !== undefined);
      },
    }),
    apiKeys: t.field({
      authScopes: { scope: 'keys:manage' },
      type: [ApiKeyRef],
      description: 'Every API key of the environment, revoked ones included, newest first. Never a secret.',
      complexity: { field: 10, multiplier: 10 },
      resolve: async (environment, _, ctx) => (await listApiKeys(ctx.db, environment.id)).filter((key) => coversForms(ctx.principal, key.formIds)),
    }),
    leads: t.field({
      authScopes: { scope: 'responses:read' },
      type: LeadConnection,
      description: 'Leads of the environment, newest first.',
      args: leadListingArgs,
      complexity: pageComplexity,
      resolve: async (environment, args, ctx) => {
        const { email, first, after } = checkLeadListingArgs(args);
        const page = await listLeads(ctx.db, { environmentId: environment.id, email, after, limit: first, formIds: formsFilterOf(ctx.principal).ids });
        return keysetConnection(page.rows, page.hasNextPage, after !== undefined);
      },
    }),
    responses: t.field({
      type: FormResponseConnection,
      authScopes: { scope: 'responses:read' },
      description: 'Responses of every form of the environment, newest first: the same as `environmentResponses`.',
      args: responseListingArgs,
      complexity: pageComplexity,
      resolve: (environment, args, ctx) => resolveListing(ctx, { ...args, environmentId: environment.id }, undefined),
    }),
  }),
});

/** One provider's keys in updateEnvironmentSettings: a key left out stays, null removes it. */
export const CaptchaKeysInput = builder.inputType('CaptchaKeysInput', {
  description: "An environment's keys of one captcha provider. A key left out stays as it is; null removes it (the server's applies again).",
  fields: (t) => ({
    siteKey: t.string({ description: `The provider's site key (public; shown in the page). At most ${MAX_SITE_KEY_LENGTH} printable ASCII characters.` }),
    secretKey: t.string({
      description: `The provider's secret key, used to verify tokens: write-only (never returned, logged or audited), stored encrypted. At most ${MAX_SECRET_KEY_LENGTH} printable ASCII characters.`,
    }),
  }),
});

interface ApiKeyRecord {
  id: string;
  environmentId: string;
  name: string;
  createdAt: Date;
  revokedAt?: Date | null;
  lastUsedAt?: Date | null;
  scopes: readonly string[] | null;
  expiresAt: Date | null;
  formIds: readonly string[] | null;
}

export const ScopeEnum = builder.enumType('Scope', {
  description: 'What an API key may do. The same scopes REST and the CLI name in lower case with a colon: `RESPONSES_READ` is `responses:read`.',
  values: Object.fromEntries(SCOPES.map((scope) => [scopeEnumName(scope), { value: scope, description: `\`${scope}\`: ${SCOPE_DESCRIPTIONS[scope]}` }])),
});

/** Never carries the secret or its hash; loaded only within the caller's environment (any for the admin token). */
export const ApiKeyRef = builder.loadableObjectRef<ApiKeyRecord | null, string, string, ApiKeyRecord>('ApiKey', {
  load: async (ids: string[], ctx) => (await loadApiKeys(ctx.db, readScope(ctx.principal), ids)).map((key) => (key && coversForms(ctx.principal, key.formIds) ? key : null)),
});
ApiKeyRef.implement({
  description: 'An API key. Its secret is shown only once, by createApiKey.',
  interfaces: [NodeRef],
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Public prefix of the key; use it to revoke the key.' }),
    prefix: t.string({ description: 'How the key starts (`fl_<id>_`): recognise a key without seeing its secret.', resolve: (key) => `fl_${key.id}_` }),
    lastUsedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the key last authenticated a request (to within about a minute); null if never.',
      resolve: (key) => key.lastUsedAt ?? null,
    }),
    environmentId: t.exposeID('environmentId'),
    name: t.exposeString('name'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    revoked: t.boolean({ resolve: (key) => Boolean(key.revokedAt) }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
    scopes: t.field({
      type: [ScopeEnum],
      description:
        'What the key may do. A key made without scopes (by the admin token, or before keys had scopes) holds every scope; a key limited to forms holds no environment-wide scope (settings:manage, audit:read).',
      resolve: (key) => usableScopes(key),
    }),
    fullAccess: t.boolean({
      description: 'True for a key made without scopes and not limited to forms: it holds every scope, including ones added later.',
      resolve: (key) => key.scopes === null && key.formIds === null,
    }),
    expiresAt: t.field({ type: 'DateTime', nullable: true, description: 'From this instant the key is invalid; null: it does not expire.', resolve: (key) => key.expiresAt }),
    formIds: t.idList({
      nullable: true,
      description: 'The forms the key is limited to (any other form is, to it, one that does not exist); null: every form of its environment.',
      resolve: (key) => (key.formIds === null ? null : [...key.formIds]),
    }),
  }),
});

const CreateApiKeyPayload = builder.objectRef<ApiKeyRecord & { key: string }>('CreateApiKeyPayload').implement({
  fields: (t) => ({
    apiKey: t.field({ type: ApiKeyRef, resolve: (created) => created }),
    key: t.exposeString('key', { description: 'The secret key. Shown only here: store it now.' }),
  }),
});

builder.queryField('environment', (t) =>
  t.field({
    authScopes: { authenticated: true },
    type: EnvironmentRef,
    description: 'An environment; the admin token reaches all, an API key only its own.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_, { id }, { db, principal }) => {
      requireEnvironmentAccess(principal, String(id));
      const environment = await getEnvironment(db, String(id));
      if (!environment) throw notFound('Environment not found');
      return environment;
    },
  }),
);

const CreateEnvironmentInput = builder.inputType('CreateEnvironmentInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    id: t.id({ description: 'The Site ID to use; generated when absent. 1-64 letters, digits, "_" or "-".' }),
  }),
});

builder.mutationField('createEnvironment', (t) =>
  t.field({
    authScopes: { admin: true },
    type: EnvironmentRef,
    description: 'Admin token only.',
    args: { input: t.arg({ type: CreateEnvironmentInput, required: true }) },
    resolve: async (_, { input }, { db, principal }) => {
      requireAdmin(principal);
      const environment = await createEnvironment(db, { name: input.name, id: input.id == null ? undefined : String(input.id) });
      await recordAudit(db, { environmentId: environment.id, actor: actorOf(principal), action: 'environment.create', targetIds: [environment.id] });
      return environment;
    },
  }),
);

const CreateApiKeyInput = builder.inputType('CreateApiKeyInput', {
  fields: (t) => ({
    environmentId: t.id({ required: true, description: "The key's environment; a key creating keys names its own." }),
    name: t.string({ description: 'A label to recognise the key by.' }),
    scopes: t.field({
      type: [ScopeEnum],
      description: "What the new key may do. Left out: the creator's scopes (a key's own; for the admin token, every scope). A key grants at most its own.",
    }),
    expiresAt: t.field({
      type: 'DateTime',
      description: "From this instant the new key is invalid. Left out: the creator's expiry (none for the admin token). A key grants no later expiry than its own.",
    }),
    formIds: t.idList({
      description: `Limit the new key to these forms of the environment (1 to ${MAX_KEY_FORMS}). Left out: the creator's forms (every form for the admin token). A key grants only forms it is limited to.`,
    }),
  }),
});

builder.mutationField('createApiKey', (t) =>
  t.field({
    authScopes: { scope: 'keys:manage' },
    type: CreateApiKeyPayload,
    description: 'The admin token, or a key with `keys:manage` in its own environment (granting at most its own scopes and expiry). The key in the payload is shown once.',
    args: { input: t.arg({ type: CreateApiKeyInput, required: true }) },
    resolve: async (_, { input }, { db, principal }) => {
      requireEnvironmentAccess(principal, String(input.environmentId));
      const grant = grantFor(principal, { scopes: input.scopes ?? undefined, expiresAt: input.expiresAt ?? undefined, formIds: input.formIds?.map(String) ?? undefined });
      const created = await createApiKey(db, { environmentId: String(input.environmentId), name: input.name ?? undefined, ...grant });
      await recordAudit(db, {
        environmentId: created.environmentId,
        actor: actorOf(principal),
        action: 'api_key.create',
        targetIds: [created.id],
        details: { scopes: created.scopes?.join(',') ?? 'all', expiresAt: created.expiresAt?.toISOString() ?? null, formIds: created.formIds?.join(',') ?? 'all' },
      });
      return created;
    },
  }),
);

builder.mutationField('revokeApiKey', (t) =>
  t.field({
    authScopes: { scope: 'keys:manage' },
    type: ApiKeyRef,
    description:
      'The admin token, or a key with `keys:manage` for keys of its environment. A revoked key is rejected as invalid from then on, and its open responseEvents streams end, on every node.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_, { id }, { db, principal }) => {
      // Another environment's key is reported as one that does not exist.
      const [key] = await loadApiKeys(db, readScope(principal), [String(id)]);
      if (!key || !coversForms(principal, key.formIds)) throw notFound('API key not found');
      const revoked = await revokeApiKey(db, String(id));
      await recordAudit(db, { environmentId: revoked.environmentId, actor: actorOf(principal), action: 'api_key.revoke', targetIds: [revoked.id] });
      return revoked;
    },
  }),
);
