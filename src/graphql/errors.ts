/**
 * The error catalogue: one mapping from a failure to its GraphQL `extensions.code` and its REST
 * status and body. Services throw `AppError`; anything else is an unexpected 500 whose details only
 * reach the log.
 */
import { GraphQLError } from 'graphql';
import type { Context } from 'hono';
import { isDatabaseUnavailable } from '../db/availability.ts';
import { AppError, MissingScopeError, unavailable, type ErrorCode } from '../errors.ts';
import type { AppEnv } from '../http.ts';

export const HTTP_STATUS: Record<ErrorCode, 400 | 401 | 403 | 404 | 409 | 412 | 422 | 429 | 503> = {
  BAD_USER_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PRECONDITION_FAILED: 412,
  UNPROCESSABLE: 422,
  RATE_LIMITED: 429,
  UNAVAILABLE: 503,
};

export const INTERNAL_ERROR_BODY = { message: 'Internal server error' } as const;

export function appErrorOf(error: unknown): AppError | undefined {
  if (error instanceof AppError) return error;
  if (error instanceof GraphQLError) return appErrorOf(error.originalError);
  // The database going away is expected: a 503 to retry, not a 500 to investigate.
  if (isDatabaseUnavailable(error)) return unavailable();
  return undefined;
}

/** The GraphQL face of an AppError. */
export function toGraphQLError(error: AppError, from?: GraphQLError): GraphQLError {
  return new GraphQLError(error.message, {
    nodes: from?.nodes,
    source: from?.source,
    positions: from?.positions,
    path: from?.path,
    originalError: error,
    extensions: {
      code: error.code,
      ...(error.errors ? { errors: error.errors } : {}),
      ...(error instanceof MissingScopeError ? { requiredScope: error.requiredScope } : {}),
      // graphql-yoga answers with this status (and drops the `http` key from the body): a client or
      // load balancer sees a retryable 503, as on REST.
      ...(error.code === 'UNAVAILABLE' ? { http: { status: HTTP_STATUS.UNAVAILABLE } } : {}),
    },
  });
}

/** graphql-yoga's maskError: expected errors keep their code; unexpected ones become a generic message. */
export function maskGraphQLError(error: unknown, message: string): Error {
  const appError = appErrorOf(error);
  if (appError) return toGraphQLError(appError, error instanceof GraphQLError ? error : undefined);
  // Errors graphql-js raises itself (parse, validation, variable coercion, which wraps a GraphQLError of
  // its own) are the client's and keep their text.
  if (error instanceof GraphQLError && (!error.originalError || error.originalError instanceof GraphQLError)) return withoutEngineDetails(error);
  return new GraphQLError(message, { extensions: { code: 'INTERNAL_SERVER_ERROR' } });
}

/**
 * yoga puts the engine's own error (e.g. JSON.parse's SyntaxError message) into
 * `extensions.originalError`: never for the client. Dropped in place. yoga also reads that field to
 * choose the status (a request error keeps its 400 only while it is there), so the error's status is
 * made to apply to application/json answers too (`http.spec: false`).
 */
function withoutEngineDetails(error: GraphQLError): GraphQLError {
  const extensions = error.extensions as { originalError?: unknown; http?: { spec?: boolean } };
  if (extensions.originalError === undefined) return error;
  delete extensions.originalError;
  if (extensions.http) extensions.http.spec = false;
  return error;
}

export interface RestError {
  status: number;
  body: { message: string; errors?: { message: string; path: (string | number)[] }[]; opensAt?: string };
}

/** What an error's REST body says besides its message: a form not open yet, when it opens. */
const extraFields = (error: AppError): { opensAt?: string } => ('opensAt' in error && typeof error.opensAt === 'string' ? { opensAt: error.opensAt } : {});

/** The GraphQL-over-HTTP body of an error raised outside an operation (e.g. while authenticating). */
export function graphQLErrorBody(error: AppError) {
  return {
    errors: [
      {
        message: error.message,
        extensions: { code: error.code, ...(error.errors ? { errors: error.errors } : {}), ...(error instanceof MissingScopeError ? { requiredScope: error.requiredScope } : {}) },
      },
    ],
  };
}

/** The REST status and body of an error raised while running an operation. */
function restErrorOf(error: unknown): RestError | undefined {
  const appError = appErrorOf(error);
  if (!appError) return undefined;
  return {
    status: HTTP_STATUS[appError.code],
    body: appError.errors ? { message: appError.message, errors: appError.errors } : { message: appError.message, ...extraFields(appError) },
  };
}

/** Answers with the error's documented status and body; unexpected errors are a logged 500. */
export function respondWithError(c: Context<AppEnv>, error: unknown): Response {
  const known = restErrorOf(error);
  if (known) return c.json(known.body, known.status as 400);
  c.var.log.error({ err: error }, 'unexpected error');
  return c.json(INTERNAL_ERROR_BODY, 500);
}
