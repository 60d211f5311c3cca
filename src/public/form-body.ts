/**
 * Reading a page's form post (`POST /s/:formId`) before any of it is used: urlencoded or multipart
 * only, text fields only except the step's file inputs (FileUploader), well-formed UTF-8, and no
 * string PostgreSQL would refuse (NUL). A multipart post to a step with file inputs carries binary
 * parts, so its bytes as a whole are not checked as UTF-8 (its text fields are still checked for NUL). WHATWG form decoding silently turns undecodable bytes (UTF-8-encoded
 * surrogates included) into U+FFFD, so the bytes are checked first: a body that is not valid UTF-8 is
 * refused rather than stored altered.
 */
import { unsafeStringProblem } from '../limits/json-safety.ts';
import type { FieldProblem, FormBody } from './form-fields.ts';
import type { PublicContext } from './context.ts';

const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data']);

/** Files posted to file inputs, by field name (empty inputs left out). */
export type PostedFiles = Map<string, File[]>;

export type FormBodyResult =
  | { ok: true; body: FormBody; files: PostedFiles }
  /**
   * 415: not a form post. 413: more text than `textLimitBytes`. 400: unreadable, or `problems` name the
   * offending fields (when known).
   */
  | { ok: false; status: 400 | 413 | 415; problems: FieldProblem[] };

const utf8 = new TextDecoder('utf-8', { fatal: true });

function isUtf8(bytes: Uint8Array): boolean {
  try {
    utf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** Fields whose urlencoded name or value does not percent-decode to valid UTF-8. */
function undecodableFields(text: string): FieldProblem[] | undefined {
  const problems: FieldProblem[] = [];
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const at = pair.indexOf('=');
    const [rawName, rawValue] = at === -1 ? [pair, ''] : [pair.slice(0, at), pair.slice(at + 1)];
    const decode = (part: string) => decodeURIComponent(part.replace(/\+/g, ' '));
    let name: string;
    try {
      name = decode(rawName);
    } catch {
      return undefined; // not even the name can be read
    }
    try {
      decode(rawValue);
    } catch {
      problems.push({ name, message: 'This field is not valid UTF-8 text' });
    }
  }
  return problems;
}

/**
 * `fileFields`: names of the step's file inputs, the only fields that may carry files. `textLimitBytes`: what
 * the post may carry besides files (the route lets a multipart body through with the upload limit, since it
 * does not know the step): the whole body on a step without file inputs, the text fields' names and values
 * (UTF-8 bytes) on one with them.
 */
export async function readFormBody(c: PublicContext, textLimitBytes: number, fileFields: ReadonlySet<string> = new Set()): Promise<FormBodyResult> {
  const mediaType = c.req.header('content-type')?.split(';')[0]!.trim().toLowerCase() ?? '';
  if (!FORM_TYPES.has(mediaType)) return { ok: false, status: 415, problems: [] };
  let parsed: Record<string, string | File | (string | File)[]>;
  try {
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    const binaryParts = mediaType === 'multipart/form-data' && fileFields.size > 0;
    if (!binaryParts && bytes.byteLength > textLimitBytes) return { ok: false, status: 413, problems: [] };
    if (!binaryParts && !isUtf8(bytes)) return { ok: false, status: 400, problems: [] };
    if (mediaType === 'application/x-www-form-urlencoded') {
      const undecodable = undecodableFields(utf8.decode(bytes));
      if (!undecodable) return { ok: false, status: 400, problems: [] };
      if (undecodable.length > 0) return { ok: false, status: 400, problems: undecodable };
    }
    // Reads the same (cached) bytes.
    parsed = await c.req.parseBody({ all: true });
  } catch {
    return { ok: false, status: 400, problems: [] };
  }
  const body: FormBody = new Map();
  const files: PostedFiles = new Map();
  const problems: FieldProblem[] = [];
  if (textBytes(parsed) > textLimitBytes) return { ok: false, status: 413, problems: [] };
  for (const [name, value] of Object.entries(parsed)) {
    if (unsafeStringProblem(name)) return { ok: false, status: 400, problems: [] };
    const values = Array.isArray(value) ? value : [value];
    const texts: string[] = [];
    for (const item of values) {
      if (typeof item !== 'string') {
        if (!fileFields.has(name)) problems.push({ name, message: 'This field takes text, not a file' });
        // An empty file input posts a part with no name and no bytes.
        else if (item.name !== '' || item.size > 0) files.set(name, [...(files.get(name) ?? []), item]);
      } else if (unsafeStringProblem(item)) problems.push({ name, message: 'This field contains characters that cannot be stored (NUL)' });
      else texts.push(item);
    }
    body.set(name, texts);
  }
  return problems.length > 0 ? { ok: false, status: 400, problems: dedupe(problems) } : { ok: true, body, files };
}

/** The UTF-8 bytes of a parsed body's text: every field's name and text values. */
function textBytes(parsed: Record<string, string | File | (string | File)[]>): number {
  let total = 0;
  for (const [name, value] of Object.entries(parsed)) {
    total += Buffer.byteLength(name);
    for (const item of Array.isArray(value) ? value : [value]) if (typeof item === 'string') total += Buffer.byteLength(item);
  }
  return total;
}

const dedupe = (problems: FieldProblem[]) => [...new Map(problems.map((p) => [`${p.name}\u0001${p.message}`, p])).values()];
