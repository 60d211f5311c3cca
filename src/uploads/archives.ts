/**
 * Zip-based uploads (docx, xlsx, pptx, odt, ods, odp, zip) recognised at a bounded cost, whatever their
 * bytes. file-type's zip detection is not used for them: it inflates whole archive entries (and nested
 * gzip) into memory without a bound, so a 1 MB .docx whose one entry inflates to 1 GiB cost gigabytes of
 * memory and tens of seconds of CPU, and it has no option to stop that. Here yauzl (made for reading
 * untrusted zips: zip64, name encodings, the bounds of every record) reads the central directory and the
 * local headers, and inflation is capped: the type comes from one small entry, `mimetype` (OpenDocument)
 * or `[Content_Types].xml` (Office Open XML); of other entries only the first bytes are inflated, to
 * find archives inside the archive, which are then checked the same way.
 *
 * An archive is refused, as a bomb or as broken, when
 * - it (with the archives inside it) holds more than MAX_ZIP_ENTRIES entries;
 * - its entries, and those of the archives inside it, would expand to more than MAX_EXPANSION_RATIO
 *   times the upload's size (and over EXPANSION_ALLOWANCE_BYTES); the sizes the directories declare are
 *   used, and every entry inflated must inflate to exactly its declared size and checksum;
 * - archives are nested more than MAX_NESTING deep, or the archives inside it are more than
 *   MAX_NESTED_BYTES in all (too much to check);
 * - its directory and local headers disagree (name, method, sizes), entries overlap (the overlapping-
 *   entries bomb), a record points outside the file, an entry cannot be inflated, or a name is an
 *   absolute or `..` path.
 */
import { constants, crc32, gunzipSync, inflateRawSync } from 'node:zlib';
import type { Entry, LocalFileHeader } from 'yauzl';

export const MAX_ZIP_ENTRIES = 10_000;
const MAX_EXPANSION_RATIO = 100;
const EXPANSION_ALLOWANCE_BYTES = 1024 * 1024;
const MAX_NESTING = 3;
const MAX_NESTED_BYTES = 8 * 1024 * 1024;
/** Largest type-naming entry inflated (real ones are a few KB; a pptx of 1000 slides, ~150 KB). */
const MAX_TYPE_ENTRY_BYTES = 1024 * 1024;
/** Most bytes inflated in all to read entries' first bytes (a few hundred per entry for real files). */
const MAX_PEEK_BYTES = 32 * 1024 * 1024;

/** What a file is (a type name as file-types.ts knows them), or why it is refused. */
export type ArchiveCheck = { ok: true; detected: string } | { ok: false; reason: string };

const DAMAGED = 'its zip structure is damaged or inconsistent';
const EXPANDS = `its contents would expand to more than ${MAX_EXPANSION_RATIO} times its size`;

class Refusal extends Error {}

/** The first bytes of a zip archive (as file-type tells one): `PK` and a record signature. */
export const looksLikeZip = (bytes: Uint8Array): boolean =>
  bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && [3, 5, 7].includes(bytes[2]!) && [4, 6, 8].includes(bytes[3]!);
export const looksLikeGzip = (bytes: Uint8Array): boolean => bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;

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

/** What checking one upload has used so far, against its limits. */
class Allowance {
  readonly maxExpansion: number;
  expansion = 0;
  entries = 0;
  nestedBytes = 0;
  peekBytes = 0;
  constructor(uploadBytes: number) {
    this.maxExpansion = Math.max(MAX_EXPANSION_RATIO * uploadBytes, EXPANSION_ALLOWANCE_BYTES);
  }
  expand(bytes: number) {
    this.expansion += bytes;
    if (this.expansion > this.maxExpansion) throw new Refusal(EXPANDS);
  }
  nestedLeft = () => MAX_NESTED_BYTES - this.nestedBytes;
  nest(bytes: number) {
    this.nestedBytes += bytes;
    if (this.nestedBytes > MAX_NESTED_BYTES) throw new Refusal(`the archives inside it hold more than ${MAX_NESTED_BYTES / (1024 * 1024)} MB, too much to check`);
  }
}

interface ReadEntry {
  entry: Entry;
  data: Buffer;
  /** Where its data ends: the entry's header and data are [relativeOffsetOfLocalHeader, end). */
  end: number;
}

export async function inspectZip(bytes: Uint8Array): Promise<ArchiveCheck> {
  try {
    const entries = await readArchive(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), new Allowance(bytes.byteLength), 0);
    return { ok: true, detected: typeOf(entries) };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, reason: error.message };
    throw error;
  }
}

/** Reads an archive's directory, checks it, and checks the archives inside it, at `depth`. */
async function readArchive(buffer: Buffer, allowance: Allowance, depth: number): Promise<ReadEntry[]> {
  const entries: ReadEntry[] = [];
  try {
    // Loaded on the first archive, not at start-up.
    const { fromBufferPromise } = await import('yauzl');
    const zip = await fromBufferPromise(buffer, { lazyEntries: true, validateEntrySizes: true });
    allowance.entries += zip.entryCount;
    if (allowance.entries > MAX_ZIP_ENTRIES) throw new Refusal(`it holds more than ${MAX_ZIP_ENTRIES} files`);
    for await (const entry of zip.eachEntry()) {
      const local = await zip.readLocalFileHeaderPromise(entry);
      if (!headersAgree(entry, local)) throw new Refusal(DAMAGED);
      const end = local.fileDataStart + entry.compressedSize;
      entries.push({ entry, data: buffer.subarray(local.fileDataStart, end), end });
      allowance.expand(entry.uncompressedSize);
    }
  } catch (error) {
    if (error instanceof Refusal) throw error;
    const message = error instanceof Error ? error.message : '';
    if (/absolute path|invalid relative path|invalid characters in fileName/.test(message)) throw new Refusal('it holds a file with an absolute or ".." path');
    throw new Refusal(DAMAGED);
  }
  if (overlap(entries)) throw new Refusal(DAMAGED);
  for (const read of entries) {
    const head = firstBytes(read, allowance);
    if (!looksLikeZip(head) && !looksLikeGzip(head)) continue;
    if (depth + 1 >= MAX_NESTING) throw new Refusal(`it holds archives nested more than ${MAX_NESTING} deep`);
    allowance.nest(read.entry.uncompressedSize);
    await readNested(contentOf(read, MAX_NESTED_BYTES), allowance, depth + 1);
  }
  return entries;
}

/** An archive inside the archive: a zip, or gzip (whatever it holds counts as expansion). */
async function readNested(bytes: Buffer, allowance: Allowance, depth: number): Promise<void> {
  if (looksLikeZip(bytes)) {
    await readArchive(bytes, allowance, depth);
    return;
  }
  let inflated: Buffer;
  try {
    inflated = gunzipSync(bytes, { maxOutputLength: Math.max(allowance.nestedLeft(), 1) });
  } catch (error) {
    throw new Refusal((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' ? EXPANDS : DAMAGED);
  }
  allowance.nest(inflated.length);
  allowance.expand(inflated.length);
  if (looksLikeZip(inflated) || looksLikeGzip(inflated)) {
    if (depth + 1 >= MAX_NESTING) throw new Refusal(`it holds archives nested more than ${MAX_NESTING} deep`);
    await readNested(inflated, allowance, depth + 1);
  }
}

/**
 * The type, as file-type names it: the first entry (in directory order) that names one decides —
 * `mimetype` (OpenDocument), `[Content_Types].xml` (Office Open XML), or the marks of a Java archive,
 * an Android package or a Firefox extension; with none, a plain zip.
 */
function typeOf(entries: readonly ReadEntry[]): string {
  for (const read of entries) {
    const name = read.entry.fileName;
    if (name === 'mimetype') return OPEN_DOCUMENT[textOf(read, 256).trim()] ?? 'opendocument';
    if (name === '[Content_Types].xml') {
      // The main part's content type, as file-type reads it: the first `….main+xml"`.
      const main = /ContentType="([^"]*)\.main\+xml"/i.exec(textOf(read, MAX_TYPE_ENTRY_BYTES))?.[1]?.toLowerCase();
      return (main && OFFICE_OPEN_XML[main]) ?? 'office-open-xml';
    }
    if (name === 'META-INF/mozilla.rsa') return 'xpi';
    if (name === 'META-INF/MANIFEST.MF') return 'jar';
    if (/classes\d*\.dex/.test(name)) return 'apk';
  }
  return 'zip';
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
  const spans = entries.map(({ entry, end }) => [entry.relativeOffsetOfLocalHeader, end] as const).sort((a, b) => a[0] - b[0]);
  return spans.some((span, index) => index > 0 && span[0] < spans[index - 1]![1]);
}

const readable = (entry: Entry) => !entry.isEncrypted() && (entry.compressionMethod === 0 || entry.compressionMethod === 8);

/**
 * The first few bytes an entry inflates to (empty when it cannot be read: encrypted, another method):
 * its data's first 32 bytes are inflated, then 128, 512, … until they give enough.
 */
function firstBytes({ entry, data }: ReadEntry, allowance: Allowance, count = 4): Buffer {
  if (!readable(entry) || entry.uncompressedSize === 0) return Buffer.alloc(0);
  if (entry.compressionMethod === 0) return data.subarray(0, count);
  for (let prefix = 32; ; prefix *= 4) {
    let head: Buffer;
    try {
      // At most ~1032 bytes out per byte in (deflate's largest ratio).
      head = inflateRawSync(data.subarray(0, prefix), { finishFlush: constants.Z_SYNC_FLUSH });
    } catch {
      throw new Refusal(DAMAGED);
    }
    allowance.peekBytes += head.length;
    if (allowance.peekBytes > MAX_PEEK_BYTES) throw new Refusal(EXPANDS);
    if (head.length >= count || prefix >= data.length) return head.subarray(0, count);
  }
}

/**
 * An entry's content, inflated to at most `limit` bytes; refused when it is larger, cannot be read, or
 * does not inflate to its declared size and checksum.
 */
function contentOf({ entry, data }: ReadEntry, limit: number): Buffer {
  if (entry.uncompressedSize > limit || !readable(entry)) throw new Refusal(DAMAGED);
  let content: Buffer;
  try {
    content = entry.compressionMethod === 0 ? data : inflateRawSync(data, { maxOutputLength: Math.max(entry.uncompressedSize, 1) });
  } catch {
    throw new Refusal(DAMAGED);
  }
  if (content.length !== entry.uncompressedSize || crc32(content) !== entry.crc32) throw new Refusal(DAMAGED);
  return content;
}

const textOf = (read: ReadEntry, limit: number) => contentOf(read, limit).toString('utf8');
