/**
 * Persisted documents at /graphql (docs/graphql.md, "Persisted documents"), with
 * @graphql-yoga/plugin-persisted-operations: a request may name its document by hash,
 * `{"extensions": {"persistedQuery": {"version": 1, "sha256Hash": "<hex>"}}}`, instead of sending it.
 *
 * - A hash is looked up among the trusted documents (graphql/trusted-documents.ts), then, unless
 *   GRAPHQL_PERSISTED_ONLY is on, among this node's APQ documents. Unknown: PERSISTED_QUERY_NOT_FOUND
 *   with status 200, as the APQ protocol has it (the client sends the document with its hash next), or,
 *   persisted-only, PERSISTED_QUERY_NOT_IN_LIST with 400.
 * - A document sent with its hash is checked against it (PERSISTED_QUERY_HASH_MISMATCH, 400) and kept
 *   for the hash's next requests (APQ); not while persisted-only, where nothing registers itself.
 * - GRAPHQL_PERSISTED_ONLY=1 refuses a document sent as text (PERSISTED_QUERY_ONLY, 400), except from
 *   GraphiQL unless GRAPHQL_PERSISTED_ONLY_GRAPHIQL=0: a request its page makes (the browser's
 *   `Sec-Fetch-Site: same-origin`) with an API key or the admin token, or one that only introspects
 *   (the schema and Docs panel, loaded before a key is typed in).
 */
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import { GraphQLError, Kind, type DocumentNode } from 'graphql';
import type { Plugin, YogaInitialContext } from 'graphql-yoga';
import type { Principal } from '../auth/auth.service.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { documentHash, isDocumentHash, PersistedDocuments } from './trusted-documents.ts';

type PersistedContext = YogaInitialContext & { db?: Db; principal?: Principal };

function refusal(message: string, code: string, status = 400): GraphQLError {
  return new GraphQLError(message, { extensions: { code, http: { status } } });
}

/** The hash a request names its document by (`extensions.persistedQuery`, version 1), if it names one. */
function requestedHash(extensions: unknown): string | undefined {
  if (extensions === null || typeof extensions !== 'object') return undefined;
  const persisted = (extensions as { persistedQuery?: unknown }).persistedQuery;
  if (persisted === null || typeof persisted !== 'object') return undefined;
  const { version, sha256Hash } = persisted as { version?: unknown; sha256Hash?: unknown };
  return version === 1 && typeof sha256Hash === 'string' ? sha256Hash : undefined;
}

/** A request GraphiQL's page made (or one that says so: the header is a browser's, not a secret). */
const fromGraphiQL = (request: Request) => request.headers.get('sec-fetch-site') === 'same-origin';
const holdsKey = (principal: Principal | undefined) => principal?.kind === 'apiKey' || principal?.kind === 'admin';

/** Every operation of the document selects only introspection fields (`__schema`, `__type`, `__typename`). */
function onlyIntrospects(document: DocumentNode): boolean {
  return document.definitions.every(
    (definition) =>
      definition.kind !== Kind.OPERATION_DEFINITION ||
      definition.selectionSet.selections.every((selection) => selection.kind === Kind.FIELD && selection.name.value.startsWith('__')),
  );
}

/** The yoga plugins of persisted documents; they come before the limits, which check what they look up. */
export function persistedDocumentPlugins(settings: Pick<Config['graphql'], 'persistedOnly' | 'graphiqlAdHoc'>): Plugin<PersistedContext>[] {
  const documents = new PersistedDocuments();
  const { persistedOnly, graphiqlAdHoc } = settings;
  /** Requests let through persisted-only on condition that their document only introspects. */
  const introspectionOnly = new WeakSet<object>();

  const textDocuments: Plugin<PersistedContext> = {
    onParams({ params, request, context }) {
      const query = params.query;
      if (typeof query !== 'string') return;
      if (persistedOnly) {
        if (!graphiqlAdHoc || !fromGraphiQL(request)) throw refusal('Only persisted documents are accepted here: send the hash of a trusted document', 'PERSISTED_QUERY_ONLY');
        if (!holdsKey((context as PersistedContext).principal)) introspectionOnly.add(context);
        return;
      }
      const hash = requestedHash(params.extensions);
      if (hash === undefined) return;
      if (documentHash(query) !== hash) throw refusal('The document does not have the sha256Hash sent with it', 'PERSISTED_QUERY_HASH_MISMATCH');
      documents.remember(hash, query);
    },
    onValidate({ context, params, setResult }) {
      if (introspectionOnly.has(context) && !onlyIntrospects(params.documentAST as DocumentNode)) {
        setResult([refusal('Only persisted documents are accepted here; GraphiQL runs other documents with an API key or the admin token', 'PERSISTED_QUERY_ONLY')]);
      }
    },
  };

  const byHash = usePersistedOperations<PersistedContext>({
    // Documents sent as text are textDocuments' to judge; this plugin only sees requests without one.
    allowArbitraryOperations: true,
    extractPersistedOperationId: (params) => {
      const hash = requestedHash(params.extensions);
      if (hash !== undefined && !isDocumentHash(hash)) throw refusal('persistedQuery.sha256Hash must be 64 lowercase hexadecimal digits', 'BAD_USER_INPUT');
      return hash ?? null;
    },
    getPersistedOperation: async (hash, _request, context) => {
      const trusted = context.db ? await documents.trustedText(context.db, hash) : undefined;
      return trusted ?? (persistedOnly ? null : (documents.automaticText(hash) ?? null));
    },
    customErrors: {
      notFound: () =>
        persistedOnly ? refusal('No trusted document has this sha256Hash', 'PERSISTED_QUERY_NOT_IN_LIST') : refusal('PersistedQueryNotFound', 'PERSISTED_QUERY_NOT_FOUND', 200),
      // Neither a document nor a hash: yoga's own answer to a body without a query.
      keyNotFound: () => refusal('Must provide query string.', 'BAD_REQUEST'),
    },
  });
  const lookUp: Plugin<PersistedContext> = {
    ...byHash,
    onParams(payload) {
      // A document sent as text (an empty one included) is parsed and answered as before.
      if (typeof payload.params.query === 'string') return;
      return byHash.onParams?.(payload);
    },
  };
  return [textDocuments, lookUp];
}
