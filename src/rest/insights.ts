/**
 * REST adapters of insights: `GET /api/v1/forms/{formId}/insights` (operation `FormInsights`) and
 * `GET /api/v1/insights` (`EnvironmentInsights`, the key's environment). Query parameters: `since`,
 * `until`, `timeZone`, `groupBy` (day | week | month), `device`, `language`, `hidden.<name>=<value>`;
 * each checked as the operation checks its filter, a problem reported at the parameter's name.
 */
import { needs } from './access.ts';
import { Hono, type Context } from 'hono';
import { notFound } from '../errors.ts';
import {
  EnvironmentInsightsDocument,
  FormInsightsDocument,
  type DeviceClass,
  type InsightsFilter,
  type InsightsGroupBy,
  type RestInsightsFieldsFragment,
} from '../graphql/generated/graphql.ts';
import type { AppEnv } from '../http.ts';
import { parseInsightsArguments, type InsightsArguments } from '../insights/insights.service.ts';
import { methodNotAllowed } from '../limits/request-safety.ts';
import { respondWithError } from '../graphql/errors.ts';
import { execute, refuseUnlessApiKey, type RestDeps } from './respond.ts';
import { invalidQuery } from './responses.ts';
import type { FieldError } from '../errors.ts';

/** The query parameters insights take besides `hidden.<name>`. */
export const INSIGHTS_PARAMETERS = ['since', 'until', 'timeZone', 'groupBy', 'device', 'language'] as const;
const HIDDEN_PREFIX = 'hidden.';

/** The filter the query asks for, or the problems with its parameters (unknown ones included). */
function filterOf(c: Context<AppEnv>): { filter: InsightsFilter } | { errors: FieldError[] } {
  const errors: FieldError[] = [];
  const args: Record<string, string> = {};
  const hidden: { name: string; value: string }[] = [];
  for (const [name, values] of Object.entries(c.req.queries())) {
    if (values.length > 1) errors.push({ message: `${name} must be given once`, path: [name] });
    const value = values[0] ?? '';
    if (name.startsWith(HIDDEN_PREFIX)) hidden.push({ name: name.slice(HIDDEN_PREFIX.length), value });
    else if ((INSIGHTS_PARAMETERS as readonly string[]).includes(name)) args[name] = value;
    else
      errors.push({
        message: `Unknown query parameter; insights take ${INSIGHTS_PARAMETERS.join(', ')} and hidden.<name>`,
        path: [name],
      });
  }
  const parsed = parseInsightsArguments({ ...(args as InsightsArguments), hidden }, (name, hiddenName) => [hiddenName === undefined ? name : `${HIDDEN_PREFIX}${hiddenName}`]);
  if ('errors' in parsed) errors.push(...parsed.errors);
  if (errors.length > 0) return { errors };
  return {
    filter: {
      ...(args.since === undefined ? {} : { since: args.since }),
      ...(args.until === undefined ? {} : { until: args.until }),
      timeZone: args.timeZone ?? 'UTC',
      groupBy: (args.groupBy ?? 'day').toUpperCase() as InsightsGroupBy,
      ...(args.device === undefined ? {} : { device: args.device.toUpperCase() as DeviceClass }),
      ...(args.language === undefined ? {} : { language: args.language }),
      ...(hidden.length === 0 ? {} : { hidden }),
    },
  };
}

/** The insights as REST shows them: the operation's fields, `groupBy` lower-case. */
const restInsights = (insights: RestInsightsFieldsFragment) => ({
  ...insights,
  groupBy: insights.groupBy.toLowerCase(),
});

export function insightsRoutes(deps: RestDeps) {
  const routes = new Hono<AppEnv>();

  routes.get('/forms/:formId/insights', needs('forms:read'), async (c) => {
    const refused = refuseUnlessApiKey(c);
    if (refused) return refused;
    const read = filterOf(c);
    if ('errors' in read) return invalidQuery(c, read.errors);
    const result = await execute(c, deps, FormInsightsDocument, { id: c.req.param('formId'), filter: read.filter });
    if ('response' in result) return result.response;
    if (!result.data.form) return respondWithError(c, notFound('Form not found'));
    return c.json({ data: restInsights(result.data.form.insights) }, 200);
  });
  routes.all('/forms/:formId/insights', methodNotAllowed(['GET']));

  routes.get('/insights', needs('forms:read'), async (c) => {
    const refused = refuseUnlessApiKey(c);
    if (refused) return refused;
    const read = filterOf(c);
    if ('errors' in read) return invalidQuery(c, read.errors);
    const result = await execute(c, deps, EnvironmentInsightsDocument, { filter: read.filter });
    if ('response' in result) return result.response;
    return c.json({ data: restInsights(result.data.viewer.environment!.insights) }, 200);
  });
  routes.all('/insights', methodNotAllowed(['GET']));
  return routes;
}
