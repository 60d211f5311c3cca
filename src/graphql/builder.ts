/** The Pothos builder: plugins and scalars only; types live in their domain folders. */
import SchemaBuilder from '@pothos/core';
import ComplexityPlugin from '@pothos/plugin-complexity';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import RelayPlugin, { decodeGlobalID } from '@pothos/plugin-relay';
import ValidationPlugin from '@pothos/plugin-validation';
import { GraphQLScalarType } from 'graphql';
import { DateTimeResolver, JSONResolver } from 'graphql-scalars';
import { readScope } from '../auth/auth.service.ts';
import { invalidInput } from '../errors.ts';
import type { GraphQLContext } from './context.ts';

/** The types `node`/`nodes` resolve; every one of them checks the caller's environment when it loads. */
const NODE_TYPENAMES = new Set(['Environment', 'ApiKey', 'Form', 'FormResponse', 'Lead']);
/** Most ids one `nodes` call takes. */
export const MAX_NODES = 100;

type PathSegment = PropertyKey | { key: PropertyKey };

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  Scalars: {
    JSON: { Input: unknown; Output: unknown };
    DateTime: { Input: Date; Output: Date | string };
  };
  DefaultFieldNullability: false;
}>({
  plugins: [ComplexityPlugin, RelayPlugin, DataloaderPlugin, ValidationPlugin],
  defaultFieldNullability: false,
  // Field costs for the /graphql cost limit (src/limits/graphql.ts), which measures an operation at
  // validation. The plugin's own check at execution is off: it would also run for the REST adapters'
  // in-process operations, which are not subject to the limits. A field costs 1; a list field's
  // selection counts once unless the field says otherwise: connections count `first` times (what a
  // request can grow); other lists are as long as the stored form or answers, not the request.
  complexity: { disabled: true, defaultComplexity: 1, defaultListMultiplier: 1 },
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
    // Every type keeps `id` as its database id (the REST contract's and the existing queries' ids);
    // the Relay global id (for `node`/`nodes`) is `nodeId`.
    idFieldName: 'nodeId',
    idFieldOptions: { description: 'Global id of this object, for `node(id:)` and `nodes(ids:)`.' },
    // A malformed global id is treated like an unknown one (null), not as an error that tells them apart.
    decodeGlobalID: (globalID: string) => {
      try {
        return decodeGlobalID(globalID);
      } catch {
        return { typename: '', id: '' };
      }
    },
    nodeQueryOptions: {
      description: "Any object by its global id (`nodeId`); null when it does not exist or is not the caller's to see.",
      resolve: (_root, args, context, _info, resolveNode) => {
        readScope(context.principal); // anonymous callers: UNAUTHENTICATED, before any lookup
        return NODE_TYPENAMES.has(args.id.typename) ? resolveNode(args.id) : null;
      },
    },
    nodesQueryOptions: {
      description: `Objects by their global ids, in order; null for each that does not exist or is not the caller's to see. At most ${MAX_NODES} ids.`,
      complexity: (args: { ids: readonly unknown[] }) => ({ field: 1 + Math.min(args.ids.length, MAX_NODES) * 5, multiplier: Math.min(args.ids.length, MAX_NODES) }),
      resolve: (_root, args, context, _info, resolveNodes) => {
        readScope(context.principal);
        if (args.ids.length > MAX_NODES) throw invalidInput([{ message: `At most ${MAX_NODES} ids`, path: ['ids'] }], 'Invalid arguments');
        // resolveNodes reads args.ids: unknown types become null entries, which it skips.
        (args as { ids: unknown[] }).ids = args.ids.map((id) => (id && NODE_TYPENAMES.has(id.typename) ? id : null));
        return resolveNodes(args.ids);
      },
    },
    // A connection's `first` already sizes its page: its edges don't multiply again.
    edgesFieldOptions: { complexity: { field: 1, multiplier: 1 } },
  },
  validation: {
    // Every zod issue becomes one {message, path} entry, path relative to the `input` argument
    // (so it reads from the request body's root, as REST reports it).
    validationError: (result) =>
      invalidInput(
        result.issues.map((issue) => {
          const path = (issue.path ?? []).map((s: PathSegment) => (typeof s === 'object' ? s.key : s));
          if (path[0] === 'input') path.shift();
          return { message: issue.message, path: path.map((s) => (typeof s === 'number' ? s : String(s))) };
        }),
      ),
  },
});

/** The builder's type parameters, for helpers that take a Pothos field builder. */
export type BuilderTypes = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

builder.addScalarType('JSON', JSONResolver);
/**
 * Instants as `toISOString` writes them (UTC, milliseconds), which the listings read from PostgreSQL
 * already written so: passed through as they are. graphql-scalars' DateTime would check such a text
 * against its pattern, parse it, and leave JSON.stringify to write it again (a listing page's thirty
 * timestamps were half of writing its answer).
 */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
builder.addScalarType(
  'DateTime',
  new GraphQLScalarType({
    ...DateTimeResolver.toConfig(),
    serialize: (value) => (typeof value === 'string' && ISO_INSTANT.test(value) ? value : DateTimeResolver.serialize(value)),
  }),
);
builder.queryType({});
builder.mutationType({});
