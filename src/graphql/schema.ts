/** Assembles the schema: importing a domain's graphql file registers its types and fields. */
import { isObjectType, lexicographicSortSchema, type GraphQLSchema } from 'graphql';
import '../audit/audit.graphql.ts';
import '../auth/auth.graphql.ts';
import '../environments/environments.graphql.ts';
import '../events/webhooks.graphql.ts';
import '../forms/forms.graphql.ts';
import '../insights/insights.graphql.ts';
import '../insights/share-links.graphql.ts';
import '../leads/leads.graphql.ts';
import '../notifications/notifications.graphql.ts';
import '../privacy/privacy.graphql.ts';
import '../responses/responses.graphql.ts';
import '../responses/summary.graphql.ts';
import { builder } from './builder.ts';
import './nodes.ts';
import './trusted-documents.graphql.ts';

/** What a field declares it needs (`authScopes` of @pothos/plugin-scope-auth), or undefined. */
export function fieldAuthScopes(extensions: unknown): { scope?: string; admin?: boolean; authenticated?: boolean } | undefined {
  const options = (extensions as { pothosOptions?: { authScopes?: unknown } } | undefined)?.pothosOptions;
  const scopes = options?.authScopes;
  return typeof scopes === 'object' && scopes !== null ? scopes : undefined;
}

/** Each field's description ends with what it needs, from its declaration, so the two can't disagree. */
function describeScopes(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      const scopes = fieldAuthScopes(field.extensions);
      const needs = scopes?.scope ? `Needs the API key scope \`${scopes.scope}\`.` : scopes?.admin ? 'Needs the admin token.' : undefined;
      if (needs && !field.description?.includes(needs)) field.description = field.description ? `${field.description} ${needs}` : needs;
    }
  }
  return schema;
}

export const schema = lexicographicSortSchema(describeScopes(builder.toSchema()));
