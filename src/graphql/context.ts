import type { Principal } from '../auth/auth.service.ts';
import type { Db } from '../db/client.ts';

/** What every resolver gets: the database handle and the authenticated caller. */
export interface GraphQLContext {
  db: Db;
  principal: Principal;
}
