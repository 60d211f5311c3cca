/** The Pothos builder: plugins and scalars only; types live in their domain folders. */
import SchemaBuilder from '@pothos/core';
import ComplexityPlugin from '@pothos/plugin-complexity';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import RelayPlugin, { decodeGlobalID, resolveNodes } from '@pothos/plugin-relay';
import ValidationPlugin from '@pothos/plugin-validation';
import { GraphQLScalarType, type GraphQLResolveInfo } from 'graphql';
import { DateTimeResolver, JSONResolver } from 'graphql-scalars';
import { readScope } from '../auth/auth.service.ts';
import { invalidInput } from '../errors.ts';
import type { GraphQLContext } from './context.ts';

/**
 * The types `node`/`nodes` resolve, in the order a lookup tries them; every one checks the caller's
 * environment when it loads (its loader answers only the caller's rows, any for the admin token).
 */
const NODE_TYPENAMES = ['Environment', 'Form', 'FormResponse', 'Lead', 'ApiKey'] as const;
/** Most ids one `nodes` call takes. */
export const MAX_NODES = 100;

/**
 * The objects `node`/`nodes` answer for ids, in order (null where none). `Node.id` is each type's own
 * id (the database's and REST's), so an id names no type: each is looked up as every Node type, through
 * the types' request-scoped loaders (one statement per type for all the ids of a request, by primary
 * key), and the first type that holds it answers. Ids are random (119 bits), so only an environment
 * given a chosen Site ID could repeat another object's id; the environment is tried first. A global id
 * of the old `nodeId` field (base64 of `Type:id`) still resolves, as that type only.
 */
async function lookUpNodes(context: GraphQLContext, info: GraphQLResolveInfo, ids: readonly string[]): Promise<unknown[]> {
  const candidates = ids.map((id) => {
    const legacy = legacyGlobalId(id);
    return [...NODE_TYPENAMES.map((typename) => ({ typename, id })), ...(legacy ? [legacy] : [])];
  });
  const found = await Promise.all(await resolveNodes(builder, context, info, candidates.flat()));
  let next = 0;
  return candidates.map((forId) => {
    const answers = found.slice(next, (next += forId.length));
    return answers.find((answer) => answer !== null && answer !== undefined) ?? null;
  });
}

/** The type and id of a deprecated `nodeId` (base64 of `Type:id`), if `id` is one of a Node type. */
function legacyGlobalId(id: string): { typename: string; id: string } | undefined {
  try {
    const decoded = decodeGlobalID(id);
    return (NODE_TYPENAMES as readonly string[]).includes(decoded.typename) ? decoded : undefined;
  } catch {
    return undefined;
  }
}

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
    // Node.id is each type's own id, unencoded: the id REST returns and every argument takes, which
    // node(id:) resolves by looking it up (lookUpNodes).
    idFieldOptions: { description: "The object's id: the same as in the REST API; `node(id:)` finds the object by it." },
    encodeGlobalID: (_typename: string, id: bigint | number | string) => String(id),
    decodeGlobalID: (globalID: string) => ({ typename: '', id: globalID }),
    nodeQueryOptions: {
      description: "Any object (a type implementing Node) by its `id`; null when it does not exist or is not the caller's to see.",
      resolve: async (_root, args, context, info) => {
        readScope(context.principal); // anonymous callers: UNAUTHENTICATED, before any lookup
        const [node] = await lookUpNodes(context, info, [args.id.id]);
        return node;
      },
    },
    nodesQueryOptions: {
      description: `Objects by their ids, in order; null for each that does not exist or is not the caller's to see. At most ${MAX_NODES} ids.`,
      complexity: (args: { ids: readonly unknown[] }) => ({ field: 1 + Math.min(args.ids.length, MAX_NODES) * 5, multiplier: Math.min(args.ids.length, MAX_NODES) }),
      resolve: (_root, args, context, info) => {
        readScope(context.principal);
        if (args.ids.length > MAX_NODES) throw invalidInput([{ message: `At most ${MAX_NODES} ids`, path: ['ids'] }], 'Invalid arguments');
        return lookUpNodes(context, info, args.ids.map((id) => id.id));
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
