/**
 * Which files a FileUploader takes: an extension from the allowed list, and content that is what the
 * extension says. The content is identified by its magic bytes (file-type); text formats (txt, csv),
 * which have none, must be valid UTF-8 without NUL. The type a file is served with comes from its
 * checked content, never from what the client claimed.
 *
 * Checking costs little whatever the bytes: zip-based files are recognised by archives.ts (which
 * refuses archive bombs) and gzip is never inflated (no accepted type is gzip), so file-type, which
 * would inflate both without a bound, never sees them; it looks only at the first bytes of the rest.
 */
import type { Detector, FileTypeResult } from 'file-type';
import { inspectZip, looksLikeGzip, looksLikeZip, type ArchiveCheck } from './archives.ts';
import { formatSize } from '../i18n/locales.ts';

interface KnownType {
  /** What file-type must detect (`text`: nothing detected, valid UTF-8). */
  detected: readonly string[];
  /** Content type the file is served with. */
  contentType: string;
}

/** Every type a FileUploader may allow; `allowedTypes` names some of them. */
export const KNOWN_FILE_TYPES: Readonly<Record<string, KnownType>> = {
  pdf: { detected: ['pdf'], contentType: 'application/pdf' },
  png: { detected: ['png'], contentType: 'image/png' },
  jpg: { detected: ['jpg'], contentType: 'image/jpeg' },
  jpeg: { detected: ['jpg'], contentType: 'image/jpeg' },
  gif: { detected: ['gif'], contentType: 'image/gif' },
  webp: { detected: ['webp'], contentType: 'image/webp' },
  heic: { detected: ['heic'], contentType: 'image/heic' },
  docx: { detected: ['docx'], contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
  xlsx: { detected: ['xlsx'], contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  pptx: { detected: ['pptx'], contentType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation' },
  doc: { detected: ['cfb'], contentType: 'application/msword' },
  xls: { detected: ['cfb'], contentType: 'application/vnd.ms-excel' },
  ppt: { detected: ['cfb'], contentType: 'application/vnd.ms-powerpoint' },
  odt: { detected: ['odt'], contentType: 'application/vnd.oasis.opendocument.text' },
  ods: { detected: ['ods'], contentType: 'application/vnd.oasis.opendocument.spreadsheet' },
  odp: { detected: ['odp'], contentType: 'application/vnd.oasis.opendocument.presentation' },
  rtf: { detected: ['rtf'], contentType: 'application/rtf' },
  txt: { detected: ['text'], contentType: 'text/plain; charset=utf-8' },
  csv: { detected: ['text'], contentType: 'text/csv; charset=utf-8' },
  zip: { detected: ['zip'], contentType: 'application/zip' },
};
export const FILE_TYPE_NAMES = Object.keys(KNOWN_FILE_TYPES);

/** Allowed when a FileUploader names none: common documents and images (not zip). */
export const DEFAULT_ALLOWED_TYPES = FILE_TYPE_NAMES.filter((type) => type !== 'zip');

/** Largest file a FileUploader takes unless its `maxSize` says otherwise. */
export const DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true });
function isText(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    utf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

const extensionOf = (name: string): string => {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
};

export type FileCheck = { ok: true; contentType: string } | { ok: false; message: string };

/** Whether `bytes`, named `name`, is one of `allowed` (type names) and at most `maxBytes`. */
export async function checkFile(name: string, bytes: Uint8Array, allowed: readonly string[], maxBytes: number): Promise<FileCheck> {
  const list = allowed.join(', ');
  if (bytes.byteLength > maxBytes) return { ok: false, message: `${name} is too large (at most ${formatBytes(maxBytes)})` };
  if (bytes.byteLength === 0) return { ok: false, message: `${name} is empty` };
  const extension = extensionOf(name);
  const known = allowed.includes(extension) ? KNOWN_FILE_TYPES[extension] : undefined;
  if (!known) return { ok: false, message: `${name}: this type of file is not accepted (accepted: ${list})` };
  const detection = await detectType(bytes);
  if (!detection.ok) return { ok: false, message: `${name} cannot be accepted: ${detection.reason}` };
  if (!known.detected.includes(detection.detected)) return { ok: false, message: `${name} is not a valid .${extension} file (accepted: ${list})` };
  return { ok: true, contentType: known.contentType };
}

/** The sample file-type detects from in streams (its `reasonableDetectionSizeInBytes`). */
const SAMPLE_BYTES = 4100;
/** What file-type answers for a container's contents (after an ID3 tag, say): nothing nested is looked into. */
const NESTED = { ext: 'nested', mime: 'application/octet-stream' } as unknown as FileTypeResult;
const noNestedDetection: Detector = { id: 'formloom:no-nested', detect: (tokenizer) => Promise.resolve(tokenizer.position > 0 ? NESTED : undefined) };

/** The type name of `bytes` (`text`, `unknown` when none), or why it is refused. */
async function detectType(bytes: Uint8Array): Promise<ArchiveCheck> {
  if (looksLikeZip(bytes)) return inspectZip(bytes);
  if (looksLikeGzip(bytes)) return { ok: true, detected: 'gz' };
  // Loaded on the first upload, not at start-up.
  const { FileTypeParser } = await import('file-type');
  let detected: string | undefined;
  try {
    // The first bytes name every other accepted type: file-type's own detection sample.
    const parser = new FileTypeParser({ customDetectors: [noNestedDetection] });
    detected = (await parser.fromBuffer(bytes.subarray(0, SAMPLE_BYTES)))?.ext;
  } catch {
    detected = undefined; // Bytes file-type cannot read are no known type.
  }
  return { ok: true, detected: detected ?? (isText(bytes) ? 'text' : 'unknown') };
}

/** A size as the messages write it (`2.5 MB`); the page writes it in the form's language (i18n's formatSize). */
export const formatBytes = (bytes: number): string => formatSize(bytes);
