/**
 * Runs a typed GraphQL operation in-process: how the REST adapters use the schema. Documents come
 * from codegen and were validated against the schema when generated, so each is compiled once with
 * graphql-jit (the REST hot path then skips graphql-js's per-request AST walk) and only executed here.
 */
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { getVariableValues } from '@graphql-tools/executor';
import { GraphQLError, Kind, type DocumentNode, type ExecutionArgs, type OperationDefinitionNode, type VariableDefinitionNode } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { Plugin } from 'graphql-yoga';
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

/** A /graphql operation compiled by graphql-jit, with its variable definitions. */
interface CompiledOperation {
  query: CompiledQuery;
  variables: readonly VariableDefinitionNode[];
}

/** What is known of a /graphql document's operation: run once by graphql-js, compiled, or not compilable. */
type CompiledState = 'seen' | 'not-compilable' | CompiledOperation;

/**
 * graphql-jit's errors are its own GraphQLError (read-only message and extensions): the same error as
 * graphql-js makes it, so the edge can polish and mask it like any other.
 */
function asGraphQLJsError(error: GraphQLError): GraphQLError {
  const copy = new GraphQLError(error.message, { path: error.path, originalError: error.originalError ?? undefined, extensions: error.extensions });
  if (error.locations) (copy as { locations?: unknown }).locations = error.locations;
  return copy;
}

/** What @graphql-tools/executor does to the errors it returns before executing (variables it cannot coerce). */
function asRequestError(error: GraphQLError): GraphQLError {
  Object.defineProperty(error, 'extensions', { value: { ...error.extensions, http: { ...error.extensions.http, status: 400 } } });
  return error;
}

function compileOperation(args: ExecutionArgs): Exclude<CompiledState, 'seen'> {
  const result = compileQuery(schema, args.document, args.operationName ?? undefined);
  if (!isCompiledQuery(result)) return 'not-compilable';
  const operation = args.document.definitions.find(
    (definition): definition is OperationDefinitionNode =>
      definition.kind === Kind.OPERATION_DEFINITION && (args.operationName == null || definition.name?.value === args.operationName),
  );
  return operation ? { query: result, variables: operation.variableDefinitions ?? [] } : 'not-compilable';
}

/**
 * /graphql executes documents with graphql-jit too, once a document (and operation name) has been run
 * a second time: the first run stays with graphql-js, so a stream of one-off documents costs no compile.
 * Only validated documents get here (yoga validates before executing, with every limit of
 * limits/graphql.ts). Each request's variables are coerced first by the executor yoga runs
 * (@graphql-tools/executor), so a bad value is refused in the same words and status as on the first run. States are keyed weakly by the parsed
 * document, which yoga's parse cache (an LRU of 1,024 texts) hands out once per text, so this holds no
 * more than that cache.
 */
export function compiledExecutionPlugin(): Plugin {
  const states = new WeakMap<DocumentNode, Map<string, CompiledState>>();
  const compiledFor = (args: ExecutionArgs): CompiledOperation | undefined => {
    let byName = states.get(args.document);
    if (!byName) states.set(args.document, (byName = new Map<string, CompiledState>()));
    const name = args.operationName ?? '';
    let state = byName.get(name);
    if (state === undefined) {
      byName.set(name, 'seen');
      return undefined;
    }
    if (state === 'seen') byName.set(name, (state = compileOperation(args)));
    return state === 'not-compilable' ? undefined : state;
  };
  return {
    onExecute({ args, setExecuteFn }) {
      const compiled = compiledFor(args);
      if (!compiled) return;
      // envelop types the arguments loosely (every field any): they are graphql-js's.
      setExecuteFn(async (executionArgs: ExecutionArgs) => {
        const inputs = executionArgs.variableValues ?? {};
        const coerced = getVariableValues(schema, compiled.variables, inputs, { maxErrors: 50 });
        // As the executor answers them: request errors, with HTTP status 400.
        if (coerced.errors) return { errors: coerced.errors.map(asRequestError) };
        const result = await compiled.query.query(executionArgs.rootValue, executionArgs.contextValue, inputs);
        return result.errors ? { ...result, errors: result.errors.map(asGraphQLJsError) } : result;
      });
    },
  };
}
