/**
 * Expected failures, raised by services and mapped to GraphQL errors (extensions.code) and from
 * there to REST statuses and bodies by the one catalogue in `graphql/errors.ts`.
 */
export type ErrorCode = 'BAD_USER_INPUT' | 'UNAUTHENTICATED' | 'FORBIDDEN' | 'NOT_FOUND' | 'CONFLICT' | 'PRECONDITION_FAILED' | 'UNPROCESSABLE' | 'RATE_LIMITED' | 'UNAVAILABLE';

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Per-field problems of a BAD_USER_INPUT. */
    readonly errors?: FieldError[],
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** A key that lacks a scope: REST 403 `{message}`, GraphQL FORBIDDEN with `extensions.requiredScope`. */
export class MissingScopeError extends AppError {
  constructor(readonly requiredScope: string) {
    super('FORBIDDEN', `API key lacks the scope ${requiredScope}`);
  }
}

export const invalidInput = (errors: FieldError[], message = 'Invalid request body') => new AppError('BAD_USER_INPUT', message, errors);
export const notFound = (message: string) => new AppError('NOT_FOUND', message);
export const forbidden = (message = 'API key does not grant access to this environment') => new AppError('FORBIDDEN', message);
export const missingCredentials = () => new AppError('UNAUTHENTICATED', 'Missing API key');
export const invalidCredentials = () => new AppError('UNAUTHENTICATED', 'Invalid API key');
export const unavailable = () => new AppError('UNAVAILABLE', 'Service unavailable');

/** A validation problem as the API reports it. */
export interface FieldError {
  message: string;
  path: (string | number)[];
}

export function toFieldErrors(issues: readonly { message: string; path?: readonly PropertyKey[] | undefined }[]): FieldError[] {
  return issues.map((issue) => ({
    message: issue.message,
    path: (issue.path ?? []).map((segment) => (typeof segment === 'number' ? segment : String(segment))),
  }));
}

/** An update that named the version it changes (If-Match, `expectedVersion`) when another one is current. */
export const versionChanged = (current: number) => new AppError('PRECONDITION_FAILED', `Form was changed; version ${current} is current`);
