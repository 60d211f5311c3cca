/**
 * v1 REST of API keys, adapters of the key operations (schema/operations/admin.graphql):
 *   GET    /api/v1/environments/{environmentId}/keys            the environment's keys (never a secret)
 *   POST   /api/v1/environments/{environmentId}/keys            a new key: 201 with the key, shown once
 *   DELETE /api/v1/environments/{environmentId}/keys/{keyId}    revoke a key
 * For the admin token, and for a key with `keys:manage` in its own environment (which grants at most its
 * own scopes and expiry).
 */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { MAX_KEY_FORMS, requireEnvironmentAccess } from '../auth/auth.service.ts';
import { KEY_EXPIRY_FORMAT, parseKeyExpiry, scopeEnumName, scopeOfEnumName, SCOPES, type Scope } from '../auth/scopes.ts';
import { invalidInput, notFound } from '../errors.ts';
import { CreateApiKeyDocument, EnvironmentApiKeysDocument, RevokeApiKeyDocument, type ApiKeyFieldsFragment, type Scope as ScopeValue } from '../graphql/generated/graphql.ts';
import { respondWithError } from '../graphql/errors.ts';
import type { AppEnv } from '../http.ts';
import { methodNotAllowed, readJsonObject } from '../limits/request-safety.ts';
import { needs } from './access.ts';
import { bodyErrors, execute, type RestDeps } from './respond.ts';

/** The body of POST …/keys (also the OpenAPI document's). */
export const createKeyBodySchema = z.strictObject({
  name: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional(),
  scopes: z
    .array(z.enum(SCOPES, { message: `must be one of ${SCOPES.join(', ')}` }))
    .min(1, "must name at least one scope (leave scopes out for the creator's)")
    .max(SCOPES.length * 2)
    .optional()
    .meta({
      description: "What the key may do. Left out: the creator's scopes (every scope for the admin token).",
      examples: [['responses:read', 'forms:read']],
    }),
  formIds: z
    .array(z.string().min(1).max(64))
    .min(1, "must name at least one form (leave formIds out for the creator's)")
    .max(MAX_KEY_FORMS, `must name at most ${MAX_KEY_FORMS} forms`)
    .optional()
    .meta({
      description: `Limit the key to these forms of the environment (1 to ${MAX_KEY_FORMS}). Left out: the creator's forms (every form for the admin token).`,
    }),
  expires: z
    .string()
    .max(64)
    .refine((value) => parseKeyExpiry(value) !== undefined, `must be ${KEY_EXPIRY_FORMAT}`)
    .optional()
    .meta({
      description: `When the key expires: ${KEY_EXPIRY_FORMAT}. Left out: the creator's expiry (none for the admin token).`,
      examples: ['30d'],
    }),
});

/** A key as REST writes it: scopes as their strings (`responses:read`). */
export const restApiKey = (key: ApiKeyFieldsFragment) => ({
  ...key,
  scopes: key.scopes.map((name) => scopeOfEnumName(name)!),
});
const scopeValue = (scope: Scope) => scopeEnumName(scope) as ScopeValue;

export function keysRoutes(deps: RestDeps) {
  const routes = new Hono<AppEnv>();
  const path = '/environments/:environmentId/keys';

  /** 403 for a key of another environment; undefined when the caller may act in the path's. */
  const refused = (c: Context<AppEnv>, environmentId: string) => {
    try {
      requireEnvironmentAccess(c.var.principal, environmentId);
      return undefined;
    } catch (error) {
      return respondWithError(c, error);
    }
  };

  routes.get(path, needs('keys:manage'), async (c) => {
    const environmentId = c.req.param('environmentId');
    const refusal = refused(c, environmentId);
    if (refusal) return refusal;
    const result = await execute(c, deps, EnvironmentApiKeysDocument, { id: environmentId });
    if ('response' in result) return result.response;
    return c.json({ data: result.data.environment.apiKeys.map(restApiKey) }, 200);
  });

  routes.post(path, needs('keys:manage'), async (c) => {
    const environmentId = c.req.param('environmentId');
    const refusal = refused(c, environmentId);
    if (refusal) return refusal;
    const read = await readJsonObject(c, deps.maxJsonDepth);
    if ('response' in read) return read.response;
    const parsed = createKeyBodySchema.safeParse(read.body);
    if (!parsed.success) return respondWithError(c, invalidInput(bodyErrors(parsed.error.issues)));
    const { name, scopes, expires, formIds } = parsed.data;
    const input = {
      environmentId,
      name,
      scopes: scopes?.map(scopeValue),
      formIds,
      expiresAt: expires === undefined ? undefined : parseKeyExpiry(expires)!.toISOString(),
    };
    const result = await execute(c, deps, CreateApiKeyDocument, { input });
    if ('response' in result) return result.response;
    const { apiKey, key } = result.data.createApiKey;
    return c.json({ ...restApiKey(apiKey), key }, 201);
  });
  routes.all(path, methodNotAllowed(['GET', 'POST']));

  routes.delete(`${path}/:keyId`, needs('keys:manage'), async (c) => {
    const environmentId = c.req.param('environmentId');
    const refusal = refused(c, environmentId);
    if (refusal) return refusal;
    // The key must be one of the path's environment: the admin token's revocation names both.
    const listed = await execute(c, deps, EnvironmentApiKeysDocument, { id: environmentId });
    if ('response' in listed) return listed.response;
    const keyId = c.req.param('keyId');
    if (!listed.data.environment.apiKeys.some((key) => key.id === keyId)) return respondWithError(c, notFound('API key not found'));
    const result = await execute(c, deps, RevokeApiKeyDocument, { id: keyId });
    if ('response' in result) return result.response;
    return c.json(restApiKey(result.data.revokeApiKey), 200);
  });
  routes.all(`${path}/:keyId`, methodNotAllowed(['DELETE']));

  return routes;
}
