/**
 * Zip-based uploads (docx, xlsx, pptx, odt, ods, odp, zip) recognised at a bounded cost, whatever their
 * bytes. file-type's zip detection is not used for them: it inflates whole archive entries (and nested
 * gzip) into memory without a bound, so a 1 MB .docx whose one entry inflates to 1 GiB cost gigabytes of
 * memory and tens of seconds of CPU. Here yauzl (made for reading untrusted zips: zip64, name encodings,
 * bounds of every record) reads the central directory and the local headers, and of the contents only
 * the one small entry that names the type is inflated, capped: `mimetype` (OpenDocument) or
 * `[Content_Types].xml` (Office Open XML).
 *
 * An archive is refused, without inflating anything more, when
 * - it holds more than MAX_ZIP_ENTRIES entries;
 * - its entries together would expand to more than MAX_EXPANSION_RATIO times the archive's size (and
 *   over EXPANSION_ALLOWANCE_BYTES): the sizes its directory declares are used, and the entry read to
 *   recognise the type must inflate to exactly its declared size and checksum;
 * - its directory and local headers disagree (name, method, sizes), entries overlap (the overlapping-
 *   entries bomb), a record points outside the file, or a name is an absolute or `..` path.
 */
import { crc32, inflateRawSync } from 'node:zlib';
import { fromBufferPromise, type Entry, type LocalFileHeader } from 'yauzl';

export const MAX_ZIP_ENTRIES = 10_000;
export const MAX_EXPANSION_RATIO = 100;
export const EXPANSION_ALLOWANCE_BYTES = 1024 * 1024;
/** Largest type-naming entry inflated (real ones are a few KB; a pptx of 1000 slides, ~150 KB). */
const MAX_TYPE_ENTRY_BYTES = 1024 * 1024;

/** What an archive is (a type name as file-types.ts knows them), or why it is refused. */
export type ArchiveCheck = { ok: true; detected: string } | { ok: false; reason: string };

const DAMAGED = 'its zip structure is damaged or inconsistent';
const refused = (reason: string): ArchiveCheck => ({ ok: false, reason });

/** The first bytes of a zip archive (as file-type tells one): `PK` and a record signature. */
export const looksLikeZip = (bytes: Uint8Array): boolean =>
  bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && [3, 5, 7].includes(bytes[2]!) && [4, 6, 8].includes(bytes[3]!);

const OPEN_DOCUMENT: Record<string, string> = {
  'application/vnd.oasis.opendocument.text': 'odt',
  'application/vnd.oasis.opendocument.spreadsheet': 'ods',
  'application/vnd.oasis.opendocument.presentation': 'odp',
};
const OFFICE_OPEN_XML: Record<string, string> = {
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
};

interface ReadEntry {
  entry: Entry;
  dataStart: number;
}

export async function inspectZip(bytes: Uint8Array): Promise<ArchiveCheck> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const entries: ReadEntry[] = [];
  let declaredBytes = 0;
  try {
    const zip = await fromBufferPromise(buffer, { lazyEntries: true, validateEntrySizes: true });
    if (zip.entryCount > MAX_ZIP_ENTRIES) return refused(`it holds more than ${MAX_ZIP_ENTRIES} files`);
    for await (const entry of zip.eachEntry()) {
      const local = await zip.readLocalFileHeaderPromise(entry);
      if (!headersAgree(entry, local)) return refused(DAMAGED);
      entries.push({ entry, dataStart: local.fileDataStart });
      declaredBytes += entry.uncompressedSize;
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : '';
    if (/absolute path|invalid relative path|invalid characters in fileName/.test(message)) return refused('it holds a file with an absolute or ".." path');
    return refused(DAMAGED);
  }
  if (overlap(entries)) return refused(DAMAGED);
  if (declaredBytes > Math.max(MAX_EXPANSION_RATIO * bytes.byteLength, EXPANSION_ALLOWANCE_BYTES)) {
    return refused(`its contents would expand to more than ${MAX_EXPANSION_RATIO} times its size`);
  }

  const named = (name: string) => entries.find(({ entry }) => entry.fileName === name);
  const mimetype = named('mimetype');
  if (mimetype) {
    const text = entryText(buffer, mimetype, 256);
    if (text === undefined) return refused(DAMAGED);
    return { ok: true, detected: OPEN_DOCUMENT[text.trim()] ?? 'opendocument' };
  }
  const contentTypes = named('[Content_Types].xml');
  if (contentTypes) {
    const text = entryText(buffer, contentTypes, MAX_TYPE_ENTRY_BYTES);
    if (text === undefined) return refused(DAMAGED);
    // The main part's content type, as file-type reads it: the first `….main+xml"`.
    const main = /ContentType="([^"]*)\.main\+xml"/i.exec(text)?.[1]?.toLowerCase();
    return { ok: true, detected: (main && OFFICE_OPEN_XML[main]) ?? 'office-open-xml' };
  }
  return { ok: true, detected: 'zip' };
}

/** The local header tells the same entry as the central directory. */
function headersAgree(entry: Entry, local: LocalFileHeader): boolean {
  if (!local.fileName.equals(entry.fileNameRaw) || local.compressionMethod !== entry.compressionMethod) return false;
  // With a data descriptor (bit 3), the local sizes are zero and the real ones follow the data;
  // 0xffffffff defers to a zip64 extra field.
  if (local.generalPurposeBitFlag & 0x8) return true;
  const same = (localSize: number, centralSize: number) => localSize === 0xffffffff || localSize === centralSize;
  return same(local.compressedSize, entry.compressedSize) && same(local.uncompressedSize, entry.uncompressedSize);
}

/** Whether two entries share bytes: each entry's header and data are its own. */
function overlap(entries: readonly ReadEntry[]): boolean {
  const spans = entries
    .map(({ entry, dataStart }) => [entry.relativeOffsetOfLocalHeader, dataStart + entry.compressedSize] as const)
    .sort((a, b) => a[0] - b[0]);
  return spans.some((span, index) => index > 0 && span[0] < spans[index - 1]![1]);
}

/**
 * A small entry's text, inflated to at most `limit` bytes; undefined when it is larger, encrypted, in a
 * method other than stored or deflate, or does not inflate to its declared size and checksum.
 */
function entryText(buffer: Buffer, { entry, dataStart }: ReadEntry, limit: number): string | undefined {
  if (entry.uncompressedSize > limit || entry.isEncrypted()) return undefined;
  const data = buffer.subarray(dataStart, dataStart + entry.compressedSize);
  let content: Buffer;
  try {
    if (entry.compressionMethod === 0) content = data;
    else if (entry.compressionMethod === 8) content = inflateRawSync(data, { maxOutputLength: Math.max(entry.uncompressedSize, 1) });
    else return undefined;
  } catch {
    return undefined;
  }
  if (content.length !== entry.uncompressedSize || crc32(content) !== entry.crc32) return undefined;
  return content.toString('utf8');
}
