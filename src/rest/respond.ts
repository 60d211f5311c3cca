/** Shared pieces of the v1 REST adapters: run an operation and turn its errors into documented bodies. */
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { Context } from 'hono';
import type { Db } from '../db/client.ts';
import { restErrorOf, INTERNAL_ERROR_BODY } from '../graphql/errors.ts';
import type { GraphQLContext } from '../graphql/context.ts';
import { runOperation } from '../graphql/execute.ts';
import type { AppEnv } from '../http.ts';

/** What the REST adapters need to run operations. */
export interface RestDeps {
  db: Db;
  dropOffMs: number;
}

/** The GraphQL context an operation runs with for this request's caller. */
export function operationContext(c: Context<AppEnv>, deps: RestDeps): GraphQLContext {
  return { db: deps.db, principal: c.var.principal, dropOffMs: deps.dropOffMs };
}

/** Answers with the error's documented status and body; unexpected errors are a logged 500. */
export function respondWithError(c: Context<AppEnv>, error: unknown): Response {
  const known = restErrorOf(error);
  if (known) return c.json(known.body, known.status as 400);
  c.var.log.error({ err: error }, 'unexpected error');
  return c.json(INTERNAL_ERROR_BODY, 500);
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

/** Reads a JSON object body; anything else is the documented 400. */
export async function readJsonObject(c: Context<AppEnv>): Promise<{ body: Record<string, unknown> } | { response: Response }> {
  let body: unknown;
  try {
    body = JSON.parse(await c.req.text());
  } catch {
    return { response: c.json({ message: 'Invalid request body', errors: [{ message: 'Body must be valid JSON', path: [] }] }, 400) };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { response: c.json({ message: 'Invalid request body', errors: [{ message: 'Body must be a JSON object', path: [] }] }, 400) };
  }
  return { body: body as Record<string, unknown> };
}
