/**
 * v1 REST of a form's translations, adapters of the translation operations (schema/operations/forms.graphql):
 *   GET /api/v1/forms/{formId}/translations            every language with its completeness (Form.translations)
 *   GET /api/v1/forms/{formId}/translations/{locale}   one language's texts: a flat document {"<stable path>": "text"}
 *   PUT /api/v1/forms/{formId}/translations/{locale}   replace them (putFormTranslation): a new version; If-Match
 * The paths are keyed by step and component keys (docs/languages.md), so a translation tool can round-trip them.
 */
import { Hono } from 'hono';
import { notFound } from '../errors.ts';
import { FormTranslationDocument, FormTranslationsDocument, PutFormTranslationDocument } from '../graphql/generated/graphql.ts';
import type { AppEnv } from '../http.ts';
import { methodNotAllowed, readJsonObject } from '../limits/request-safety.ts';
import { respondWithError } from '../graphql/errors.ts';
import { execute, refuseUnlessApiKey, type RestDeps } from './respond.ts';
import { etagOf, expectedVersionOf } from './forms.ts';
import { needs } from './access.ts';

export function translationsRoutes(deps: RestDeps) {
  const routes = new Hono<AppEnv>();

  routes.get('/forms/:formId/translations', needs('forms:read'), async (c) => {
    const refused = refuseUnlessApiKey(c);
    if (refused) return refused;
    const result = await execute(c, deps, FormTranslationsDocument, { id: c.req.param('formId') });
    if ('response' in result) return result.response;
    const form = result.data.form;
    if (!form) return respondWithError(c, notFound('Form not found'));
    c.header('ETag', etagOf(form.version));
    return c.json({ data: form.translations }, 200);
  });
  routes.all('/forms/:formId/translations', methodNotAllowed(['GET']));

  routes.get('/forms/:formId/translations/:locale', needs('forms:read'), async (c) => {
    const refused = refuseUnlessApiKey(c);
    if (refused) return refused;
    const result = await execute(c, deps, FormTranslationDocument, { id: c.req.param('formId'), locale: c.req.param('locale') });
    if ('response' in result) return result.response;
    const form = result.data.form;
    if (!form) return respondWithError(c, notFound('Form not found'));
    if (form.translation === null || form.translation === undefined) return respondWithError(c, notFound("Language not found: it is not one of the form's languages"));
    c.header('ETag', etagOf(form.version));
    return c.json(form.translation, 200);
  });

  routes.put('/forms/:formId/translations/:locale', needs('forms:write'), async (c) => {
    const refused = refuseUnlessApiKey(c);
    if (refused) return refused;
    let expectedVersion: number | undefined;
    try {
      expectedVersion = expectedVersionOf(c.req.header('if-match'));
    } catch (error) {
      return respondWithError(c, error);
    }
    const read = await readJsonObject(c, deps.maxJsonDepth);
    if ('response' in read) return read.response;
    const variables = { id: c.req.param('formId'), locale: c.req.param('locale'), texts: read.body, expectedVersion: expectedVersion ?? null };
    const result = await execute(c, deps, PutFormTranslationDocument, variables);
    if ('response' in result) return result.response;
    const { success, version, form } = result.data.putFormTranslation;
    c.header('ETag', etagOf(version));
    return c.json({ success, result: { form: { id: form.id, url: form.url, version } } }, 200);
  });
  routes.all('/forms/:formId/translations/:locale', methodNotAllowed(['GET', 'PUT']));

  return routes;
}
