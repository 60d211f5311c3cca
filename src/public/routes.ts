/** Public form pages (`/s/:formId`) and the public submission API. Being built (issue 3). */
import { Hono } from 'hono';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { AppEnv } from '../http.ts';

export interface PublicDeps {
  config: Config;
  db: Db;
  logger: Logger;
  /** Key for signing the public pages' cookies (derived from the admin token). */
  cookieSecret: string;
}

export function publicRoutes(_deps: PublicDeps) {
  return new Hono<AppEnv>();
}
