import type { CodegenConfig } from '@graphql-codegen/cli';

/** Typed documents for the operations the REST adapters and the CLI run. */
const config: CodegenConfig = {
  schema: 'schema/schema.graphql',
  documents: ['schema/operations/*.graphql', 'test/graph/*.graphql'],
  generates: {
    'src/graphql/generated/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false, gqlTagName: 'gql' },
      config: {
        emitLegacyCommonJSImports: false,
        useTypeImports: true,
        enumsAsTypes: true,
        scalars: { JSON: 'unknown', DateTime: 'string', LocalizedText: 'string | Record<string, unknown>' },
      },
    },
  },
};
export default config;
