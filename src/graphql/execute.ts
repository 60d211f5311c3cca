/**
 * Runs a typed GraphQL operation in-process: how the REST adapters use the schema. Documents come
 * from codegen and were validated against the schema when generated, so each is compiled once with
 * graphql-jit (the REST hot path then skips graphql-js's per-request AST walk) and only executed here.
 */
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { DocumentNode, GraphQLError } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { GraphQLContext } from './context.ts';
import { schema } from './schema.ts';

export type OperationResult<TData> = { data: TData; error?: undefined } | { data?: undefined; error: GraphQLError };

const compiled = new WeakMap<DocumentNode, CompiledQuery>();

function compile(document: DocumentNode): CompiledQuery {
  let query = compiled.get(document);
  if (!query) {
    const result = compileQuery(schema, document);
    if (!isCompiledQuery(result)) throw new Error(`Operation does not compile: ${result.errors?.map((e) => e.message).join('; ')}`);
    query = result;
    compiled.set(document, query);
  }
  return query;
}

export async function runOperation<TData, TVariables extends Record<string, unknown>>(
  document: TypedDocumentNode<TData, TVariables>,
  variables: TVariables,
  context: GraphQLContext,
): Promise<OperationResult<TData>> {
  const result = await compile(document).query(undefined, context, variables);
  const error = result.errors?.[0];
  if (error) return { error };
  return { data: result.data as TData };
}
