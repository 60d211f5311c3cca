/**
 * `node(id:)` and `nodes(ids:)`: any object implementing Node, whichever domain defines its type, and the
 * deprecated `nodeId` of each Node type. Every lookup goes through the type's loader, which answers only
 * the caller's own rows (any for the admin token).
 */
import { brandWithType } from '@pothos/core';
import { decodeGlobalID, encodeGlobalID } from '@pothos/plugin-relay';
import type DataLoader from 'dataloader';
import { hasScope, readScope } from '../auth/auth.service.ts';
import type { Scope } from '../auth/scopes.ts';
import { ApiKeyRef, EnvironmentRef } from '../environments/environments.graphql.ts';
import { FormRef } from '../forms/forms.graphql.ts';
import { LeadRef } from '../leads/leads.graphql.ts';
import { FormResponseRef } from '../responses/responses.graphql.ts';
import { builder } from './builder.ts';
import type { GraphQLContext } from './context.ts';
import { NodeRef } from './node.ts';
import { invalidArguments } from './pagination.ts';

/** Most ids one `nodes` call takes. */
const MAX_NODES = 100;

/**
 * The types implementing Node, in the order a lookup tries them, each with its loader (request-scoped,
 * one statement for all the ids of a request; it answers only the caller's rows, any for the admin token).
 */
const NODE_TYPES = [
  ['Environment', EnvironmentRef],
  ['Form', FormRef],
  ['FormResponse', FormResponseRef],
  ['Lead', LeadRef],
  ['ApiKey', ApiKeyRef],
] as const;
type NodeTypename = (typeof NODE_TYPES)[number][0];

/** The scope a key needs to see a node of each type (as the fields that list them need); absent: none. */
const NODE_SCOPES: Partial<Record<NodeTypename, Scope>> = { Form: 'forms:read', FormResponse: 'responses:read', Lead: 'responses:read', ApiKey: 'keys:manage' };

/** The type and id of a former global id (`nodeId`: base64 of `Type:id`), if `id` is one of a Node type. */
function formerGlobalId(id: string): { typename: NodeTypename; id: string } | undefined {
  try {
    const decoded = decodeGlobalID(id);
    const type = NODE_TYPES.find(([typename]) => typename === decoded.typename);
    return type ? { typename: type[0], id: decoded.id } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The objects `node`/`nodes` answer for ids, in order (null where none). `Node.id` is each type's own
 * id, so an id names no type: it is looked up as every Node type (the loaders batch all of them) and the
 * first type holding it answers. Ids are random (119 bits), so only an environment given a chosen Site
 * ID could repeat another object's id; the environment is tried first. A former global id resolves as
 * its type only.
 */
async function lookUpNodes(ctx: GraphQLContext, ids: readonly string[]): Promise<unknown[]> {
  readScope(ctx.principal); // anonymous callers: UNAUTHENTICATED, before any lookup
  const typeOf = (typename: NodeTypename) => NODE_TYPES.find(([name]) => name === typename)![1];
  return Promise.all(
    ids.map(async (id) => {
      const former = formerGlobalId(id);
      // A type the caller lacks the scope of is not looked up: its objects are ones the caller may not see.
      const candidates = [...NODE_TYPES.map(([typename]) => ({ typename, id })), ...(former ? [former] : [])]
        .filter(({ typename }) => NODE_SCOPES[typename] === undefined || hasScope(ctx.principal, NODE_SCOPES[typename]))
        .map(({ typename, id }) => ({ ref: typeOf(typename), id }));
      const found = await Promise.all(candidates.map(({ ref, id }) => (ref.getDataloader(ctx) as DataLoader<string, object | null>).load(id)));
      const at = found.findIndex((object) => object != null);
      if (at < 0) return null;
      // The object's type, for the Node interface to resolve (as the object was loaded as, not guessed).
      brandWithType(found[at], candidates[at]!.ref);
      return found[at];
    }),
  );
}

builder.queryFields((t) => ({
  node: t.field({
    authScopes: { authenticated: true },
    type: NodeRef,
    nullable: true,
    description: 'Any object implementing Node, by its `id`; null when the id names no object the caller may see.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_, { id }, ctx) => (await lookUpNodes(ctx, [String(id)]))[0] as { id: string } | null,
  }),
  nodes: t.field({
    authScopes: { authenticated: true },
    type: [NodeRef],
    nullable: { list: false, items: true },
    description: `Objects by their ids, in order; null for each id that names no object the caller may see. At most ${MAX_NODES} ids.`,
    args: { ids: t.arg.idList({ required: true }) },
    complexity: (args) => ({ field: 1 + Math.min(args.ids.length, MAX_NODES) * 5, multiplier: Math.min(args.ids.length, MAX_NODES) }),
    resolve: (_, { ids }, ctx) => {
      if (ids.length > MAX_NODES) throw invalidArguments([{ message: `At most ${MAX_NODES} ids`, path: ['ids'] }]);
      return lookUpNodes(ctx, ids.map(String)) as Promise<({ id: string } | null)[]>;
    },
  }),
}));

/**
 * `nodeId`, the global id `node(id:)` took before it took `id`: base64 of `Type:id`. Kept, deprecated,
 * for clients that stored one; `node(id:)` still resolves it.
 */
const formerNodeId = (typename: NodeTypename) => ({
  type: 'ID' as const,
  deprecationReason: 'Use `id`: `node(id:)` and `nodes(ids:)` take it.',
  resolve: (object: { id: string }) => encodeGlobalID(typename, object.id),
});
builder.objectField(EnvironmentRef, 'nodeId', (t) => t.field(formerNodeId('Environment')));
builder.objectField(ApiKeyRef, 'nodeId', (t) => t.field(formerNodeId('ApiKey')));
builder.objectField(FormRef, 'nodeId', (t) => t.field(formerNodeId('Form')));
builder.objectField(FormResponseRef, 'nodeId', (t) => t.field(formerNodeId('FormResponse')));
builder.objectField(LeadRef, 'nodeId', (t) => t.field(formerNodeId('Lead')));
