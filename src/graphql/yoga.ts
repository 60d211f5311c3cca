import { createYoga, shouldRenderGraphiQL, type Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { Principal } from '../auth/auth.service.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { LiveFeed } from '../events/live-feed.ts';
import { graphqlLimitPlugins } from '../limits/graphql.ts';
import { definitionBudget, type GraphQLContext } from './context.ts';
import { appErrorOf, maskGraphQLError } from './errors.ts';
import { compiledExecutionPlugin } from './execute.ts';
import { graphiqlPage } from './graphiql.ts';
import { persistedDocumentPlugins } from './persisted.ts';
import { searchParamsParserPlugin } from './search-params.ts';
import { rawJsonResultsPlugin } from './raw-json.ts';
import { schema } from './schema.ts';

/** What the HTTP layer hands yoga for each request (the caller is authenticated before yoga runs). */
export interface YogaServerContext {
  db: Db;
  principal: Principal;
  idempotency?: GraphQLContext['idempotency'];
  /** The node's live feed (subscriptions); absent: subscriptions are refused. */
  liveFeed?: LiveFeed | undefined;
  signFileUrl?: GraphQLContext['signFileUrl'];
  fileStorage?: GraphQLContext['fileStorage'];
  captchaKeyring?: GraphQLContext['captchaKeyring'];
  signing?: GraphQLContext['signing'];
}

const GRAPHQL_ENDPOINT = '/graphql';

/**
 * GraphiQL in a browser (GET with Accept: text/html), served with its Content-Security-Policy. It loads
 * the schema (and its Docs panel) without credentials, since introspection is open to every caller; its
 * Headers tab starts with an empty `x-api-key` for the key that running operations needs (or
 * `Authorization: Bearer <admin token>`). Headers are not persisted in the browser's storage.
 */
function graphiqlPlugin(): Plugin {
  const options = {
    title: 'formloom GraphQL',
    headers: JSON.stringify({ 'x-api-key': '' }, null, 2),
    shouldPersistHeaders: false,
    defaultEditorToolsVisibility: 'headers' as const,
  };
  return {
    onRequest(event) {
      const { request, url, fetchAPI } = event;
      if (url.pathname !== GRAPHQL_ENDPOINT || !shouldRenderGraphiQL(request)) return;
      return graphiqlPage(options).then(({ html, contentSecurityPolicy }) =>
        event.endResponse(
          new fetchAPI.Response(html, {
            status: 200,
            headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': contentSecurityPolicy },
          }),
        ),
      );
    },
  };
}

export function createGraphQLServer(logger: Logger, config: Pick<Config, 'dropOffMs' | 'graphql' | 'maxJsonDepth' | 'webhooks' | 'formMaxVersions' | 'mail'>) {
  return createYoga<YogaServerContext, GraphQLContext>({
    schema,
    graphqlEndpoint: GRAPHQL_ENDPOINT,
    graphiql: false, // served by graphiqlPlugin, with its CSP
    landingPage: false,
    // CORS is the HTTP edge's (limits/cors.ts): yoga's default would reflect any origin with credentials.
    cors: false,
    // Validation depends on the request (the cost on its variables, the wording of errors on the
    // caller), so yoga's cache of whole results per document is off; limits/graphql.ts caches what
    // depends on the document alone and measures the cost per request. Parsed documents are cached here.
    parserAndValidationCache: { validationCache: false },
    plugins: [
      graphiqlPlugin(),
      searchParamsParserPlugin(),
      ...persistedDocumentPlugins(config.graphql),
      ...graphqlLimitPlugins(config),
      compiledExecutionPlugin(),
      rawJsonResultsPlugin(),
    ],
    context: ({ db, principal, idempotency, liveFeed, signFileUrl, fileStorage, captchaKeyring, signing, request }) => ({
      db,
      principal,
      dropOffMs: config.dropOffMs,
      rawJson: true,
      idempotency,
      webhookRules: { allowPrivate: config.webhooks.allowPrivate },
      smtpConfigured: config.mail.smtp !== undefined,
      liveFeed,
      signFileUrl,
      fileStorage,
      captchaKeyring,
      signing,
      signal: request.signal,
      definitionBudget: definitionBudget(config.graphql.maxDefinitionBytes),
      formMaxVersions: config.formMaxVersions,
    }),
    maskedErrors: {
      // Never development mode (yoga's default without NODE_ENV=production): it would add the original
      // error (an engine message, a stack) to the client's body.
      isDev: false,
      maskError: (error, message) => {
        const masked = maskGraphQLError(error, message);
        if (masked.message === message) logger.error({ err: error }, 'unexpected GraphQL error');
        return masked;
      },
    },
    logging: {
      debug: (...args) => logger.debug(args.join(' ')),
      info: (...args) => logger.info(args.join(' ')),
      warn: (...args) => logger.warn(args.join(' ')),
      // yoga logs every error its masking replaced, and an expected error (BAD_USER_INPUT, NOT_FOUND, …)
      // is replaced by its GraphQL face (errors.ts): those are the caller's mistakes, not the server's.
      // Unexpected ones are logged with their stack by maskError above; a lost database stays an error.
      error: (...args) => {
        const expected = args.every((arg) => {
          const known = appErrorOf(arg);
          return known !== undefined && known.code !== 'UNAVAILABLE';
        });
        if (expected) logger.debug(args.join(' '));
        else logger.error(args.join(' '));
      },
    },
  });
}
