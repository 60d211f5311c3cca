/**
 * v1 REST of an environment's settings, adapters of EnvironmentSettings / UpdateEnvironmentSettings
 * (schema/operations/privacy.graphql):
 *   GET   /api/v1/environments/{environmentId}/settings   privacy settings, the environment's captcha keys, embedOrigins
 *   PATCH /api/v1/environments/{environmentId}/settings   change any of them (fields left out stay)
 * Environment API keys only, in their own environment (the admin token uses GraphQL or the CLI). A
 * captcha secret key is write-only: the answer says whether one is set, never what it is.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { requireEnvironmentAccess } from '../auth/auth.service.ts';
import { captchaKeysInputSchema } from '../environments/captcha-keys.service.ts';
import { smtpSettingsInputSchema } from '../notifications/smtp-settings.ts';
import { embedOriginsSchema } from '../embed/embed-origins.ts';
import { invalidInput } from '../errors.ts';
import { EnvironmentSettingsDocument, UpdateEnvironmentSettingsDocument, type EnvironmentSettingsFieldsFragment, type IpStorage } from '../graphql/generated/graphql.ts';
import type { AppEnv } from '../http.ts';
import { methodNotAllowed, readJsonObject } from '../limits/request-safety.ts';
import { MAX_RETENTION_DAYS, RETENTION_DAYS_MESSAGE } from '../privacy/settings.service.ts';
import { bodyErrors, execute, refuseUnlessApiKey, type RestDeps } from './respond.ts';
import { respondWithError } from '../graphql/errors.ts';
import { needs } from './access.ts';

/** The body of PATCH …/settings (also the OpenAPI document's). */
export const settingsBodySchema = z.strictObject({
  ipStorage: z.enum(['full', 'truncated', 'none']).optional(),
  retentionDays: z.number().int(RETENTION_DAYS_MESSAGE).min(1, RETENTION_DAYS_MESSAGE).max(MAX_RETENTION_DAYS, RETENTION_DAYS_MESSAGE).nullable().optional(),
  turnstile: captchaKeysInputSchema.optional(),
  recaptcha: captchaKeysInputSchema.optional(),
  smtp: smtpSettingsInputSchema
    .optional()
    .meta({ description: "The environment's own SMTP server (`url` without the password), `password` (write-only) and `from`; null removes a field (docs/notifications.md)." }),
  embedOrigins: embedOriginsSchema
    .nullable()
    .optional()
    .meta({
      description: 'Origins that may embed the environment\'s forms (e.g. https://www.example.com), ["*"] for any site, [] for none; null: the server\'s FRAME_ANCESTORS applies.',
      examples: [['https://www.example.com']],
    }),
});

const restSettings = (settings: EnvironmentSettingsFieldsFragment) => ({ ...settings, ipStorage: settings.ipStorage.toLowerCase() });

export function settingsRoutes(deps: RestDeps) {
  const routes = new Hono<AppEnv>();
  const path = '/environments/:environmentId/settings';

  /** 401/403 for a caller that is not an API key of the path's environment; undefined when it is. */
  const refused = (c: Parameters<typeof refuseUnlessApiKey>[0], environmentId: string) => {
    const notKey = refuseUnlessApiKey(c);
    if (notKey) return notKey;
    try {
      requireEnvironmentAccess(c.var.principal, environmentId);
      return undefined;
    } catch (error) {
      return respondWithError(c, error);
    }
  };

  routes.get(path, needs('settings:manage'), async (c) => {
    const environmentId = c.req.param('environmentId');
    const refusal = refused(c, environmentId);
    if (refusal) return refusal;
    const result = await execute(c, deps, EnvironmentSettingsDocument, { id: environmentId });
    if ('response' in result) return result.response;
    return c.json(restSettings(result.data.environment), 200);
  });

  routes.patch(path, needs('settings:manage'), async (c) => {
    const environmentId = c.req.param('environmentId');
    const refusal = refused(c, environmentId);
    if (refusal) return refusal;
    const read = await readJsonObject(c, deps.maxJsonDepth);
    if ('response' in read) return read.response;
    const parsed = settingsBodySchema.safeParse(read.body);
    if (!parsed.success) return respondWithError(c, invalidInput(bodyErrors(parsed.error.issues)));
    const { ipStorage, ...rest } = parsed.data;
    const input = { ...rest, ...(ipStorage !== undefined ? { ipStorage: ipStorage.toUpperCase() as IpStorage } : {}) };
    const result = await execute(c, deps, UpdateEnvironmentSettingsDocument, { environmentId, input });
    if ('response' in result) return result.response;
    return c.json(restSettings(result.data.updateEnvironmentSettings), 200);
  });
  routes.all(path, methodNotAllowed(['GET', 'PATCH']));

  return routes;
}
