/**
 * FileUploader: real files. Content: `question`, `required`, `allowedTypes` (file type names, see
 * uploads/file-types.ts; default: common documents and images), `maxSize` (bytes; default 10 MB,
 * capped by UPLOAD_MAX_BODY_BYTES), `multiple` (several files) and `maxFiles` (default 10 when multiple).
 *
 * The page posts the files with the step (multipart; with JavaScript each file is uploaded on its own
 * with progress, then posted by id). The JSON API uploads first (`POST /s/:formId/uploads`) and answers
 * with the upload id (or a list of ids when `multiple`). An http(s) link is still taken as an answer
 * (older clients). Stored: `fileUrl` (the first file's formloom URL) and `files` [{id, name, size,
 * contentType, url}].
 */
import { html } from 'hono/html';
import { z } from 'zod';
import { asString as str } from '../graphql/json-fields.ts';
import { DEFAULT_ALLOWED_TYPES, DEFAULT_MAX_FILE_BYTES, FILE_TYPE_NAMES } from '../uploads/file-types.ts';
import { fileUrl } from '../uploads/file-urls.ts';
import { isEmpty, pickedShape, REQUIRED, UploadedFile } from './answers.ts';
import { isHttpUrl, text, type Content } from './content.ts';
import { fieldName } from './fields.ts';
import { box, domId, errorsOf, errorText, label } from './markup.ts';
import { fieldless } from './conditions.ts';
import type { ComponentModule } from './module.ts';
import { formatSize, pageWords, type PageWords } from '../i18n/locales.ts';

/** Largest `maxSize` a FileUploader may declare (the server's UPLOAD_MAX_BODY_BYTES caps it further). */
const MAX_DECLARED_BYTES = 1024 * 1024 * 1024;
const MAX_FILES = 20;

/** What a FileUploader accepts, `maxBodyBytes` being the server's largest upload body. */
function fileUploaderRules(content: Content, maxBodyBytes = Number.POSITIVE_INFINITY): { allowedTypes: string[]; maxBytes: number; maxFiles: number } {
  const allowed = Array.isArray(content.allowedTypes) ? content.allowedTypes.filter((t): t is string => typeof t === 'string') : [];
  const declared = typeof content.maxSize === 'number' && content.maxSize > 0 ? content.maxSize : DEFAULT_MAX_FILE_BYTES;
  const multiple = content.multiple === true;
  return {
    allowedTypes: allowed.length > 0 ? allowed : DEFAULT_ALLOWED_TYPES,
    maxBytes: Math.min(declared, maxBodyBytes),
    maxFiles: multiple ? (typeof content.maxFiles === 'number' ? content.maxFiles : 10) : 1,
  };
}

const fileType = z
  .string()
  .transform((value) => value.replace(/^\./, '').toLowerCase())
  .pipe(z.enum(FILE_TYPE_NAMES as [string, ...string[]], { error: (issue) => `Unknown file type ${JSON.stringify(issue.input)}; known: ${FILE_TYPE_NAMES.join(', ')}` }));

const NOT_AN_UPLOAD = 'Must be the id of a file uploaded to this question (POST /s/{formId}/uploads), or an http(s) link';

/** A file of a stored answer, or one shown on the page. */
interface ShownFile {
  id: string;
  name: string;
  size?: number;
}
const shownFiles = (value: unknown, words: PageWords): ShownFile[] =>
  (Array.isArray(value) ? value : [value]).flatMap((item): ShownFile[] => {
    if (item instanceof UploadedFile) return [{ id: item.id, name: item.name, size: item.size }];
    if (typeof item === 'object' && item !== null && typeof (item as Content).id === 'string') {
      const file = item as Content;
      return [{ id: file.id as string, name: typeof file.name === 'string' ? file.name : words.uploadedEarlier, ...(typeof file.size === 'number' ? { size: file.size } : {}) }];
    }
    if (typeof item === 'string' && item !== '') return [{ id: item, name: item.startsWith('upl_') ? words.uploadedEarlier : item }];
    return [];
  });

/** What the page's script writes while a file goes up (client-script.ts), in the form's language. */
const scriptWords = (words: PageWords) =>
  JSON.stringify({
    progress: words.uploadProgress,
    uploaded: words.uploadedOne,
    uploadedMany: words.uploadedMany,
    failed: words.uploadFailed,
    offline: words.uploadOffline,
    tooLarge: words.uploadTooLarge,
    busy: words.uploadBusy,
    closed: words.closedText,
  });

export const fileUploader: ComponentModule = {
  types: {
    FileUploader: {
      schema: z.looseObject({
        question: text.optional(),
        required: z.boolean().optional(),
        allowedTypes: z.array(fileType).min(1, 'name at least 1 file type').max(FILE_TYPE_NAMES.length).optional(),
        maxSize: z.number().int().min(1).max(MAX_DECLARED_BYTES).optional(),
        multiple: z.boolean().optional(),
        maxFiles: z.number().int().min(1).max(MAX_FILES).optional(),
      }),
    },
  },
  multipart: true,
  answer: {
    shapes: {
      answer: pickedShape('The id of an upload (`POST /s/{formId}/uploads`), a list of ids with `multiple`; or an http(s) link to a file.'),
      stored: {
        fileUrl: z.string().meta({ description: 'The first file, or the link given.' }),
        files: z
          .array(z.strictObject({ id: z.string(), name: z.string(), size: z.number().int(), contentType: z.string(), url: z.string() }))
          .optional()
          .meta({ description: 'The uploaded files (left out for a link).' }),
      },
    },
    parse({ content }, raw, problems, required) {
      if (isEmpty(raw)) {
        if (required) problems.add([], REQUIRED);
        return null;
      }
      // A link (older clients).
      if (typeof raw === 'string' && isHttpUrl(raw.trim())) return { fileUrl: raw.trim() };
      const { maxFiles } = fileUploaderRules(content);
      const items = Array.isArray(raw) ? raw : [raw];
      if (Array.isArray(raw) && maxFiles === 1 && raw.length > 1) {
        problems.add([], 'Upload one file');
        return null;
      }
      if (items.length > maxFiles) {
        problems.add([], `Upload at most ${maxFiles} files`);
        return null;
      }
      const files: UploadedFile[] = [];
      items.forEach((item, index) => {
        if (item instanceof UploadedFile) files.push(item);
        else problems.add(Array.isArray(raw) ? [index] : [], NOT_AN_UPLOAD);
      });
      if (problems.any) return null;
      const unique = [...new Map(files.map((file) => [file.id, file])).values()];
      return {
        fileUrl: fileUrl(unique[0]!.id),
        files: unique.map((file) => ({ id: file.id, name: file.name, size: file.size, contentType: file.contentType, url: fileUrl(file.id) })),
      };
    },
    fromFields(component, fields, stored) {
      const ids = fields.all(fieldName(component)).filter((value) => value !== '');
      if (ids.length === 0) return stored ? undefined : '';
      return component.content.multiple === true || ids.length > 1 ? ids : ids[0];
    },
    toAnswer: (_component, response) => (Array.isArray(response.files) ? response.files : response.fileUrl),
  },
  render(component, ctx) {
    const { content } = component;
    const id = domId(component);
    const messages = errorsOf(ctx, component.id);
    const rules = fileUploaderRules(content);
    const { locale } = ctx.form;
    const words = pageWords(locale);
    const current = shownFiles(ctx.values.get(component.id), words);
    const accept = rules.allowedTypes.map((type) => `.${type}`).join(',');
    const required = content.required === true && current.length === 0;
    const noteId = `${id}-note`;
    const kept = current.map(
      (file) =>
        html`<li><input type="hidden" name="${fieldName(component)}" value="${file.id}">${file.name}${file.size !== undefined ? ` (${formatSize(file.size, locale)})` : ''}</li>`,
    );
    return box(
      component,
      messages.length > 0,
      html`${label(component, id)}${current.length > 0 ? html`<ul class="fl-files" data-files>${kept}</ul><p class="fl-note">${words.replaceFiles(current.length)}</p>` : ''}<div class="fl-dropzone" data-dropzone><input type="file" id="${id}" name="${fieldName(component)}" class="fl-input fl-file" accept="${accept}"${content.multiple === true ? ' multiple' : ''}${required ? ' required' : ''} data-upload="/s/${ctx.form.id}/uploads?localized=1" data-component="${component.id}" data-max-bytes="${rules.maxBytes}" aria-describedby="${noteId}${messages.length ? ` ${id}-error` : ''}"${messages.length ? ' aria-invalid="true"' : ''}${content.question ? '' : html` aria-label="${words.file}"`}></div><p class="fl-note" id="${noteId}">${words.accepted(rules.allowedTypes.join(', '), formatSize(rules.maxBytes, locale), rules.maxFiles)}</p><div class="fl-upload-status" data-upload-status data-words="${scriptWords(words)}" aria-live="polite"></div>${errorText(id, messages)}`,
    );
  },
  // The drop zone is the file input itself, drawn large: browsers take a file dropped on it without
  // JavaScript and show the chosen file's name; the page script adds its size and the drag highlight.
  style: {
    css: `.fl-dropzone { position: relative; }
.fl-input.fl-file { min-height: 96px; padding: 28px 16px; text-align: center; border: 2px dashed var(--c-border); cursor: pointer; }
.fl-input.fl-file::file-selector-button { font: inherit; margin-inline-end: 12px; padding: 8px 14px; min-height: 40px; border: 1px solid var(--c-border); border-radius: var(--c-radius); background: var(--c-bg); color: var(--c-field-fg); cursor: pointer; }
.fl-dropzone.fl-dragging .fl-input.fl-file, .fl-input.fl-file:hover { border-color: var(--c-accent); background: color-mix(in srgb, var(--c-accent) 6%, var(--c-bg)); }`,
  },
  graphql: (kit) => ({
    answers: {
      FileUploader: kit.answer('FileUploaderAnswer', 'Answer to a FileUploader.', (t) => ({
        fileUrl: t.string({
          nullable: true,
          description: 'The first file: a URL signed to work without an API key until it expires (FILE_URL_TTL_SECONDS); a link answer as given.',
          resolve: (r, _args, ctx) => {
            const files = Array.isArray(r.files) ? r.files : [];
            const first = files[0] as { id?: unknown } | undefined;
            return typeof first?.id === 'string' && ctx.signFileUrl ? ctx.signFileUrl(first.id) : str(r.fileUrl);
          },
        }),
      })),
    },
  }),
  uploads: {
    limits: (component, maxBodyBytes) => fileUploaderRules(component.content, maxBodyBytes),
    uploadIds: (response) =>
      Array.isArray(response.files)
        ? response.files.flatMap((file) => (typeof file === 'object' && file !== null && typeof (file as { id?: unknown }).id === 'string' ? [(file as { id: string }).id] : []))
        : [],
  },
  conditions: { subject: fieldless(() => ({ kind: 'presence' })), value: () => true },
};
