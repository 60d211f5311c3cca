import type { Principal } from '../auth/auth.service.ts';
import type { Db } from '../db/client.ts';

/** What every resolver gets: the database handle, the authenticated caller, and response settings. */
export interface GraphQLContext {
  db: Db;
  principal: Principal;
  /** Unfinished responses untouched this long are "dropped off" (status 3). */
  dropOffMs: number;
}
