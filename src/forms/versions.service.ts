/**
 * Versions of forms' definitions (`form_versions`): each change of a definition (name, steps, hidden
 * fields, locale, notifications: FORM_DEFINITION_COLUMNS) is a new version, its whole definition kept as one snapshot. A
 * response is served and checked against the version it started on (`meta.formVersion`), so a form can
 * change while people are answering it; the versions are listed for the API.
 *
 * Snapshots are written in the transaction that makes the version (generate, import, update) and never
 * changed; they go with their form.
 */
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { preparedQuery } from '../db/prepared.ts';
import { rowsOf } from '../db/rows.ts';
import { FORM_DEFINITION_COLUMNS, formVersionIds, formVersions, type FormDefinition, type forms } from '../db/schema.ts';
import { pageOf, type KeysetPosition, type Page } from '../keyset.ts';
import { isGuard } from '../components/catalogue.ts';

type FormRow = typeof forms.$inferSelect;

/** The definition's fields (one per FORM_DEFINITION_COLUMNS entry). */
export const DEFINITION_FIELDS = Object.keys(FORM_DEFINITION_COLUMNS) as (keyof FormDefinition)[];

/** A form's definition: its definition fields and nothing else. */
export function definitionOf(form: FormDefinition): FormDefinition {
  return Object.fromEntries(DEFINITION_FIELDS.map((field) => [field, form[field]])) as FormDefinition;
}

/**
 * What a response pinned to an older version sees of it: everything but the notifications. Who hears of
 * a response is who the form names now (an address taken off the list hears of no more responses, an
 * alert turned on covers responses already under way), even though each version's snapshot keeps them.
 */
const PINNED_FIELDS = DEFINITION_FIELDS.filter((field) => field !== 'notifications');

/**
 * The form as it was at `version`: that version's definition (but its notifications: PINNED_FIELDS), the
 * rest (id, theme, status, environment) as the form is now. A field the snapshot predates keeps the
 * form's current value.
 */
export function atVersion<F extends FormRow>(form: F, version: number, definition: Partial<FormDefinition>): F {
  const fields = Object.fromEntries(PINNED_FIELDS.filter((field) => definition[field] !== undefined).map((field) => [field, definition[field]]));
  return { ...form, ...fields, version };
}

/**
 * Stores the snapshot of `form`'s current version (in the transaction that made it), its size, and the
 * ids it holds among the form's known ids (each with what it is in this version).
 */
export async function recordVersion(tx: Db, form: FormRow): Promise<void> {
  const definition = definitionOf(form);
  const ids = new Map<string, { id: string; kind: 'step' | 'component'; type: string | null }>();
  for (const step of form.steps) {
    ids.set(step.id, { id: step.id, kind: 'step', type: null });
    for (const component of step.components) ids.set(component.id, { id: component.id, kind: 'component', type: component.type });
  }
  await Promise.all([
    tx.insert(formVersions).values({
      formId: form.id,
      environmentId: form.environmentId,
      version: form.version,
      definition,
      definitionBytes: Buffer.byteLength(JSON.stringify(definition)),
      createdAt: form.updatedAt,
    }),
    // One parameter for every id (a form may hold 10,000): unpacked by the database.
    tx.execute(sql`
      insert into ${formVersionIds} (form_id, id, kind, type)
      select ${form.id}::text, r.id, r.kind, r.type from jsonb_to_recordset(${JSON.stringify([...ids.values()])}::jsonb) as r(id text, kind text, type text)
      on conflict (form_id, id) do update set kind = excluded.kind, type = excluded.type
      where (${formVersionIds.kind}, ${formVersionIds.type}) is distinct from (excluded.kind, excluded.type)`),
  ]);
}

export interface FormVersion {
  formId: string;
  version: number;
  definition: FormDefinition;
  createdAt: Date;
}

/** Version `version` of form `formId`, or undefined. (The caller has found the form in its scope.) */
export async function findVersion(db: Db, formId: string, version: number): Promise<FormVersion | undefined> {
  const query = preparedQuery(db, 'form_version', (handle) =>
    handle
      .select({ formId: formVersions.formId, version: formVersions.version, definition: formVersions.definition, createdAt: formVersions.createdAt })
      .from(formVersions)
      .where(and(eq(formVersions.formId, sql.placeholder('formId')), eq(formVersions.version, sql.placeholder('version'))))
      .prepare('form_version'),
  );
  const [row] = await query.execute({ formId, version });
  return row;
}

/**
 * The form as a response on version `version` sees it: the form itself when that is its current
 * version, else that version's definition over it (`atVersion`). Undefined when there is no such version.
 */
export async function formAtVersion<F extends FormRow>(db: Db, form: F, version: number): Promise<F | undefined> {
  if (version === form.version) return form;
  const found = await findVersion(db, form.id, version);
  return found ? atVersion(form, found.version, found.definition) : undefined;
}

/**
 * The version a response is answered on: the one it started on (`meta.formVersion`) while the response is
 * younger than `maxAgeMs` (counted from its start; 0: no limit) and that version has every guard of the
 * current one (the captchas and required consents, by component id: ComponentModule.guards); otherwise the
 * current version. A response moved there keeps its answers by question id and walks its path again on it.
 */
export async function versionForResponse<F extends FormRow>(db: Db, current: F, response: { meta: unknown; createdAt: Date }, maxAgeMs: number, now = new Date()): Promise<F> {
  const version = responseFormVersion(response.meta);
  if (version === current.version) return current;
  if (maxAgeMs > 0 && now.getTime() - response.createdAt.getTime() > maxAgeMs) return current;
  const pinned = await formAtVersion(db, current, version);
  return pinned && hasGuardsOf(pinned, current) ? pinned : current;
}

function hasGuardsOf(pinned: FormRow, current: FormRow): boolean {
  const kept = new Set(pinned.steps.flatMap((step) => step.components.filter(isGuard).map((component) => `${component.type}:${component.id}`)));
  return current.steps.every((step) => step.components.filter(isGuard).every((component) => kept.has(`${component.type}:${component.id}`)));
}

/** Largest version number (PostgreSQL's `integer`). */
const MAX_VERSION = 2_147_483_647;

/** A version number as a client writes it (`?version=3`, a form field), or undefined when it is not one. */
export function parseVersion(text: string): number | undefined {
  return /^[1-9]\d{0,9}$/.test(text) && Number(text) <= MAX_VERSION ? Number(text) : undefined;
}

/**
 * The version a response started on, from its metadata. Responses stored before forms had versions
 * carry none: they answered version 1, the version every form had then.
 */
export function responseFormVersion(meta: unknown): number {
  const version = typeof meta === 'object' && meta !== null ? (meta as { formVersion?: unknown }).formVersion : undefined;
  return typeof version === 'number' && Number.isInteger(version) && version >= 1 ? version : 1;
}

/** `responseFormVersion` in SQL, of a response's `meta` column (summaries, filters). */
export const responseFormVersionSql = (meta: SQL) => sql`coalesce((${meta} ->> 'formVersion')::int, 1)`;

// ---------------------------------------------------------------- listing

/**
 * A version as a listing gives it: its number, time and definition's size, without the definition
 * (read by `versionDefinitions`, within a request's budget), and its keyset position (`created_at` to the
 * microsecond, and its number as the id), so that versions page with the cursors of every other listing
 * (src/keyset.ts).
 */
export interface ListedVersion {
  formId: string;
  version: number;
  createdAt: Date;
  /** Size of the definition as JSON text, in bytes. */
  definitionBytes: number;
  /** The version number as text: the position's id. */
  id: string;
  position: string;
}

/**
 * The versions of each of `formIds`, newest first, a page of `limit` each (after the keyset position
 * `after` when given), in one statement. A version's `created_at` grows with its number (an update
 * stamps its version later than anything before it: updateForm), so newest first is version order, and
 * the form's primary key is scanned backwards. A position whose id is not a version number names no
 * row: the page holds the versions created before its instant.
 */
export async function versionPages(db: Db, formIds: readonly string[], input: { after?: KeysetPosition | undefined; limit: number }): Promise<Page<ListedVersion>[]> {
  if (formIds.length === 0) return [];
  const after = input.after;
  const before = after === undefined ? sql`` : sql`and (created_at, version) < (${after.createdAt}::timestamptz, ${parseVersion(after.id) ?? 0}::int)`;
  type Row = { form_id: string; version: number; definition_bytes: number; created_at: string; position: string };
  const rows = rowsOf<Row>(
    await db.execute(sql`
      select v.form_id, v.version, v.definition_bytes, to_char(v.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at,
        to_char(v.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as position
      from (values ${sql.join(
        formIds.map((id) => sql`(${id}::text)`),
        sql`, `,
      )}) f(id)
      cross join lateral (
        select form_id, version, definition_bytes, created_at from ${formVersions}
        where form_id = f.id ${before}
        order by version desc
        limit ${input.limit + 1}
      ) v`),
  );
  const byForm = new Map<string, ListedVersion[]>();
  for (const row of rows) {
    const list = byForm.get(row.form_id) ?? [];
    list.push({
      formId: row.form_id,
      version: Number(row.version),
      id: String(row.version),
      position: row.position,
      definitionBytes: Number(row.definition_bytes),
      createdAt: new Date(row.created_at),
    });
    byForm.set(row.form_id, list);
  }
  return formIds.map((id) => pageOf(byForm.get(id) ?? [], input.limit));
}

/** The definitions of `versions` (of forms the caller has found in its scope), in their order, in one statement. */
export async function versionDefinitions(db: Db, versions: readonly { formId: string; version: number }[]): Promise<FormDefinition[]> {
  if (versions.length === 0) return [];
  type Row = { form_id: string; version: number; definition: FormDefinition | string };
  const rows = rowsOf<Row>(
    await db.execute(sql`
      select v.form_id, v.version, v.definition from ${formVersions} v
      join (values ${sql.join(
        versions.map((wanted) => sql`(${wanted.formId}::text, ${wanted.version}::int)`),
        sql`, `,
      )}) w(form_id, version) on v.form_id = w.form_id and v.version = w.version`),
  );
  const byKey = new Map(
    rows.map((row) => [`${row.form_id}:${Number(row.version)}`, typeof row.definition === 'string' ? (JSON.parse(row.definition) as FormDefinition) : row.definition]),
  );
  return versions.map((wanted) => byKey.get(`${wanted.formId}:${wanted.version}`)!);
}

/** What an id was in a form's versions: a step, or a component of a type. */
export type KnownId = { kind: 'step' } | { kind: 'component'; type: string };

/**
 * What each of `ids` was in any version of form `formId` (absent: in none), by key in
 * `form_version_ids`: the ids an update may keep. A component's type is the one of its latest version.
 */
export async function idsInVersions(db: Db, formId: string, ids: readonly string[]): Promise<Map<string, KnownId>> {
  const found = new Map<string, KnownId>();
  if (ids.length === 0) return found;
  const rows = await db
    .select({ id: formVersionIds.id, kind: formVersionIds.kind, type: formVersionIds.type })
    .from(formVersionIds)
    .where(and(eq(formVersionIds.formId, formId), inArray(formVersionIds.id, [...ids])));
  for (const row of rows) found.set(row.id, row.kind === 'step' ? { kind: 'step' } : { kind: 'component', type: row.type ?? '' });
  return found;
}
