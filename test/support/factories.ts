/**
 * Factories for the read side: forms, leads and responses inserted directly in the stored shape
 * (the columns of `responses`, answers in the per-type shapes of docs/components.md), with timestamps
 * to the microsecond so ordering and cursors can be tested precisely.
 */
import { sql } from 'drizzle-orm';
import type { Database, Db } from '../../src/db/client.ts';
import { leads, responses } from '../../src/db/schema.ts';
import { importForm } from '../../src/forms/forms.service.ts';
import { readTemplateExample } from '../../src/bootstrap.ts';
import { createId } from '../../src/ids.ts';
import type { ResponseAnswer, ResponseMeta } from '../../src/db/json-columns.ts';

/** A live form in `environmentId` (the example template's steps). */
export async function createForm(db: Db, environmentId: string, name = 'Form') {
  const template = readTemplateExample();
  return importForm(db, { environmentId, name, theme: template.theme!, steps: template.steps });
}

export async function createLead(db: Db, environmentId: string, email: string | null = null) {
  const [row] = await db.insert(leads).values({ id: createId(), environmentId, email }).returning();
  return row!;
}

/** One answer of every type the read side knows, in the stored shapes. */
export function sampleAnswers(): ResponseAnswer[] {
  const base = { componentShapeVersion: '2.0' };
  return [
    {
      questionId: 'q-identity',
      response: { ...base, type: 'IdentityInfo', headline: 'Who are you?', firstName: 'Ada', lastName: 'Lovelace', emailAddress: 'ada@example.com', companyName: 'Analytical' },
    },
    { questionId: 'q-short', response: { ...base, type: 'ShortInput', headline: 'Role?', input: 'Engineer' } },
    { questionId: 'q-long', response: { ...base, type: 'LongInput', headline: 'Tell us more', input: 'Line one\nLine two' } },
    { questionId: 'q-dropdown', response: { ...base, type: 'Dropdown', headline: 'Size?', selected: 'M' } },
    { questionId: 'q-dropdown-multi', response: { ...base, type: 'Dropdown', headline: 'Tools?', selected: ['Git', 'Vim'] } },
    {
      questionId: 'q-options',
      response: {
        ...base,
        type: 'MultipleOptionsQuestion',
        headline: 'Pick',
        choices: [
          { key: 'a', value: true, index: 0 },
          { key: 'b', value: false, index: 1 },
        ],
        selectedOther: false,
      },
    },
    {
      questionId: 'q-calendar',
      response: {
        ...base,
        type: 'CalendlyScreen',
        headline: 'Book a call',
        eventScheduled: true,
        uri: 'https://api.calendly.com/scheduled_events/abc',
        meetingTime: '2026-01-02T10:00:00.000Z',
        meetingEndTime: '2026-01-02T10:30:00.000Z',
        ownerEmails: ['owner@example.com'],
        guestEmails: ['ada@example.com'],
      },
    },
    { questionId: 'q-disclaimer', response: { ...base, type: 'Disclaimer', headline: 'Terms', check: true } },
    { questionId: 'q-graphic', response: { ...base, type: 'GraphicOptions', headline: 'Style', index: 2, value: 'Bold' } },
    { questionId: 'q-file', response: { ...base, type: 'FileUploader', headline: 'CV', fileUrl: 'https://files.example.com/cv.pdf' } },
    { questionId: 'q-password', response: { ...base, type: 'PasswordInput', headline: 'Password', input: 'scrypt$hashed' } },
    { questionId: 'q-email', response: { ...base, type: 'EmailForm', headline: 'E-mail', emailAddress: 'ada@example.com' } },
  ];
}

export interface ResponseSeed {
  environmentId: string;
  formId: string;
  finished?: boolean;
  /** ISO 8601 with up to 6 fractional digits (kept to the microsecond), or a Date. */
  createdAt?: string | Date;
  updatedAt?: string | Date;
  dataUpdatedAt?: string | Date;
  id?: string;
  leadId?: string;
  data?: ResponseAnswer[];
  meta?: ResponseMeta;
  ip?: string;
  country?: string;
  visitedForm?: number;
  completedForm?: number;
}

const ts = (value: string | Date) => sql`${typeof value === 'string' ? value : value.toISOString()}::timestamptz`;

/** Inserts responses (creating one lead per environment when none is given); returns their ids in order. */
export async function insertResponses(db: Db, seeds: ResponseSeed[]): Promise<string[]> {
  if (seeds.length === 0) return [];
  const leadOf = new Map<string, string>();
  for (const seed of seeds) {
    if (!seed.leadId && !leadOf.has(seed.environmentId)) leadOf.set(seed.environmentId, (await createLead(db, seed.environmentId)).id);
  }
  const rows = seeds.map((seed) => {
    const createdAt = seed.createdAt ?? new Date();
    return {
      id: seed.id ?? createId(),
      environmentId: seed.environmentId,
      formId: seed.formId,
      leadId: seed.leadId ?? leadOf.get(seed.environmentId)!,
      finished: seed.finished ?? true,
      data: seed.data ?? sampleAnswers(),
      meta: seed.meta ?? { source: 'page' as const, userAgent: 'vitest' },
      ip: seed.ip ?? '203.0.113.7',
      country: seed.country ?? 'DE',
      visitedForm: seed.visitedForm ?? 1,
      completedForm: seed.completedForm ?? (seed.finished === false ? 0 : 1),
      createdAt: ts(createdAt),
      updatedAt: ts(seed.updatedAt ?? createdAt),
      dataUpdatedAt: ts(seed.dataUpdatedAt ?? seed.updatedAt ?? createdAt),
    };
  });
  // drizzle's value types want Dates for timestamps; SQL expressions keep the microseconds.
  await db.insert(responses).values(rows as unknown as (typeof responses.$inferInsert)[]);
  return rows.map((row) => row.id);
}

export async function insertResponse(db: Db, seed: ResponseSeed): Promise<string> {
  return (await insertResponses(db, [seed]))[0]!;
}

/**
 * `count` responses of one form, one second apart, the newest at `newest` and going back in time;
 * returned newest first. `finished` may vary per index.
 */
export async function insertTimeline(
  db: Db,
  {
    environmentId,
    formId,
    count,
    newest = Date.UTC(2026, 0, 1),
    finished = () => true,
  }: {
    environmentId: string;
    formId: string;
    count: number;
    newest?: number;
    finished?: (index: number) => boolean;
  },
): Promise<{ id: string; createdAt: string; finished: boolean }[]> {
  const seeds = Array.from({ length: count }, (_, i) => ({
    environmentId,
    formId,
    finished: finished(i),
    createdAt: new Date(newest - i * 1000).toISOString(),
  }));
  const ids = await insertResponses(db, seeds);
  return seeds.map((seed, i) => ({ id: ids[i]!, createdAt: seed.createdAt, finished: seed.finished }));
}

/** Bulk rows via generate_series (for EXPLAIN tests that need a table the planner takes seriously). */
export async function bulkInsertResponses(db: Database, { environmentId, formIds, count, leadId }: { environmentId: string; formIds: string[]; count: number; leadId: string }) {
  const forms = sql.raw(`array[${formIds.map((id) => `'${id.replace(/'/g, "''")}'`).join(',')}]::text[]`);
  await db.execute(sql`
    insert into responses (id, environment_id, form_id, lead_id, finished, data, created_at, updated_at, data_updated_at)
    select 'bulk-' || ${environmentId} || '-' || g, ${environmentId}, (${forms})[1 + g % ${formIds.length}], ${leadId}, g % 5 <> 0,
           '[]'::json, t, t, t
    from generate_series(1, ${count}) g,
         lateral (select timestamptz '2025-01-01T00:00:00Z' + g * interval '1 second' + (g % 997) * interval '1 microsecond' as t) x`);
}
