/** Shared pieces of the v1 REST adapters: run an operation and turn its errors into documented bodies. */
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { Context } from 'hono';
import type { z } from 'zod';
import { respondWithError } from '../graphql/errors.ts';
import { requireApiKey } from '../auth/auth.service.ts';
import { definitionBudget, type CaptchaKeyring, type GraphQLContext } from '../graphql/context.ts';
import { runOperation } from '../graphql/execute.ts';
import type { AppEnv } from '../http.ts';
import type { FieldError } from '../errors.ts';

/**
 * What the REST adapters need: what their operations' context takes (the database handle, the replicas
 * for lag-tolerant reads, the drop-off time, the webhook rules, the file storage), the captcha keyring,
 * and the deepest JSON nesting a body may have.
 */
export type RestDeps = Pick<GraphQLContext, 'db' | 'reads' | 'dropOffMs' | 'webhookRules' | 'fileStorage' | 'formMaxVersions' | 'smtpConfigured'> & {
  maxJsonDepth: number;
  /** GRAPHQL_MAX_DEFINITION_BYTES: each operation's budget of definition bytes (absent or 0: none). */
  maxDefinitionBytes?: number | undefined;
  /** Environments' captcha keys: the server's, and the box that seals secret keys. */
  captchaKeyring: CaptchaKeyring;
};

/** A REST body's zod issues as field errors with body paths (unknown keys named as such). */
export function bodyErrors(issues: z.core.$ZodIssue[]): FieldError[] {
  return issues.map((issue) => ({
    message: issue.code === 'unrecognized_keys' ? `Unknown field(s): ${issue.keys.join(', ')}` : issue.message,
    path: issue.path.map((s) => (typeof s === 'number' ? s : String(s))),
  }));
}

/** The GraphQL context an operation runs with for this request's caller. */
export function operationContext(c: Context<AppEnv>, deps: RestDeps): GraphQLContext {
  return {
    db: deps.db,
    reads: deps.reads,
    principal: c.var.principal,
    dropOffMs: deps.dropOffMs,
    webhookRules: deps.webhookRules,
    smtpConfigured: deps.smtpConfigured,
    fileStorage: deps.fileStorage,
    captchaKeyring: deps.captchaKeyring,
    definitionBudget: definitionBudget(deps.maxDefinitionBytes ?? 0),
    formMaxVersions: deps.formMaxVersions,
  };
}

/**
 * For routes open to environment API keys only: the 401/403 answer for any other caller, else
 * undefined. Judged before the body or parameters, so a caller without access learns nothing from them.
 */
export function refuseUnlessApiKey(c: Context<AppEnv>): Response | undefined {
  try {
    requireApiKey(c.var.principal);
    return undefined;
  } catch (error) {
    return respondWithError(c, error);
  }
}

/** Runs `document` as the request's caller; returns its data, or the error response to send. */
export async function execute<TData, TVariables extends Record<string, unknown>>(
  c: Context<AppEnv>,
  deps: RestDeps,
  document: TypedDocumentNode<TData, TVariables>,
  variables: TVariables,
): Promise<{ data: TData } | { response: Response }> {
  const result = await runOperation(document, variables, operationContext(c, deps));
  if (result.error) return { response: respondWithError(c, result.error) };
  return { data: result.data };
}
