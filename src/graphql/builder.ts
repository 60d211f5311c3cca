/** The Pothos builder: plugins and scalars only; types live in their domain folders. */
import SchemaBuilder from '@pothos/core';
import ComplexityPlugin from '@pothos/plugin-complexity';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import ValidationPlugin from '@pothos/plugin-validation';
import { GraphQLScalarType, valueFromASTUntyped } from 'graphql';
import { DateTimeResolver, JSONResolver } from 'graphql-scalars';
import { requireAdmin, requireScope, readScope } from '../auth/auth.service.ts';
import type { Scope } from '../auth/scopes.ts';
import { forbidden, invalidInput } from '../errors.ts';
import type { GraphQLContext } from './context.ts';

type PathSegment = PropertyKey | { key: PropertyKey };

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  Scalars: {
    JSON: { Input: unknown; Output: unknown };
    DateTime: { Input: Date; Output: Date | string };
    LocalizedText: { Input: string | Record<string, unknown>; Output: string };
  };
  DefaultFieldNullability: false;
  /** What a field needs (every root field declares one): `scope`, an API key scope; `admin`, the admin token; `authenticated`, any caller with credentials. */
  AuthScopes: { scope: Scope; admin: boolean; authenticated: boolean };
}>({
  plugins: [ScopeAuthPlugin, ComplexityPlugin, RelayPlugin, DataloaderPlugin, ValidationPlugin],
  // Each check throws the catalogue's error (UNAUTHENTICATED before FORBIDDEN, a missing scope named in
  // `extensions.requiredScope`): errors thrown by scope loaders reach the client as the field's error.
  scopeAuth: {
    // Off: a subscription checks its scope in its own `subscribe`, where a refusal gets its HTTP status
    // (401/403, not 500) as every other refusal of a stream; its events are then checked as they resolve.
    authorizeOnSubscribe: false,
    authScopes: (ctx) => ({
      scope: (scope) => {
        requireScope(ctx.principal, scope);
        return true;
      },
      admin: () => {
        requireAdmin(ctx.principal);
        return true;
      },
      authenticated: () => {
        readScope(ctx.principal);
        return true;
      },
    }),
    unauthorizedError: () => forbidden('Not authorised'),
  },
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
    // The plugin's connections are used; its Node interface and node/nodes fields are not (their id
    // field is a base64 global id resolved asynchronously): graphql/node.ts and graphql/nodes.ts.
    nodeQueryOptions: false,
    nodesQueryOptions: false,
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
function localizedTextValue(value: unknown): string | Record<string, unknown> {
  if (typeof value === 'string' || (typeof value === 'object' && value !== null && !Array.isArray(value))) return value as string | Record<string, unknown>;
  throw new TypeError(`LocalizedText must be a string or an object of one string per language, not ${JSON.stringify(value)}`);
}

/** A text given in the form's default language, or one per language (checked by the input's schema, src/forms/translations.ts). */
builder.addScalarType(
  'LocalizedText',
  new GraphQLScalarType({
    name: 'LocalizedText',
    description:
      'A text a respondent reads: a string (the form\'s default language), or an object of one string per language of the form, e.g. {"en": "Contact", "de": "Kontakt"}.',
    serialize: (value) => value,
    parseValue: localizedTextValue,
    parseLiteral: (ast, variables) => localizedTextValue(valueFromASTUntyped(ast, variables)),
  }),
);
builder.queryType({});
builder.mutationType({});
