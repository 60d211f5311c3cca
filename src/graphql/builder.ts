/** The Pothos builder: plugins and scalars only; types live in their domain folders. */
import SchemaBuilder from '@pothos/core';
import RelayPlugin from '@pothos/plugin-relay';
import ValidationPlugin from '@pothos/plugin-validation';
import { DateTimeResolver, JSONResolver } from 'graphql-scalars';
import { invalidInput } from '../errors.ts';
import type { GraphQLContext } from './context.ts';

type PathSegment = PropertyKey | { key: PropertyKey };

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  Scalars: {
    JSON: { Input: unknown; Output: unknown };
    DateTime: { Input: Date; Output: Date | string };
  };
  DefaultFieldNullability: false;
}>({
  plugins: [RelayPlugin, ValidationPlugin],
  defaultFieldNullability: false,
  relay: { clientMutationId: 'omit', cursorType: 'String' },
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
builder.addScalarType('DateTime', DateTimeResolver);
builder.queryType({});
builder.mutationType({});
