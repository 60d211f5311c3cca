import type { Principal } from '../auth/auth.service.ts';
import type { Db } from '../db/client.ts';

/** What every resolver gets: the database handle, the authenticated caller, and response settings. */
export interface GraphQLContext {
  db: Db;
  principal: Principal;
  /** Unfinished responses untouched this long are "dropped off" (status 3). */
  dropOffMs: number;
  /**
   * The request's `Idempotency-Key` (generateForm honours it); `replayed` is set when the operation
   * answered with a stored result instead of doing the work again.
   */
  idempotency?: { key: string; replayed: boolean } | undefined;
}
