/**
 * `GET /s/:formId/definition[?version=N]`: the published form's version, steps, components (ids are the
 * questionIds), hidden fields, logic and theme; `version` asks for the version a response started on
 * (its `formVersion`), shown only with that response's resume token. A multilingual form's texts come in
 * `?lang=` (or the best of Accept-Language, or the default), with `language` and `languages`.
 */
import type { Form } from '../forms/forms.service.ts';
import { stepKey } from '../forms/logic.ts';
import { languagesOf, localizeForm } from '../forms/translations.ts';
import { negotiateLanguage } from '../i18n/negotiate.ts';
import { formAtVersion, parseVersion } from '../forms/versions.service.ts';
import { isAnswerable, isRequired } from '../responses/shapes.ts';
import { findSessionResponse } from '../responses/submissions.service.ts';
import { bearerToken, FORM_NOT_FOUND } from './api-answers.ts';
import { FORM_CLOSED, FORM_CLOSED_STATUS, formForResponse, liveForm, type PublicRequest } from './context.ts';
import { apiSessionKey } from './tokens.ts';

const VERSION_NOT_FOUND = { message: 'Version not found' } as const;

export async function showDefinition(request: PublicRequest): Promise<Response> {
  const { c, deps } = request;
  const current = await liveForm(deps.db, request.formId);
  if (!current) return c.json(FORM_NOT_FOUND, 404);
  if (current.status === 'closed') return c.json(FORM_CLOSED, FORM_CLOSED_STATUS);
  // `?version=N`: the version a response started on (its `formVersion`), which it is answered on.
  const asked = c.req.query('version');
  const version = asked === undefined ? undefined : parseVersion(asked);
  if (asked !== undefined && version === undefined) {
    return c.json(
      {
        message: 'Invalid query parameters',
        errors: [{ message: 'version must be a version number of the form (1, 2, …)', path: ['version'] }],
      },
      400,
    );
  }
  // An older version only for the resume token of a response answered on it (as the PATCH sends it).
  if (version !== undefined && version !== current.version) {
    const token = bearerToken(c);
    if (!token) return c.json({ message: 'Missing resume token: an older version is shown only with the resume token of a response on it' }, 401);
    const row = await findSessionResponse(deps.db, current.id, apiSessionKey(token));
    if (!row || (await formForResponse(deps.db, deps.config, current, row)).version !== version) return c.json(VERSION_NOT_FOUND, 404);
  }
  const form = version === undefined ? current : await formAtVersion(deps.db, current, version);
  if (!form) return c.json(VERSION_NOT_FOUND, 404);
  c.header('Cache-Control', 'no-cache');
  // A multilingual form's texts in `?lang=` (else the best of Accept-Language, else the default).
  const languages = languagesOf(form);
  const language = negotiateLanguage(languages, { asked: c.req.query('lang'), acceptLanguage: c.req.header('accept-language') });
  return c.json(definitionOf(localizeForm(form, language), form.languages ? { language, languages } : {}));
}

/** The form as a client renders it (a multilingual form's: in one of its languages, which it names). */
const definitionOf = (form: Form, languages: { language?: string; languages?: string[] }) => ({
  id: form.id,
  name: form.name,
  url: `/s/${form.id}`,
  locale: form.locale,
  ...languages,
  version: form.version,
  hiddenFields: form.hiddenFields,
  variables: form.variables,
  theme: form.theme,
  steps: form.steps.map((step, index) => ({
    id: step.id,
    key: stepKey(step, index),
    name: step.name,
    completion: step.completion === true,
    invalid: step.invalid === true,
    logic: step.logic ?? null,
    components: step.components.map((component) => ({
      id: component.id,
      key: component.key ?? null,
      type: component.type,
      content: component.content,
      answerable: isAnswerable(component.type),
      required: isRequired(component),
    })),
  })),
});
