/** Trusted documents in GraphQL: `trustGraphQLDocument` and `trustedGraphQLDocuments`, admin token only. */
import { requireAdmin } from '../auth/auth.service.ts';
import { builder } from './builder.ts';
import { listTrustedDocuments, trustDocument, type TrustedDocument } from './trusted-documents.ts';

const TrustedDocumentRef = builder.objectRef<TrustedDocument>('TrustedGraphQLDocument').implement({
  description: 'A document /graphql runs by hash (`extensions.persistedQuery.sha256Hash`), also with GRAPHQL_PERSISTED_ONLY.',
  fields: (t) => ({
    hash: t.exposeString('hash', {
      description: 'The SHA-256 of the document text, lowercase hex: what a client sends instead of the text.',
    }),
    operationNames: t.exposeStringList('operationNames', { description: 'The names of its operations.' }),
    builtIn: t.exposeBoolean('builtIn', {
      description: 'One of the operations in schema/operations/ (trusted by every server of this version).',
    }),
    createdAt: t.expose('createdAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When an operator trusted it; null for a built-in one.',
    }),
  }),
});

builder.queryField('trustedGraphQLDocuments', (t) =>
  t.field({
    authScopes: { admin: true },
    type: [TrustedDocumentRef],
    description: 'Admin token only. Every trusted document: the built-in ones, then those trusted with trustGraphQLDocument, oldest first.',
    resolve: async (_, _args, { db, principal }) => {
      requireAdmin(principal);
      return listTrustedDocuments(db);
    },
  }),
);

builder.mutationField('trustGraphQLDocument', (t) =>
  t.field({
    authScopes: { admin: true },
    type: TrustedDocumentRef,
    description:
      'Admin token only. Trusts a document on every node: clients may then send its hash instead of its text, also with GRAPHQL_PERSISTED_ONLY. ' +
      'It must be valid against the schema; the hash is of the text exactly as given. Trusting one again changes nothing.',
    args: {
      document: t.arg.string({
        required: true,
        description: 'The document text, one or more operations and their fragments.',
      }),
    },
    resolve: async (_, { document }, { db, principal }, info) => {
      requireAdmin(principal);
      return trustDocument(db, info.schema, document);
    },
  }),
);
