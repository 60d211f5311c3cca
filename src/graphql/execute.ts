/**
 * Runs a typed GraphQL operation in-process: how the REST adapters and the bootstrap use the
 * schema. Documents come from codegen and were validated against the schema when generated, so
 * only execution runs here.
 */
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { execute, type GraphQLError } from 'graphql';
import type { GraphQLContext } from './context.ts';
import { schema } from './schema.ts';

export type OperationResult<TData> = { data: TData; error?: undefined } | { data?: undefined; error: GraphQLError };

export async function runOperation<TData, TVariables extends Record<string, unknown>>(
  document: TypedDocumentNode<TData, TVariables>,
  variables: TVariables,
  context: GraphQLContext,
): Promise<OperationResult<TData>> {
  const result = await execute({ schema, document, variableValues: variables, contextValue: context });
  const error = result.errors?.[0];
  if (error) return { error };
  return { data: result.data as TData };
}
