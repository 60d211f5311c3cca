/** Tables. Every tenant-owned row carries `environment_id`; every query filters on it. */
import { sql } from 'drizzle-orm';
import { check, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { StoredStep } from '../forms/components.ts';
import type { Theme } from '../forms/theme.ts';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** An environment is a tenant; its id is the public "Site ID". */
export const environments = pgTable('environments', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  createdAt: createdAt(),
});

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
  },
  (t) => [index('api_keys_environment_id_idx').on(t.environmentId)],
);

export const FORM_STATUSES = ['draft', 'published'] as const;
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
    /** The template this form was generated from, if any. */
    sourceFormId: text('source_form_id'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** Soft delete: a deleted form is not served and can't be a template. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    index('forms_environment_id_idx').on(t.environmentId),
    check('forms_status_check', sql`${t.status} in ('draft', 'published')`),
  ],
);
