/** Tables. Every tenant-owned row carries `environment_id`; every query filters on it. */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, json, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import {
  RESPONSE_FORMAT_VERSION,
  type FormLanguages,
  type FormLimits,
  type FormNotifications,
  type FormQuota,
  type FormVariable,
  type TextTranslations,
  type ResponseAnswer,
  type ResponseInsight,
  type ResponseMeta,
  type StoredStep,
  type Theme,
} from './json-columns.ts';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** An environment is a tenant; its id is the public "Site ID". */
export const IP_STORAGE_MODES = ['full', 'truncated', 'none'] as const;
export type IpStorage = (typeof IP_STORAGE_MODES)[number];

export const environments = pgTable(
  'environments',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    createdAt: createdAt(),
    /** How respondents' IP addresses are stored: as received, truncated (IPv4 /24, IPv6 /48), or not at all. */
    ipStorage: text('ip_storage').$type<IpStorage>().notNull().default('full'),
    /** Responses older than this many days are deleted by the retention job; null: kept. */
    retentionDays: integer('retention_days'),
    /**
     * The environment's own captcha keys (src/environments/captcha-keys.service.ts): site keys as given,
     * secret keys sealed (AES-256-GCM, src/auth/secret-box.ts), never in clear. Null: the server's apply.
     */
    turnstileSiteKey: text('turnstile_site_key'),
    turnstileSecretKeySealed: text('turnstile_secret_key_sealed'),
    recaptchaSiteKey: text('recaptcha_site_key'),
    recaptchaSecretKeySealed: text('recaptcha_secret_key_sealed'),
    /**
     * Who may embed the environment's forms in a frame (src/embed/embed-origins.ts): origins such as
     * `https://www.example.com`, or `["*"]` for any site. Null: the server's FRAME_ANCESTORS applies.
     */
    embedOrigins: jsonb('embed_origins').$type<string[]>(),
    /**
     * The environment's own SMTP server for e-mail notifications (src/notifications/smtp-settings.ts):
     * its URL without a password, the password sealed, the sender. Null: the server's SMTP_URL and MAIL_FROM.
     */
    smtpUrl: text('smtp_url'),
    smtpPasswordSealed: text('smtp_password_sealed'),
    mailFrom: text('mail_from'),
  },
  (t) => [
    check('environments_ip_storage_check', sql`${t.ipStorage} in ('full', 'truncated', 'none')`),
    check('environments_retention_days_check', sql`${t.retentionDays} is null or ${t.retentionDays} >= 1`),
  ],
);

/**
 * API keys. `id` is the key's public prefix (it appears in the key itself); only a SHA-256 hash of
 * the secret part is stored. A key reaches exactly one environment.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    environmentId: text('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    secretHash: text('secret_hash').notNull(),
    createdAt: createdAt(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** When the key last authenticated a request; written at most once a minute per key (auth.service.ts). */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    /** What the key may do (auth/scopes.ts); null: everything (keys made before scopes, unscoped admin-made keys). */
    scopes: text('scopes').array(),
    /** From this instant the key is invalid; null: never. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** The forms the key is limited to (at most 100); null: every form of its environment. */
    formIds: text('form_ids').array(),
  },
  (t) => [index('api_keys_environment_id_idx').on(t.environmentId)],
);

/**
 * draft: not served. published: served, accepting responses. closed: served as a "no longer accepting
 * responses" page; its responses stay readable and it can still be a template. (Deleted is `deleted_at`.)
 */
export const FORM_STATUSES = ['draft', 'published', 'closed'] as const;
export type FormStatus = (typeof FORM_STATUSES)[number];

export const forms = pgTable(
  'forms',
  {
    id: text('id').primaryKey(),
    environmentId: text('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    status: text('status').$type<FormStatus>().notNull(),
    theme: jsonb('theme').$type<Theme>().notNull(),
    steps: jsonb('steps').$type<StoredStep[]>().notNull(),
    /** Names of the hidden fields a response may bring (URL query, JSON API); conditions test them. */
    hiddenFields: jsonb('hidden_fields').$type<string[]>().notNull().default([]),
    /** Values the rules calculate along a response's path (a score, a price); responses record them. */
    variables: jsonb('variables').$type<FormVariable[]>().notNull().default([]),
    /** The template this form was generated from, if any. */
    sourceFormId: text('source_form_id'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** Soft delete: a deleted form is not served and can't be a template (purged after FORM_PURGE_DAYS). */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** This form's response retention in days, overriding the environment's; null: the environment's. */
    retentionDays: integer('retention_days'),
    /** The language of the page's own words (src/i18n/locales.ts): a BCP 47 tag, canonical. */
    locale: text('locale').notNull().default('en'),
    /** The definition's version: 1 when created, one more with each update; `form_versions` keeps each. */
    version: integer('version').notNull().default(1),
    /** Who hears of its responses by e-mail (src/notifications/settings.ts); null: nobody. */
    notifications: jsonb('notifications').$type<FormNotifications>(),
    /** When it takes responses and how many (src/forms/limits.ts); null: always, without a limit. */
    limits: jsonb('limits').$type<FormLimits>(),
    /** Caps on the finished responses meeting a condition (src/forms/limits.ts). */
    quotas: jsonb('quotas').$type<FormQuota[]>().notNull().default([]),
    /** A multilingual form's languages (src/forms/translations.ts); null: one language, `locale`'s. */
    languages: jsonb('languages').$type<FormLanguages | null>(),
    /** The form's own texts (its `name`) in its other languages; null: none. Steps and components carry theirs. */
    texts: jsonb('texts').$type<TextTranslations | null>(),
    /** Whether the final screen offers "Submit another response" (a new response from the same browser). */
    allowAnotherResponse: boolean('allow_another_response').notNull().default(false),
  },
  (t) => [
    index('forms_environment_id_idx').on(t.environmentId),
    // Environment.forms (newest first) and Form.generatedForms: keyset listings, like the responses'.
    index('forms_environment_created_idx').on(t.environmentId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('forms_source_created_idx').on(t.sourceFormId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    check('forms_status_check', sql`${t.status} in ('draft', 'published', 'closed')`),
    check('forms_retention_days_check', sql`${t.retentionDays} is null or ${t.retentionDays} >= 1`),
    // The purge of soft-deleted forms finds them by deletion time.
    index('forms_deleted_at_idx')
      .on(t.deletedAt)
      .where(sql`${t.deletedAt} is not null`),
  ],
);

/**
 * The columns of a form that make its definition: what a version snapshots (`form_versions.definition`)
 * and an update may change. A new definition field is one more line here (and its column above).
 */
export const FORM_DEFINITION_COLUMNS = {
  name: forms.name,
  steps: forms.steps,
  hiddenFields: forms.hiddenFields,
  variables: forms.variables,
  locale: forms.locale,
  /** Who hears of its responses: a response started on a version is notified as that version says. */
  notifications: forms.notifications,
  languages: forms.languages,
  texts: forms.texts,
} as const;
type OptionalDefinitionColumn = 'notifications' | 'languages' | 'texts';
type DefinitionColumns = { -readonly [K in keyof typeof FORM_DEFINITION_COLUMNS]: (typeof FORM_DEFINITION_COLUMNS)[K]['_']['data'] };
/**
 * A definition; snapshots older than notifications in versions have none (the form's own then stand), and
 * those older than languages have neither `languages` nor `texts` (one language, none translated).
 */
export type FormDefinition = Omit<DefinitionColumns, OptionalDefinitionColumn> & {
  notifications?: FormNotifications | null;
  languages?: FormLanguages | null;
  texts?: TextTranslations | null;
};

/**
 * Every version of every form's definition, as one jsonb snapshot (`FormDefinition`): version 1 when
 * the form is created, one row per update. Responses are served and checked against the version they
 * started on (`meta.formVersion`). Rows are never changed; they go with their form.
 */
export const formVersions = pgTable(
  'form_versions',
  {
    formId: text('form_id')
      .notNull()
      .references(() => forms.id, { onDelete: 'cascade' }),
    environmentId: text('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    definition: jsonb('definition').$type<FormDefinition>().notNull(),
    /** Size of `definition` as JSON text, in bytes: what reading it costs a GraphQL answer's budget. */
    definitionBytes: integer('definition_bytes').notNull().default(0),
    createdAt: createdAt(),
  },
  // The primary key serves a form's versions newest first (read backwards) and a version by number.
  (t) => [primaryKey({ columns: [t.formId, t.version] }), check('form_versions_version_check', sql`${t.version} >= 1`)],
);

/**
 * Every step and component id any version of a form has had, with what it was in the latest version
 * that had it: the ids an update may keep (bring back), found by key instead of in the snapshots.
 * Written with each version (recordVersion); rows go with their form.
 */
export const formVersionIds = pgTable(
  'form_version_ids',
  {
    formId: text('form_id')
      .notNull()
      .references(() => forms.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    kind: text('kind').$type<'step' | 'component'>().notNull(),
    /** A component's type (null for a step). */
    type: text('type'),
  },
  (t) => [primaryKey({ columns: [t.formId, t.id] }), check('form_version_ids_kind_check', sql`${t.kind} in ('step', 'component')`)],
);

/**
 * A lead: a person known to an environment. Anonymous visitors are leads without an e-mail; an
 * e-mail answered in a form attaches the response to the environment's lead with that e-mail.
 */
export const leads = pgTable(
  'leads',
  {
    id: text('id').primaryKey(),
    environmentId: text('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    /** Lower-cased; unique within the environment. */
    email: text('email'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('leads_environment_email_uq').on(t.environmentId, t.email),
    // Environment.leads, newest first.
    index('leads_environment_created_idx').on(t.environmentId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  ],
);

/** How often a lead has visited and completed one form (`personAttributes.visitedForm` / `completedForm`). */
export const leadFormStats = pgTable(
  'lead_form_stats',
  {
    leadId: text('lead_id')
      .notNull()
      .references(() => leads.id, { onDelete: 'cascade' }),
    formId: text('form_id')
      .notNull()
      .references(() => forms.id, { onDelete: 'cascade' }),
    visits: integer('visits').notNull().default(0),
    completions: integer('completions').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.leadId, t.formId] })],
);

/**
 * A response to a form. `data` holds `{questionId, response}` entries in the per-type shapes of
 * responses/shapes.ts. `status` is not stored: it follows from `finished` and `updatedAt`.
 *
 * `data` is `json`, not `jsonb`: the service writes it as JSON.stringify's text (drizzle's json column,
 * `::json` in its statements) and PostgreSQL keeps that text as it is, so reading the answers out, what
 * the listings, streams and exports do to every row, is a copy: no jsonb_out on PostgreSQL's side, no
 * compaction on the server's (db/jsonb-text.ts passes such text through). Summaries cast it to jsonb.
 * Rows stored before migration 0009 hold jsonb_out's text and are compacted when read.
 *
 * The listing indexes match `ORDER BY created_at DESC, id DESC` exactly (DESC means NULLS FIRST in
 * PostgreSQL; drizzle's `.desc()` alone would emit NULLS LAST and force a sort), with partial twins
 * for the default completed-only listings.
 */
export const responses = pgTable(
  'responses',
  {
    id: text('id').primaryKey(),
    environmentId: text('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    formId: text('form_id')
      .notNull()
      .references(() => forms.id, { onDelete: 'cascade' }),
    leadId: text('lead_id')
      .notNull()
      .references(() => leads.id),
    /** The browser session (public pages) that owns this response; one response per session and form. */
    sessionId: text('session_id'),
    finished: boolean('finished').notNull().default(false),
    data: json('data').$type<ResponseAnswer[]>().notNull().default([]),
    /** Extra metadata (source, user agent, …); `leadId` is added from the column when read. */
    meta: jsonb('meta').$type<ResponseMeta>().notNull().default({}),
    ip: text('ip').notNull().default(''),
    country: text('country').notNull().default(''),
    visitedForm: integer('visited_form').notNull().default(1),
    completedForm: integer('completed_form').notNull().default(0),
    version: text('version').notNull().default(RESPONSE_FORMAT_VERSION),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    dataUpdatedAt: timestamp('data_updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** What the response counts in its form's insight counters (`form_insight_counts`); null: nothing. */
    insight: jsonb('insight').$type<ResponseInsight>(),
  },
  (t) => {
    // A fresh pair per index: drizzle's ordered-column builders are single-use.
    const newestFirst = () => [t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()] as const;
    return [
      index('responses_form_created_idx').on(t.formId, ...newestFirst()),
      index('responses_form_finished_created_idx')
        .on(t.formId, ...newestFirst())
        .where(sql`${t.finished}`),
      index('responses_environment_created_idx').on(t.environmentId, ...newestFirst()),
      index('responses_environment_finished_created_idx')
        .on(t.environmentId, ...newestFirst())
        .where(sql`${t.finished}`),
      uniqueIndex('responses_form_session_uq').on(t.formId, t.sessionId),
      index('responses_lead_idx').on(t.leadId),
    ];
  },
);

/**
 * The columns of the insight counter tables beside their period: the form, its environment, the segment
 * (its hash and what it is made of), the metric (`views`, or one of the metrics of
 * `ResponseInsight.metrics`) and its count.
 */
const insightCounterColumns = () => ({
  formId: text('form_id')
    .notNull()
    .references(() => forms.id, { onDelete: 'cascade' }),
  environmentId: text('environment_id')
    .notNull()
    .references(() => environments.id, { onDelete: 'cascade' }),
  segment: text('segment').notNull(),
  device: text('device').notNull(),
  language: text('language').notNull(),
  referrer: text('referrer').notNull(),
  hidden: jsonb('hidden').$type<Record<string, string>>().notNull(),
  metric: text('metric').notNull(),
  count: integer('count').notNull(),
});

/**
 * A form's insight counters (src/insights/): one row per form, UTC hour, segment (a combination of
 * device class, language, referrer host and hidden-field values, `segment` its hash) and metric, counted
 * as things happen: a view of the first step, and what each response counts (`responses.insight`),
 * changed in the submission's statement or transaction and taken off when responses are deleted. No
 * personal data: no address, no identifier of a view or a response.
 */
export const formInsightCounts = pgTable(
  'form_insight_counts',
  {
    ...insightCounterColumns(),
    /** The start of the UTC hour. */
    hour: timestamp('hour', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.formId, t.hour, t.segment, t.metric] }),
    // Environment.insights: every form's rows of a time range.
    index('form_insight_counts_environment_hour_idx').on(t.environmentId, t.hour),
  ],
);

/**
 * The insight counters summed per UTC day: kept by the statement-level triggers on `form_insight_counts`
 * (in the writer's statement, so always its exact sum; see the migration that creates
 * `form_insight_rollups_inserted`), read for the whole days of a range outside its whole months.
 */
export const formInsightDays = pgTable(
  'form_insight_days',
  {
    ...insightCounterColumns(),
    /** Midnight UTC. */
    day: timestamp('day', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.formId, t.day, t.segment, t.metric] }),
    index('form_insight_days_environment_day_idx').on(t.environmentId, t.day),
    // The series and breakdowns read only views, starts and finishes.
    index('form_insight_days_form_metric_day_idx').on(t.formId, t.metric, t.day),
  ],
);

/**
 * The insight counters summed per UTC month: kept by the same triggers as the day rows, in the same
 * statement, so always the exact sum of the month's hour (and day) rows; read for the whole months of a
 * range so an all-time read's rows grow with months, not days.
 */
export const formInsightMonths = pgTable(
  'form_insight_months',
  {
    ...insightCounterColumns(),
    /** Midnight UTC of the month's first day. */
    month: timestamp('month', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.formId, t.month, t.segment, t.metric] }),
    index('form_insight_months_environment_month_idx').on(t.environmentId, t.month),
    // The breakdowns read only views, starts and finishes.
    index('form_insight_months_form_metric_month_idx')
      .on(t.formId, t.metric, t.month)
      .where(sql`${t.metric} in ('views', 'starts', 'finishes')`),
  ],
);

/**
 * The columns of the slice tables beside their period: a slice is every segment together (`kind`
 * `all`, `value` '') or the segments of one dimension value (`device`, `language`, `referrer`,
 * `hidden:<name>`, with the value). Its metrics are the segments' metrics summed, plus `ttcb:<seconds>`:
 * the finishes whose time to complete falls in the bucket starting there (`form_insight_time_bucket`).
 */
const insightSliceColumns = () => ({
  formId: text('form_id')
    .notNull()
    .references(() => forms.id, { onDelete: 'cascade' }),
  environmentId: text('environment_id')
    .notNull()
    .references(() => environments.id, { onDelete: 'cascade' }),
  kind: text('kind').notNull(),
  value: text('value').notNull(),
  metric: text('metric').notNull(),
  count: integer('count').notNull(),
});

/**
 * The insight counters of each slice per UTC day: kept by the statement-level triggers on
 * `form_insight_counts` with the day and month rows (see the migration that creates
 * `form_insight_slices_inserted`), so always the exact sums of the slice's hour rows. A read without a
 * filter, or with one, takes a slice's rows instead of every segment's. Three orders: by metric (the
 * series' metrics, the exact times of a bucket), a slice's rows but the exact times by period (the
 * totals), and views, starts and finishes of every slice by period (the breakdowns).
 */
export const formInsightSliceDays = pgTable(
  'form_insight_slice_days',
  {
    ...insightSliceColumns(),
    /** Midnight UTC. */
    day: timestamp('day', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.formId, t.kind, t.value, t.metric, t.day] }),
    index('form_insight_slice_days_totals_idx')
      .on(t.formId, t.kind, t.value, t.day)
      .where(sql`${t.metric} not like 'ttc:%'`),
    index('form_insight_slice_days_breakdown_idx')
      .on(t.formId, t.metric, t.day)
      .where(sql`${t.metric} in ('views', 'starts', 'finishes')`),
  ],
);

/** The insight counters of each slice per UTC month, kept with the slice day rows; the same orders. */
export const formInsightSliceMonths = pgTable(
  'form_insight_slice_months',
  {
    ...insightSliceColumns(),
    /** Midnight UTC of the month's first day. */
    month: timestamp('month', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.formId, t.kind, t.value, t.metric, t.month] }),
    index('form_insight_slice_months_totals_idx')
      .on(t.formId, t.kind, t.value, t.month)
      .where(sql`${t.metric} not like 'ttc:%'`),
    index('form_insight_slice_months_breakdown_idx')
      .on(t.formId, t.metric, t.month)
      .where(sql`${t.metric} in ('views', 'starts', 'finishes')`),
  ],
);

/**
 * Links to a form's read-only results page (`/r/<token>`, src/results/). The token is shown once, at
 * creation; only its SHA-256 hash is stored. Revoking deletes the row, so every node refuses the link
 * from its next request.
 */
export const formShareLinks = pgTable(
  'form_share_links',
  {
    id: text('id').primaryKey(),
    formId: text('form_id')
      .notNull()
      .references(() => forms.id, { onDelete: 'cascade' }),
    environmentId: text('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    /** Whether the page lists the free-text answers (ShortInput, LongInput). */
    includeTextAnswers: boolean('include_text_answers').notNull().default(false),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('form_share_links_token_uq').on(t.tokenHash), index('form_share_links_form_idx').on(t.formId, t.createdAt)],
);

/**
 * Secrets every node of one deployment must share, created once by whichever node starts first
 * (src/auth/admin-token.ts): the signing keys of cookies, respondents' tokens and file URLs, the key
 * that encrypts environment secrets, and on PostgreSQL the generated admin token's SHA-256 hash.
 * Never the admin token itself.
 */
export const instanceSecrets = pgTable('instance_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: createdAt(),
});

/**
 * GraphQL documents an operator trusted (`formloom graphql trust FILE`), by the SHA-256 of their text:
 * clients send the hash instead of the document (docs/graphql.md, "Persisted documents"). Every node
 * reads them from here; the documents in schema/operations/ are trusted without a row.
 */
export const graphqlTrustedDocuments = pgTable('graphql_trusted_documents', {
  hash: text('hash').primaryKey(),
  document: text('document').notNull(),
  /** The names of the document's operations, for the listing. */
  operationNames: jsonb('operation_names').$type<string[]>().notNull(),
  createdAt: createdAt(),
});

/**
 * Idempotency keys (Stripe's semantics): a request retried with the same `Idempotency-Key` in the same
 * scope (`env:<id>:generateForm`, `form:<id>:start`) within 24 h gets the first result again. `result`
 * is null while the first request is in flight (or when it failed before storing one).
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    /** SHA-256 of what the request asked for: the same key with another request is refused. */
    requestHash: text('request_hash').notNull(),
    result: jsonb('result').$type<Record<string, unknown>>(),
    /**
     * A random value drawn with each claim (null: a claim made before there was one): what a caller derives a
     * claim's secrets from (the public start's resume token), so a key claimed again after it expired gets new ones.
     */
    nonce: text('nonce'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] })],
);

// ---------------------------------------------------------------- events and webhooks

/**
 * A webhook endpoint of an environment: where events of the chosen types are POSTed, signed with
 * `secret` (Standard Webhooks `whsec_…`). `formIds` null: every form of the environment.
 */
export const WEBHOOK_FORMATS = ['standard', 'slack'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    environmentId: text('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    eventTypes: text('event_types').array().notNull(),
    formIds: text('form_ids').array(),
    secret: text('secret').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** Why the endpoint is disabled (`manual`, or `failing` when the failure threshold disabled it). */
    disabledReason: text('disabled_reason'),
    /** Deliveries that ended failed in a row (reset by any success); the auto-disable counts these. */
    failedDeliveriesInARow: integer('failed_deliveries_in_a_row').notNull().default(0),
    /** The body: `standard` (the event as JSON) or `slack` ({text, blocks} for Slack and Mattermost). */
    format: text('format').$type<WebhookFormat>().notNull().default('standard'),
    /** `slack`: put the response's answers in the message. */
    includeAnswers: boolean('include_answers').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('webhook_endpoints_environment_idx').on(t.environmentId, t.createdAt, t.id), check('webhook_endpoints_format_check', sql`${t.format} in ('standard', 'slack')`)],
);

/**
 * The outbox: one row per event, written in the transaction of the change it describes (so a
 * committed change always has its event and a rolled-back one never does). `seq` orders events.
 */
export const outboxEvents = pgTable(
  'outbox_events',
  {
    id: text('id').primaryKey(),
    seq: integer('seq').generatedAlwaysAsIdentity().notNull(),
    environmentId: text('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    formId: text('form_id'),
    /** The response the event is about; events of one response are delivered in order. */
    responseId: text('response_id'),
    /** The body POSTed to endpoints: `{type, timestamp, data}`. */
    payload: jsonb('payload').$type<{ type: string; timestamp: string; data: unknown }>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('outbox_events_seq_uq').on(t.seq),
    index('outbox_events_environment_idx').on(t.environmentId, t.seq),
    // Deleting or erasing responses removes their events (the payloads carry the answers).
    index('outbox_events_response_idx')
      .on(t.responseId)
      .where(sql`${t.responseId} is not null`),
    // The retention sweep (events/retention.ts) takes the oldest first.
    index('outbox_events_created_idx').on(t.createdAt),
  ],
);

export const DELIVERY_STATUSES = ['pending', 'delivering', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * One event for one endpoint (its id is the `webhook-id` header). Claimed by one node at a time
 * (`FOR UPDATE SKIP LOCKED`, then `delivering` with a lease until `leaseUntil`).
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    environmentId: text('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventId: text('event_id')
      .notNull()
      .references(() => outboxEvents.id, { onDelete: 'cascade' }),
    /** The event's seq, copied: the order deliveries of one endpoint and one ordering key go out in. */
    eventSeq: integer('event_seq').notNull(),
    /** Deliveries with the same key (the response id, else the delivery's own id) go out one after another. */
    orderingKey: text('ordering_key').notNull(),
    status: text('status').$type<DeliveryStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    leaseToken: text('lease_token'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('webhook_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    index('webhook_deliveries_lease_idx')
      .on(t.leaseUntil)
      .where(sql`${t.status} = 'delivering'`),
    // The claim's per-endpoint scan: the endpoint's oldest due deliveries first, stopping after a few.
    index('webhook_deliveries_endpoint_due_idx')
      .on(t.endpointId, t.nextAttemptAt, t.eventSeq)
      .where(sql`${t.status} = 'pending'`),
    index('webhook_deliveries_order_idx')
      .on(t.endpointId, t.orderingKey, t.eventSeq)
      .where(sql`${t.status} in ('pending', 'delivering')`),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt, t.id),
    // Deleting an event cascades to its deliveries (retention, erasure): found by this index, not a scan.
    index('webhook_deliveries_event_idx').on(t.eventId),
    check('webhook_deliveries_status_check', sql`${t.status} in ('pending', 'delivering', 'succeeded', 'failed')`),
  ],
);

/** One HTTP attempt of a delivery: what the receiver answered (or why there was no answer) and how long it took. */
export const NOTIFICATION_KINDS = ['team', 'respondent'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
/** `sending`: claimed by a node (leased); `suppressed`: an abuse limit kept it back; it is never sent. */
export const NOTIFICATION_STATUSES = ['pending', 'sending', 'sent', 'failed', 'suppressed'] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

/**
 * One e-mail to one recipient about one response: the mail outbox, written in the submission's
 * statement or transaction (events/outbox.ts) and sent by one node (notifications/dispatcher.ts). The
 * message is made when it is sent, from the response and the form as they are then.
 */
export const notificationDeliveries = pgTable(
  'notification_deliveries',
  {
    id: text('id').primaryKey(),
    environmentId: text('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    formId: text('form_id')
      .notNull()
      .references(() => forms.id, { onDelete: 'cascade' }),
    /** No foreign key: the log outlives a deleted or erased response (the recipient is masked then). */
    responseId: text('response_id').notNull(),
    kind: text('kind').$type<NotificationKind>().notNull(),
    /** The event that triggered it: response.finished or response.invalid. */
    trigger: text('trigger').notNull(),
    recipient: text('recipient').notNull(),
    /** The rule that asked for it, as it was then: includeAnswers, subject, body. */
    rule: jsonb('rule').$type<{ includeAnswers: boolean; subject?: string | undefined; body?: string | undefined }>().notNull(),
    /** One delivery per response, rule and address (lower case): a response finished twice sends once. */
    dedupeKey: text('dedupe_key').notNull(),
    status: text('status').$type<NotificationStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    leaseToken: text('lease_token'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    /** The SMTP server's last reply (or the connection error). */
    lastReply: text('last_reply'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('notification_deliveries_dedupe_idx').on(t.responseId, t.dedupeKey),
    index('notification_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    index('notification_deliveries_lease_idx')
      .on(t.leaseUntil)
      .where(sql`${t.status} = 'sending'`),
    // The form's delivery log (newest first), and the confirmation limits' counts.
    index('notification_deliveries_form_idx').on(t.formId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('notification_deliveries_kind_idx').on(t.formId, t.kind, t.createdAt),
    check('notification_deliveries_status_check', sql`${t.status} in ('pending', 'sending', 'sent', 'failed', 'suppressed')`),
    check('notification_deliveries_kind_check', sql`${t.kind} in ('team', 'respondent')`),
  ],
);

export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: text('id').primaryKey(),
    deliveryId: text('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    durationMs: integer('duration_ms').notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
    succeeded: boolean('succeeded').notNull(),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId, t.attempt)],
);

// ---------------------------------------------------------------- privacy and audit

/**
 * The audit log: one row per administrative action, newest first per environment. Holds who
 * (`actorKind` admin | apiKey | system, and the key's id), what (`action`, e.g. `responses.delete`)
 * and on which ids; `details` carries counts and setting values — never secrets or personal data.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: text('id').primaryKey(),
    environmentId: text('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    actorKind: text('actor_kind').$type<'admin' | 'apiKey' | 'system'>().notNull(),
    actorKeyId: text('actor_key_id'),
    action: text('action').notNull(),
    targetIds: text('target_ids')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    details: jsonb('details').$type<Record<string, string | number | boolean | null>>().notNull().default({}),
  },
  (t) => [index('audit_log_environment_created_idx').on(t.environmentId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())],
);

/**
 * That a person was erased: when, by whom, how many rows went. The lead id is kept (a random id that
 * no longer leads anywhere) so that erasing again answers with this record; nothing else of the person.
 */
export const erasures = pgTable(
  'erasures',
  {
    id: text('id').primaryKey(),
    environmentId: text('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    leadId: text('lead_id').notNull(),
    createdAt: createdAt(),
    actorKind: text('actor_kind').$type<'admin' | 'apiKey' | 'system'>().notNull(),
    actorKeyId: text('actor_key_id'),
    responsesDeleted: integer('responses_deleted').notNull(),
    webhookEventsDeleted: integer('webhook_events_deleted').notNull(),
  },
  (t) => [uniqueIndex('erasures_environment_lead_uq').on(t.environmentId, t.leadId)],
);

/**
 * Scheduled jobs that run once per interval across every node: the last run of each. A node claims a
 * run by moving `startedAt` forward only when the previous run is at least an interval old.
 */
export const jobRuns = pgTable('job_runs', {
  name: text('name').primaryKey(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
  /** running | succeeded | failed */
  status: text('status').notNull(),
  /** Responses deleted by the run (retention and purge together). */
  responsesDeleted: integer('responses_deleted').notNull().default(0),
  formsPurged: integer('forms_purged').notNull().default(0),
  error: text('error'),
  /** The node that ran it (hostname:pid). */
  node: text('node').notNull().default(''),
});
/**
 * Files uploaded to FileUploader components (src/uploads/). The bytes live in the file storage
 * (DATA_DIR/uploads or an S3 bucket) under `storage_key`. An upload belongs to no response until a
 * submission answers with it; unattached uploads (never used, replaced, or whose response was deleted:
 * `response_id` is set to null) are swept with their files after a day. No foreign key to forms or
 * environments: the row must outlive them until its file is removed.
 */
export const uploads = pgTable(
  'uploads',
  {
    id: text('id').primaryKey(),
    environmentId: text('environment_id').notNull(),
    formId: text('form_id').notNull(),
    componentId: text('component_id').notNull(),
    responseId: text('response_id').references(() => responses.id, { onDelete: 'set null' }),
    storageKey: text('storage_key').notNull(),
    name: text('name').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('uploads_response_idx').on(t.responseId),
    index('uploads_form_idx').on(t.formId),
    index('uploads_unattached_created_idx')
      .on(t.createdAt)
      .where(sql`${t.responseId} is null`),
  ],
);
