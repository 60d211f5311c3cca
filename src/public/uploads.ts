/**
 * `POST /s/:formId/uploads`: the public JSON API's file upload (docs/public-pages.md, "File uploads"). A multipart
 * body with `componentId` (a component of the form that takes uploads: its module has `uploads`; of its
 * version `formVersion` when given: the version the response answers) and one `file` part (several when
 * the component is `multiple`) → 201 `{files: [{id, name, size, contentType}]}`.
 * The answer to that component is then the id (or the list of ids). Files are checked before anything is stored: a
 * disallowed, oversized or disguised file, or an archive bomb (uploads/archives.ts), is a 400 with its
 * path (`["file", index]`), and then none of the request's files are kept. An upload not used by a
 * response within a day is removed. Its messages are English, like the rest of the API; the page's
 * script asks with `?localized=1` for the file checks' messages in the form's language.
 */
import { storeUploads, uploadRulesOf } from '../uploads/uploads.service.ts';
import { UPLOAD_TYPES } from '../components/catalogue.ts';
import { FORM_CLOSED, FORM_CLOSED_STATUS, liveForm, type PublicContext, type PublicRequest } from './context.ts';
import { unsafeStringProblem } from '../limits/json-safety.ts';
import type { FieldError } from '../errors.ts';
import { formAtVersion, parseVersion } from '../forms/versions.service.ts';
import { localizeMessage } from '../i18n/locales.ts';

const invalidBody = (c: PublicContext, errors: FieldError[]) => c.json({ message: 'Invalid request body', errors }, 400);
const UPLOAD_MEDIA_TYPE = 'Unsupported media type: send the upload as multipart/form-data';
/** What takes uploads, as the errors name it: the types whose module takes them. */
const UPLOADER = UPLOAD_TYPES.join(' or ');

export async function storeUpload({ c, deps, formId }: PublicRequest): Promise<Response> {
  const { db, config } = deps;
  const form = await liveForm(db, formId);
  if (!form) return c.json({ message: 'Form not found' }, 404);
  if (form.status === 'closed') return c.json(FORM_CLOSED, FORM_CLOSED_STATUS);
  const mediaType = c.req.header('content-type')?.split(';')[0]!.trim().toLowerCase();
  if (mediaType !== 'multipart/form-data') return c.json({ message: UPLOAD_MEDIA_TYPE }, 415);
  let parsed: Record<string, string | File | (string | File)[]>;
  try {
    parsed = await c.req.parseBody({ all: true });
  } catch {
    return invalidBody(c, [{ message: 'The multipart body could not be read', path: [] }]);
  }
  const errors: FieldError[] = [];
  for (const name of Object.keys(parsed)) {
    if (name !== 'componentId' && name !== 'file' && name !== 'formVersion') {
      errors.push({ message: `Unknown field; expected componentId, file and optionally formVersion`, path: [unsafeStringProblem(name) ? '?' : name] });
    }
  }
  // The version the response answers (its `formVersion`), when the form has changed since it started.
  const askedVersion = parsed.formVersion;
  const version = typeof askedVersion === 'string' ? parseVersion(askedVersion) : undefined;
  if (askedVersion !== undefined && version === undefined) errors.push({ message: 'formVersion must be a version number of the form (1, 2, …)', path: ['formVersion'] });
  const answered = version === undefined ? form : await formAtVersion(db, form, version);
  if (!answered) errors.push({ message: 'No such version of the form', path: ['formVersion'] });
  const componentId = parsed.componentId;
  const component =
    typeof componentId === 'string' && answered
      ? answered.steps.flatMap((step) => step.components).find((candidate) => candidate.id === componentId && uploadRulesOf(candidate) !== undefined)
      : undefined;
  if (typeof componentId !== 'string') errors.push({ message: `Required: the id of a ${UPLOADER} of the form`, path: ['componentId'] });
  else if (!component && answered) errors.push({ message: `No ${UPLOADER} with this id in the form`, path: ['componentId'] });
  const parts = parsed.file === undefined ? [] : Array.isArray(parsed.file) ? parsed.file : [parsed.file];
  if (parts.length === 0) errors.push({ message: 'Required: at least one file', path: ['file'] });
  parts.forEach((part, index) => {
    if (typeof part === 'string') errors.push({ message: 'Must be a file', path: ['file', index] });
  });
  if (errors.length > 0 || !component) return invalidBody(c, errors);
  const files = await Promise.all(parts.map(async (part) => ({ name: (part as File).name, bytes: new Uint8Array(await (part as File).arrayBuffer()) })));
  const target = { environmentId: form.environmentId, formId: form.id, component };
  const stored = await storeUploads(db, deps.fileStorage, target, files, { maxBodyBytes: config.uploads.maxBodyBytes });
  if (!stored.ok) {
    const localized = c.req.query('localized') === '1';
    return invalidBody(
      c,
      stored.errors.map((error) => ({ message: localized ? localizeMessage((answered ?? form).locale, error.message) : error.message, path: ['file', ...error.path] })),
    );
  }
  c.header('Cache-Control', 'no-store');
  return c.json({ files: stored.files.map(({ id, name, size, contentType }) => ({ id, name, size, contentType })) }, 201);
}
