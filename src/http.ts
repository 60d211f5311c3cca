/** Hono environment shared by every route: the request's logger and authenticated caller. */
import type { Logger } from 'pino';
import type { Principal } from './auth/auth.service.ts';

export interface AppEnv {
  Variables: {
    log: Logger;
    principal: Principal;
    requestId: string;
    /** CSP frame-ancestors of public pages (FRAME_ANCESTORS). */
    frameAncestors?: string;
  };
}
