/**
 * Decompression bombs and hostile archives, generated: zip-based files (docx, xlsx, odt, zip) with an
 * entry that inflates to 1 GiB, gzip of such a file and of 1 GiB itself, nested archives, an archive
 * of 65,535 entries, and archives whose directory lies. Each is about 1 MB or less.
 */
import { constants, crc32, deflateRawSync, gzipSync } from 'node:zlib';
import { officeEntries, openDocumentEntries, zip, type ZipEntry } from './file-fixtures.ts';

const MiB = 1024 * 1024;
export const GiB = 1024 * MiB;

export interface Deflated {
  bytes: Buffer;
  size: number;
  crc: number;
}

const zerosCache = new Map<number, Deflated>();
/**
 * `mebibytes` MiB of zero bytes, deflated (about 1 KB per MiB): one MiB deflated and flushed to a byte
 * boundary, repeated, then an empty final block. Checksum and all, as a real bomb has.
 */
export function deflatedZeros(mebibytes: number): Deflated {
  const cached = zerosCache.get(mebibytes);
  if (cached) return cached;
  const zeros = Buffer.alloc(MiB);
  const block = deflateRawSync(zeros, { finishFlush: constants.Z_SYNC_FLUSH, level: 9 });
  let crc = 0;
  for (let index = 0; index < mebibytes; index++) crc = crc32(zeros, crc);
  const deflated = { bytes: Buffer.concat([...Array.from({ length: mebibytes }, () => block), Buffer.from([0x03, 0x00])]), size: mebibytes * MiB, crc };
  zerosCache.set(mebibytes, deflated);
  return deflated;
}

/** A gzip member around deflated data. */
export function gzipOf({ bytes, size, crc }: Deflated): Buffer {
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(size % 2 ** 32, 4);
  return Buffer.concat([Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0x03]), bytes, trailer]);
}

const WORD = 'wordprocessingml.document';
const SHEET = 'spreadsheetml.sheet';
const ODT = 'application/vnd.oasis.opendocument.text';

/** Office parts with the one named `bomb` replaced by 1 GiB of zeros. */
const officeBomb = (main: string, part: string, bomb: string): ZipEntry[] =>
  officeEntries(main, part, '<x/>').map((entry) => (entry.name === bomb ? { name: entry.name, deflated: deflatedZeros(1024) } : entry));

export interface Bomb {
  what: string;
  bytes: Buffer;
  /** The file names it is posted as: one per extension it pretends to be. */
  names: string[];
}

/** Every bomb and hostile archive, generated (about 10 MB in all; a second or two). */
export function bombs(): Bomb[] {
  const gib = deflatedZeros(1024);
  const docxBomb = zip(officeBomb(WORD, 'word/document.xml', '[Content_Types].xml'));
  const zipBomb = zip([{ name: 'zeros.bin', deflated: gib }]);
  const gzipOfGib = gzipOf(gib);
  const tiny = { name: 'a.txt', data: 'a' };
  return [
    { what: 'a docx whose [Content_Types].xml inflates to 1 GiB', bytes: docxBomb, names: ['bomb.docx', 'bomb.zip'] },
    { what: 'a docx whose word/document.xml inflates to 1 GiB', bytes: zip(officeBomb(WORD, 'word/document.xml', 'word/document.xml')), names: ['bomb.docx'] },
    { what: 'an xlsx whose sheet inflates to 1 GiB', bytes: zip(officeBomb(SHEET, 'xl/workbook.xml', 'xl/workbook.xml')), names: ['bomb.xlsx'] },
    { what: 'an odt whose mimetype inflates to 1 GiB', bytes: zip([{ name: 'mimetype', deflated: gib }, ...openDocumentEntries(ODT, '<x/>').slice(1)]), names: ['bomb.odt'] },
    { what: 'a zip whose one entry inflates to 1 GiB', bytes: zipBomb, names: ['bomb.zip'] },
    { what: 'a gzip of the docx bomb', bytes: gzipSync(docxBomb, { level: 9 }), names: ['bomb.docx', 'bomb.pdf', 'bomb.txt'] },
    { what: 'a gzip of 1 GiB of zeros', bytes: gzipOfGib, names: ['bomb.pdf', 'bomb.csv'] },
    { what: 'gzip in gzip in gzip of 1 GiB', bytes: gzipSync(gzipSync(gzipOfGib)), names: ['bomb.pdf', 'bomb.zip'] },
    // An empty ID3v2 tag, after which file-type detects again from there: the gzip's contents once more.
    {
      what: 'the gzip of the docx bomb behind an ID3 tag',
      bytes: Buffer.concat([Buffer.from('ID3\x04\0\0\0\0\0\0', 'latin1'), gzipSync(docxBomb)]),
      names: ['bomb.pdf', 'bomb.docx'],
    },
    { what: 'the zip bomb in a zip', bytes: zip([{ name: 'inner.zip', data: zipBomb }]), names: ['nested.zip'] },
    { what: 'the docx bomb in a zip in a zip', bytes: zip([{ name: 'inner.zip', data: zip([{ name: 'inner.docx', data: docxBomb }]) }]), names: ['nested.zip'] },
    {
      what: 'a zip of 65,535 entries',
      bytes: zip(Array.from({ length: 0xffff }, (_, index) => ({ name: index.toString(36), stored: true }))),
      names: ['many.zip', 'many.docx'],
    },
    {
      what: 'a docx whose headers claim 1 KB for the 1 GiB [Content_Types].xml',
      bytes: zip(officeBomb(WORD, 'word/document.xml', '[Content_Types].xml').map((entry) => (entry.deflated ? { ...entry, claimedSize: 1024 } : entry))),
      names: ['liar.docx'],
    },
    {
      what: 'a docx whose directory says its deflated [Content_Types].xml is 1 KB stored',
      bytes: zip(
        officeBomb(WORD, 'word/document.xml', '[Content_Types].xml').map((entry) =>
          entry.deflated ? { ...entry, central: { method: 0, compressedSize: 1024, size: 1024 } } : entry,
        ),
      ),
      names: ['liar.docx'],
    },
    { what: 'a zip whose end record claims 65,535 entries for one', bytes: zip([tiny], { claimedEntryCount: 0xffff }), names: ['liar.zip'] },
    { what: 'a zip whose directory points past its end', bytes: zip([{ ...tiny, central: { offset: 0x7fffffff } }]), names: ['liar.zip'] },
    {
      what: '1,024 directory records sharing 1 MiB of zeros (1 GiB in all)',
      bytes: zip([{ name: 'zeros.bin', deflated: deflatedZeros(1) }], { centralCopies: 1024 }),
      names: ['overlap.zip'],
    },
    { what: 'two directory records sharing one entry', bytes: zip([tiny], { centralCopies: 2 }), names: ['overlap.zip'] },
    { what: 'a zip with a "../" path', bytes: zip([{ name: '../../etc/cron.d/x', data: 'x' }]), names: ['slip.zip'] },
  ];
}
