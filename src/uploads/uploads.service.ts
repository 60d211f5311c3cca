/**
 * Uploaded files of the components that take them (their module's `uploads`): checking and storing
 * them, attaching them to the response that answers with them, serving them, and removing them.
 *
 * - An upload is stored at once (checked first: type by content, size; a rejected file is never
 *   stored, and when one file of a request is rejected none of it is kept).
 * - It belongs to no response until a submission answers with its id; `syncResponseUploads` then
 *   attaches it (and detaches files the response no longer answers with).
 * - Unattached uploads older than UNATTACHED_TTL_MS are swept with their files (on later uploads):
 *   files never used, replaced, or whose response was deleted (its rows' `response_id` become null).
 * - Deleting responses (one, bulk, erasure, retention) removes their files once each batch commits
 *   (src/privacy/files.ts, through `removeUploads`); `removeFilesOf` and `removeFilesOfForm` remove
 *   those of given responses or of a purged form.
 */
import { and, eq, inArray, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { uploads } from '../db/schema.ts';
import { createId } from '../ids.ts';
import { UploadedFile } from '../components/answers.ts';
import { moduleOf } from '../components/catalogue.ts';
import { checkFile } from './file-types.ts';
import type { FileStorage } from './storage.ts';
import type { FieldError } from '../errors.ts';
import type { StoredComponent, ResponseAnswer } from '../db/json-columns.ts';

export type UploadRow = typeof uploads.$inferSelect;

/** A day: long enough to finish a form after uploading, short enough not to keep abandoned files. */
export const UNATTACHED_TTL_MS = 24 * 60 * 60 * 1000;
/** Most unattached uploads swept at once. */
const SWEEP_BATCH = 100;

export interface IncomingFile {
  name: string;
  bytes: Uint8Array;
}

export interface UploadTarget {
  environmentId: string;
  formId: string;
  component: StoredComponent;
}

const uploadedFileOf = (row: UploadRow) => new UploadedFile(row.id, row.name, row.contentType, row.size);

/** Longest file name kept (the rest is cut, the extension kept). */
const MAX_NAME = 200;
function cleanName(name: string): string {
  // The last path segment, without control characters; names are shown and sent as a download name.
  const base =
    name
      .split(/[\\/]/)
      .pop()!
      .replace(/\p{Cc}/gu, '')
      .trim() || 'file';
  if (base.length <= MAX_NAME) return base;
  const dot = base.lastIndexOf('.');
  const extension = dot > 0 && base.length - dot <= 10 ? base.slice(dot) : '';
  return base.slice(0, MAX_NAME - extension.length) + extension;
}

/** How a component takes uploads (its module's `uploads`), or undefined when it takes none. */
export const uploadRulesOf = (component: StoredComponent) => moduleOf(component.type)?.uploads;

/**
 * Checks and stores `files` for a component that takes uploads: every file is checked before any is
 * stored, and a storage failure removes what this call stored. Problems carry the file's index as their path.
 */
export async function storeUploads(
  db: Db,
  storage: FileStorage,
  target: UploadTarget,
  files: readonly IncomingFile[],
  limits: { maxBodyBytes: number },
): Promise<{ ok: true; files: UploadedFile[] } | { ok: false; errors: FieldError[] }> {
  const rules = uploadRulesOf(target.component)!.limits(target.component, limits.maxBodyBytes);
  const errors: FieldError[] = [];
  if (files.length === 0) errors.push({ message: 'Choose a file to upload', path: [] });
  if (files.length > rules.maxFiles) errors.push({ message: rules.maxFiles === 1 ? 'Upload one file' : `Upload at most ${rules.maxFiles} files`, path: [] });
  const checked: { file: IncomingFile; name: string; contentType: string }[] = [];
  for (const [index, file] of files.entries()) {
    const name = cleanName(file.name);
    const check = await checkFile(name, file.bytes, rules.allowedTypes, rules.maxBytes);
    if (!check.ok) errors.push({ message: check.message, path: [index] });
    else checked.push({ file, name, contentType: check.contentType });
  }
  if (errors.length > 0) return { ok: false, errors };

  const rows = checked.map(({ file, name, contentType }) => {
    const id = `upl_${createId()}`;
    return {
      id,
      environmentId: target.environmentId,
      formId: target.formId,
      componentId: target.component.id,
      storageKey: `${target.formId}/${id}`,
      name,
      contentType,
      size: file.bytes.byteLength,
    };
  });
  const stored: string[] = [];
  try {
    for (const [index, row] of rows.entries()) {
      await storage.put(row.storageKey, checked[index]!.file.bytes, row.contentType);
      stored.push(row.storageKey);
    }
    await db.insert(uploads).values(rows);
  } catch (error) {
    await storage.remove(stored).catch(() => undefined);
    throw error;
  }
  // Old unattached uploads go as new ones come (a failure here only delays it to the next upload).
  await sweepUnattachedUploads(db, storage).catch(() => 0);
  return { ok: true, files: rows.map((row) => new UploadedFile(row.id, row.name, row.contentType, row.size)) };
}

/**
 * Replaces upload ids in the answers of components that take uploads with the files they name, when they are uploads of
 * that component of this form not attached to another response. Other values stay as they are (the
 * component's answer rules then report them).
 */
export async function resolveUploadAnswers(
  db: Db,
  form: { id: string; steps: readonly { components: readonly StoredComponent[] }[] },
  raw: Record<string, unknown>,
  responseId: string | undefined,
): Promise<void> {
  const uploaders = new Map(form.steps.flatMap((step) => step.components.filter((c) => uploadRulesOf(c)).map((c) => [c.id, c] as const)));
  const wanted = new Map<string, string>(); // upload id → component id
  for (const [questionId, value] of Object.entries(raw)) {
    if (!uploaders.has(questionId)) continue;
    for (const item of Array.isArray(value) ? value : [value]) if (typeof item === 'string' && item.startsWith('upl_')) wanted.set(item, questionId);
  }
  if (wanted.size === 0) return;
  const rows = await db
    .select()
    .from(uploads)
    .where(and(eq(uploads.formId, form.id), inArray(uploads.id, [...wanted.keys()].slice(0, 1000))));
  const usable = new Map(
    rows.filter((row) => wanted.get(row.id) === row.componentId && (row.responseId === null || row.responseId === responseId)).map((row) => [row.id, uploadedFileOf(row)] as const),
  );
  for (const [questionId, value] of Object.entries(raw)) {
    if (!uploaders.has(questionId)) continue;
    const swap = (item: unknown) => (typeof item === 'string' ? (usable.get(item) ?? item) : item);
    raw[questionId] = Array.isArray(value) ? value.map(swap) : swap(value);
  }
}

/** The upload ids a response's answers use. */
function uploadIdsOf(data: readonly ResponseAnswer[]): string[] {
  return data.flatMap(({ response }) => moduleOf(response.type)?.uploads?.uploadIds(response) ?? []);
}

/** Whether a form has a component that takes uploads: only then can an upload belong to one of its responses. */
const takesFiles = (form: { steps: readonly { components: readonly StoredComponent[] }[] }) =>
  form.steps.some((step) => step.components.some((component) => uploadRulesOf(component) !== undefined));

/**
 * Attaches the uploads a response answers with, and detaches those it no longer does (swept later).
 * No statement at all when none can be attached or detached: the form has no component that takes uploads
 * (uploads are made for one of the form's), or the response was created by this submission and answers no file.
 */
export async function syncResponseUploads(
  db: Db,
  form: { steps: readonly { components: readonly StoredComponent[] }[] },
  submitted: { response: { id: string; formId: string; data: readonly ResponseAnswer[] }; created: boolean },
): Promise<void> {
  const { response } = submitted;
  if (!takesFiles(form)) return;
  const used = uploadIdsOf(response.data);
  if (used.length === 0 && submitted.created) return;
  if (used.length === 0) {
    // Most submissions answer no file: one statement detaches whatever this response used before,
    // instead of a transaction on every submission.
    await db.update(uploads).set({ responseId: null }).where(eq(uploads.responseId, response.id));
    return;
  }
  await db.transaction(async (tx) => {
    const attached = await tx.select({ id: uploads.id }).from(uploads).where(eq(uploads.responseId, response.id));
    const stale = attached.map((row) => row.id).filter((id) => !used.includes(id));
    if (stale.length > 0) await tx.update(uploads).set({ responseId: null }).where(inArray(uploads.id, stale));
    await tx
      .update(uploads)
      .set({ responseId: response.id })
      .where(and(eq(uploads.formId, response.formId), inArray(uploads.id, used), or(isNull(uploads.responseId), eq(uploads.responseId, response.id))));
  });
}

/** An upload of an environment (any for `null`: the admin token, or a signed URL). */
export async function findUpload(db: Db, uploadId: string, environmentId: string | null): Promise<UploadRow | undefined> {
  const [row] = await db
    .select()
    .from(uploads)
    .where(environmentId === null ? eq(uploads.id, uploadId) : and(eq(uploads.id, uploadId), eq(uploads.environmentId, environmentId)));
  return row;
}

/** Removes these uploads' files, then their rows; returns how many. */
export async function removeUploads(db: Db, storage: FileStorage, rows: readonly Pick<UploadRow, 'id' | 'storageKey'>[]): Promise<number> {
  if (rows.length === 0) return 0;
  // Files first: a row left behind by a failure is retried by the sweep; a file without a row would never be.
  await storage.remove(rows.map((row) => row.storageKey));
  await db.delete(uploads).where(
    inArray(
      uploads.id,
      rows.map((row) => row.id),
    ),
  );
  return rows.length;
}

/** Removes the files of these responses (response deletion and erasure); returns how many. */
export async function removeFilesOf(db: Db, storage: FileStorage, responseIds: readonly string[]): Promise<number> {
  if (responseIds.length === 0) return 0;
  const rows = await db
    .select({ id: uploads.id, storageKey: uploads.storageKey })
    .from(uploads)
    .where(inArray(uploads.responseId, [...responseIds]));
  return removeUploads(db, storage, rows);
}

/** Removes every file uploaded to a form, attached or not; returns how many. */
export async function removeFilesOfForm(db: Db, storage: FileStorage, formId: string): Promise<number> {
  const rows = await db.select({ id: uploads.id, storageKey: uploads.storageKey }).from(uploads).where(eq(uploads.formId, formId));
  return removeUploads(db, storage, rows);
}

/** Removes unattached uploads older than UNATTACHED_TTL_MS (a batch at a time); returns how many. */
export async function sweepUnattachedUploads(db: Db, storage: FileStorage, now = new Date()): Promise<number> {
  const rows = await db
    .select({ id: uploads.id, storageKey: uploads.storageKey })
    .from(uploads)
    .where(and(isNull(uploads.responseId), lt(uploads.createdAt, new Date(now.getTime() - UNATTACHED_TTL_MS))))
    .limit(SWEEP_BATCH);
  return removeUploads(db, storage, rows);
}
