/**
 * Small real files for upload tests, one or more of every type a FileUploader may allow, and `zip()`,
 * which writes zip archives byte by byte (also the broken and lying ones of test/support/upload-bombs.ts).
 *
 * test/fixtures/uploads/ holds files made by real software: word.docx (Microsoft Word: python-docx's
 * default template), libreoffice.odt (LibreOffice: docutils' styles.odt; data descriptors after its
 * deflated entries, as LibreOffice writes them), xlsxwriter.xlsx (XlsxWriter 3.2), pillow.jpg and
 * pillow.gif (Pillow 12), python.webp (CPython's test image), infozip-zip64.zip (Info-ZIP's `zip -fz`:
 * zip64 records), infozip-streamed.zip (`zip - -` from a pipe: zip64 and data descriptors), jar.zip
 * (the JDK's `jar`).
 */
import { readFileSync } from 'node:fs';
import { crc32, deflateRawSync } from 'node:zlib';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/uploads/${name}`, import.meta.url));

/** A 1×1 PNG. */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
/** A minimal PDF. */
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');

export interface ZipEntry {
  name: string;
  /** The entry's content: deflated unless `stored`. */
  data?: Uint8Array | string;
  stored?: boolean;
  /** Data deflated beforehand, standing for `size` bytes with checksum `crc` (a bomb's payload). */
  deflated?: { bytes: Uint8Array; size: number; crc: number };
  /** Its sizes and checksum after the data (general purpose bit 3), as streaming writers do. */
  dataDescriptor?: boolean;
  /** The uncompressed size both headers claim instead of the real one (a consistent lie). */
  claimedSize?: number;
  /** What the central directory alone says instead of the truth (a directory at odds with the local header). */
  central?: { method?: number; compressedSize?: number; size?: number; offset?: number };
}

export interface ZipOptions {
  /** The entry count the end record claims. */
  claimedEntryCount?: number;
  /** The central directory written this many times over: entries sharing one local header and its data. */
  centralCopies?: number;
}

/** A zip archive of `entries`, written in order, directory after them. */
export function zip(entries: readonly ZipEntry[], options: ZipOptions = {}): Buffer {
  const parts: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const content = Buffer.from(entry.data ?? '');
    const method = entry.deflated || !entry.stored ? 8 : 0;
    const body = entry.deflated ? Buffer.from(entry.deflated.bytes) : method === 8 ? deflateRawSync(content) : content;
    const size = entry.claimedSize ?? entry.deflated?.size ?? content.length;
    const crc = entry.deflated?.crc ?? crc32(content);
    const flags = 0x800 | (entry.dataDescriptor ? 0x8 : 0);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(0x21, 12); // 1980-01-01
    if (!entry.dataDescriptor) {
      local.writeUInt32LE(crc, 14);
      local.writeUInt32LE(body.length, 18);
      local.writeUInt32LE(size, 22);
    }
    local.writeUInt16LE(name.length, 26);
    const descriptor = Buffer.alloc(entry.dataDescriptor ? 16 : 0);
    if (entry.dataDescriptor) {
      descriptor.writeUInt32LE(0x08074b50, 0);
      descriptor.writeUInt32LE(crc, 4);
      descriptor.writeUInt32LE(body.length, 8);
      descriptor.writeUInt32LE(size, 12);
    }
    parts.push(local, name, body, descriptor);

    const lie = entry.central ?? {};
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(lie.method ?? method, 10);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(lie.compressedSize ?? body.length, 20);
    central.writeUInt32LE(lie.size ?? size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(lie.offset ?? offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + body.length + descriptor.length;
  }
  const copies = options.centralCopies ?? 1;
  const directory = Buffer.concat(Array.from({ length: copies }, () => centrals).flat());
  const count = options.claimedEntryCount ?? entries.length * copies;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(count, 0xffff), 8);
  end.writeUInt16LE(Math.min(count, 0xffff), 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directory, end]);
}

const CONTENT_TYPES = (main: string, part: string) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
  `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>` +
  `<Override PartName="/${part}" ContentType="application/vnd.openxmlformats-officedocument.${main}.main+xml"/></Types>`;
const RELS = (part: string) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
  `<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="${part}"/></Relationships>`;

/** The parts of a minimal Office Open XML package whose main part is `part`, of content type `main`. */
export const officeEntries = (main: string, part: string, body: string): ZipEntry[] => [
  { name: '[Content_Types].xml', data: CONTENT_TYPES(main, part) },
  { name: '_rels/.rels', data: RELS(part) },
  { name: part, data: body },
];

/** The parts of a minimal OpenDocument file as LibreOffice lays it out: `mimetype` first and stored. */
export const openDocumentEntries = (mimetype: string, body: string): ZipEntry[] => [
  { name: 'mimetype', data: mimetype, stored: true },
  { name: 'content.xml', data: body, dataDescriptor: true },
  {
    name: 'META-INF/manifest.xml',
    data: `<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type="${mimetype}"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>`,
    dataDescriptor: true,
  },
];

const ODF_CONTENT = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" office:version="1.3"><office:body>${body}</office:body></office:document-content>`;

/** A Compound File Binary container (doc, xls, ppt): header, one FAT sector, one directory sector. */
function compoundFile(): Buffer {
  const file = Buffer.alloc(512 * 3);
  Buffer.from('d0cf11e0a1b11ae1', 'hex').copy(file, 0);
  file.writeUInt16LE(0x3e, 24); // minor version
  file.writeUInt16LE(3, 26); // major version 3: 512-byte sectors
  file.writeUInt16LE(0xfffe, 28); // little-endian
  file.writeUInt16LE(9, 30); // sector shift
  file.writeUInt16LE(6, 32); // mini sector shift
  file.writeUInt32LE(1, 44); // FAT sectors
  file.writeUInt32LE(1, 48); // first directory sector
  file.writeUInt32LE(4096, 56); // mini stream cutoff
  file.writeUInt32LE(0xfffffffe, 60); // no mini FAT
  file.writeUInt32LE(0xfffffffe, 68); // no DIFAT sectors
  file.writeUInt32LE(0, 76); // DIFAT[0]: the FAT is sector 0
  for (let index = 1; index < 109; index++) file.writeUInt32LE(0xffffffff, 76 + index * 4);
  const fat = 512;
  file.writeUInt32LE(0xfffffffd, fat); // sector 0: FAT
  file.writeUInt32LE(0xfffffffe, fat + 4); // sector 1: directory, end of chain
  for (let index = 2; index < 128; index++) file.writeUInt32LE(0xffffffff, fat + index * 4);
  const root = 1024;
  Buffer.from('Root Entry\0', 'utf16le').copy(file, root);
  file.writeUInt16LE(22, root + 64);
  file.writeUInt8(5, root + 66); // root storage
  file.writeUInt32LE(0xffffffff, root + 68);
  file.writeUInt32LE(0xffffffff, root + 72);
  file.writeUInt32LE(0xffffffff, root + 76);
  file.writeUInt32LE(0xfffffffe, root + 116);
  return file;
}

/** An ISO-BMFF file with a `heic` brand, as an iPhone begins one: `ftyp`, then `meta` naming a picture handler. */
function heicFile(): Buffer {
  const box = (type: string, ...content: Buffer[]) => {
    const body = Buffer.concat(content);
    const header = Buffer.alloc(8);
    header.writeUInt32BE(8 + body.length);
    header.write(type, 4, 'latin1');
    return Buffer.concat([header, body]);
  };
  const latin1 = (text: string) => Buffer.from(text, 'latin1');
  const ftyp = box('ftyp', latin1('heic'), Buffer.alloc(4), latin1('mif1heicmiaf'));
  const handler = box('hdlr', Buffer.alloc(8), latin1('pict'), Buffer.alloc(13));
  return Buffer.concat([ftyp, box('meta', Buffer.alloc(4), handler)]);
}

/** A Java archive (the JDK's `jar`): a zip, though file-type, and so formloom, tells it apart from one. */
export const JAR = fixture('jar.zip');

/** At least one real small file of every type a FileUploader may allow, by extension. */
export const FILES_OF_EVERY_TYPE: Readonly<Record<string, readonly { name: string; bytes: Buffer }[]>> = {
  pdf: [{ name: 'letter.pdf', bytes: PDF }],
  png: [{ name: 'dot.png', bytes: PNG }],
  jpg: [{ name: 'photo.jpg', bytes: fixture('pillow.jpg') }],
  jpeg: [{ name: 'photo.jpeg', bytes: fixture('pillow.jpg') }],
  gif: [{ name: 'dot.gif', bytes: fixture('pillow.gif') }],
  webp: [{ name: 'logo.webp', bytes: fixture('python.webp') }],
  heic: [{ name: 'IMG_0001.heic', bytes: heicFile() }],
  docx: [
    { name: 'word.docx', bytes: fixture('word.docx') },
    { name: 'minimal.docx', bytes: zip(officeEntries('wordprocessingml.document', 'word/document.xml', '<w:document/>')) },
  ],
  xlsx: [
    { name: 'answers.xlsx', bytes: fixture('xlsxwriter.xlsx') },
    { name: 'minimal.xlsx', bytes: zip(officeEntries('spreadsheetml.sheet', 'xl/workbook.xml', '<workbook/>')) },
  ],
  pptx: [{ name: 'slides.pptx', bytes: zip(officeEntries('presentationml.presentation', 'ppt/presentation.xml', '<p:presentation/>')) }],
  doc: [{ name: 'old.doc', bytes: compoundFile() }],
  xls: [{ name: 'old.xls', bytes: compoundFile() }],
  ppt: [{ name: 'old.ppt', bytes: compoundFile() }],
  odt: [
    { name: 'libreoffice.odt', bytes: fixture('libreoffice.odt') },
    { name: 'minimal.odt', bytes: zip(openDocumentEntries('application/vnd.oasis.opendocument.text', ODF_CONTENT('<office:text/>'))) },
  ],
  ods: [{ name: 'sheet.ods', bytes: zip(openDocumentEntries('application/vnd.oasis.opendocument.spreadsheet', ODF_CONTENT('<office:spreadsheet/>'))) }],
  odp: [{ name: 'talk.odp', bytes: zip(openDocumentEntries('application/vnd.oasis.opendocument.presentation', ODF_CONTENT('<office:presentation/>'))) }],
  rtf: [{ name: 'note.rtf', bytes: Buffer.from('{\\rtf1\\ansi\\deff0 {\\fonttbl {\\f0 Times;}}\\f0 Hello, {\\b world}.\\par}\n') }],
  txt: [{ name: 'note.txt', bytes: Buffer.from('Grüße, ✓ plain UTF-8 text.\n') }],
  csv: [{ name: 'table.csv', bytes: Buffer.from('name,score\nAda,42\n"Lovelace, A.",7\n') }],
  zip: [
    {
      name: 'bundle.zip',
      bytes: zip([
        { name: 'readme.txt', data: 'hello\n'.repeat(100) },
        { name: 'dot.png', data: PNG, stored: true },
        { name: 'empty/', stored: true },
      ]),
    },
    { name: 'empty.zip', bytes: zip([]) },
    { name: 'zip64.zip', bytes: fixture('infozip-zip64.zip') },
    { name: 'streamed.zip', bytes: fixture('infozip-streamed.zip') },
  ],
};
