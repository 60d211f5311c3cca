/** v1 REST: GET /api/v1/responses. Being built (issue 4). */
import { Hono } from 'hono';
import type { AppEnv } from '../http.ts';
import type { RestDeps } from './respond.ts';

export function responsesRoutes(_deps: RestDeps) {
  return new Hono<AppEnv>();
}
