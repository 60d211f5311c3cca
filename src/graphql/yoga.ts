import { createYoga } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { Principal } from '../auth/auth.service.ts';
import type { Db } from '../db/client.ts';
import type { GraphQLContext } from './context.ts';
import { maskGraphQLError } from './errors.ts';
import { schema } from './schema.ts';

/** What the HTTP layer hands yoga for each request (the caller is authenticated before yoga runs). */
export interface YogaServerContext {
  db: Db;
  principal: Principal;
}

export function createGraphQLServer(logger: Logger, settings: { dropOffMs: number }) {
  return createYoga<YogaServerContext, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    // GraphiQL with its assets bundled, so it works offline. The bundle is ~9 MB of script that costs
    // ~80 MB of memory once loaded, so it is loaded on the first GraphiQL page request, not at start.
    graphiql: { title: 'formloom GraphQL' },
    renderGraphiQL: async (options) => (await import('@graphql-yoga/render-graphiql')).renderGraphiQL(options),
    landingPage: false,
    // CORS is the HTTP edge's (limits/cors.ts): yoga's default would reflect any origin with credentials.
    cors: false,
    context: ({ db, principal }) => ({ db, principal, dropOffMs: settings.dropOffMs }),
    maskedErrors: {
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
      error: (...args) => logger.error(args.join(' ')),
    },
  });
}
