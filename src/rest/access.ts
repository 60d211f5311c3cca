/**
 * What each REST route needs, declared on the route itself (`routes.get(path, needs('forms:read'), …)`):
 * an API key scope, the admin token, or nothing (`public`). Checked before the body or parameters are
 * read, so a caller without access learns nothing from them. test/auth/scopes.test.ts walks every
 * route of the app and fails on one that declares nothing.
 */
import type { MiddlewareHandler } from 'hono';
import { requireAdmin, requireScope } from '../auth/auth.service.ts';
import type { Scope } from '../auth/scopes.ts';
import { respondWithError } from '../graphql/errors.ts';
import type { AppEnv } from '../http.ts';

export type RouteAccess = Scope | 'admin' | 'public';

const ACCESS = Symbol('routeAccess');
type AccessMiddleware = MiddlewareHandler<AppEnv> & { [ACCESS]: RouteAccess };

export interface NeedsOptions {
  /** Check only API keys: other callers are the handler's to judge (a signed file URL needs no key). */
  onlyApiKeys?: boolean;
}

/** The middleware that refuses a caller without `access`: 401 without usable credentials, else 403. */
export function needs(access: RouteAccess, options: NeedsOptions = {}): MiddlewareHandler<AppEnv> {
  const middleware: MiddlewareHandler<AppEnv> = async (c, next) => {
    const { principal } = c.var;
    if (access !== 'public' && !(options.onlyApiKeys && principal.kind !== 'apiKey')) {
      try {
        if (access === 'admin') requireAdmin(principal);
        else requireScope(principal, access);
      } catch (error) {
        return respondWithError(c, error);
      }
    }
    await next();
  };
  return Object.assign(middleware, { [ACCESS]: access });
}

/** What a route handler declares, if it is a `needs` middleware. */
export function routeAccessOf(handler: unknown): RouteAccess | undefined {
  return typeof handler === 'function' ? (handler as Partial<AccessMiddleware>)[ACCESS] : undefined;
}
