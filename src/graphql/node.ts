/**
 * Relay's `Node` interface (GraphQL Global Object Identification): an object that `node(id:)` finds
 * again by its `id`. Its `id` is the object's own id (the one REST returns and every argument takes),
 * exposed as it is, so reading it costs what reading any field does. `node`/`nodes` are in
 * graphql/nodes.ts, which knows every type that implements it.
 */
import { builder } from './builder.ts';

export const NodeRef = builder.interfaceRef<{ id: string }>('Node').implement({
  description: 'An object `node(id:)` and `nodes(ids:)` find again by its `id`.',
  fields: (t) => ({
    id: t.exposeID('id', { description: "The object's id: the same as in the REST API; `node(id:)` finds the object by it." }),
  }),
});
