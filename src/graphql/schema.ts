/** Assembles the schema: importing a domain's graphql file registers its types and fields. */
import { lexicographicSortSchema } from 'graphql';
import '../audit/audit.graphql.ts';
import '../auth/auth.graphql.ts';
import '../environments/environments.graphql.ts';
import '../events/webhooks.graphql.ts';
import '../forms/forms.graphql.ts';
import '../insights/insights.graphql.ts';
import '../leads/leads.graphql.ts';
import '../privacy/privacy.graphql.ts';
import '../responses/responses.graphql.ts';
import '../responses/summary.graphql.ts';
import { builder } from './builder.ts';
import './nodes.ts';
import './trusted-documents.graphql.ts';

export const schema = lexicographicSortSchema(builder.toSchema());
