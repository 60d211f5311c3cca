/**
 * Files of responses. Every deletion of responses (one, bulk, erasure, retention, form purge) goes
 * through `deleteResponses` (deletion.service.ts), which calls `removeFilesOf` with the ids of the
 * responses it deleted, inside the batch's transaction. formloom stores no uploaded files yet; the file
 * uploads plug their removal in here, so that every deletion path removes a response's files with it.
 */
import type { Db } from '../db/client.ts';

export async function removeFilesOf(_tx: Db, _responseIds: readonly string[]): Promise<number> {
  return 0;
}
