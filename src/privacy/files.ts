/**
 * Files of deleted responses. Every deletion of responses (one, bulk, erasure, retention, form purge)
 * goes through `deleteResponses` (deletion.service.ts). Inside each batch's transaction it reads the
 * uploads of the batch's responses (`uploadsOf`) before deleting them; the foreign key then detaches
 * those uploads (`response_id` set null). Once the batch has committed their files and rows are removed
 * (`removeDetachedUploads`), so a rolled-back deletion never loses a file. Should the process stop in
 * between, the detached uploads are unattached ones, and the uploads sweep removes them within a day.
 */
import { inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { uploads } from '../db/schema.ts';
import type { FileStorage } from '../uploads/storage.ts';
import { removeUploads } from '../uploads/uploads.service.ts';

export type DetachedUpload = { id: string; storageKey: string };

/** The uploads attached to these responses. */
export async function uploadsOf(tx: Db, responseIds: readonly string[]): Promise<DetachedUpload[]> {
  if (responseIds.length === 0) return [];
  return tx
    .select({ id: uploads.id, storageKey: uploads.storageKey })
    .from(uploads)
    .where(inArray(uploads.responseId, [...responseIds]));
}

/** Removes the files and rows of uploads detached by a committed deletion; without a storage, the sweep will. */
export async function removeDetachedUploads(db: Db, storage: FileStorage | undefined, detached: readonly DetachedUpload[]): Promise<number> {
  if (!storage || detached.length === 0) return 0;
  return removeUploads(db, storage, detached);
}
