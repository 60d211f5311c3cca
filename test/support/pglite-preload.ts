/**
 * A PGlite filesystem that starts as a copy of the migrated dump, for the in-process test files.
 *
 * PGlite's own `loadDataDir` takes a fresh copy of the whole tar for every instance, parses each of its
 * 1,100 headers, copies each file out of it and looks up every directory of every path before writing:
 * half the CPU of opening a test database, and 40 MB of garbage each time. Here the dump is parsed once
 * per worker (the in-process tier's workers run many files) and each new instance's in-memory filesystem
 * gets its own copy of the files before PostgreSQL starts, which PGlite then takes for an existing
 * cluster ("found DB, resuming"). A wrong path would leave the data directory empty: PGlite would run
 * initdb, and every test would fail on missing tables.
 */
import { MemoryFS, type PGlite } from '@electric-sql/pglite';
import { withoutTrailingSlashes } from '../../src/paths.ts';

/** PGlite's data directory inside its Emscripten filesystem (its PGDATA). */
const PGDATA = '/pglite/data';

interface Dump {
  directories: string[];
  files: { path: string; data: Uint8Array }[];
}

type EmscriptenOptions = Parameters<MemoryFS['init']>[1];

/** An in-memory filesystem holding a copy of `dump`'s files; a new one for each PGlite instance. */
class PreloadedMemoryFS extends MemoryFS {
  constructor(private readonly dump: Dump) {
    super();
  }

  override async init(pg: PGlite, options: EmscriptenOptions): Promise<{ emscriptenOpts: EmscriptenOptions }> {
    const { emscriptenOpts } = await super.init(pg, options);
    const copyDump = (mod: { FS: { mkdirTree(path: string): void; writeFile(path: string, data: Uint8Array): void } }) => {
      for (const directory of this.dump.directories) mod.FS.mkdirTree(`${PGDATA}/${directory}`);
      // writeFile copies a Uint8Array (MEMFS slices it): each instance writes to files of its own. A
      // Buffer's slice would share the dump's bytes, and one file's writes would reach the next's cluster.
      for (const file of this.dump.files) mod.FS.writeFile(`${PGDATA}/${file.path}`, file.data);
    };
    return { emscriptenOpts: { ...emscriptenOpts, preRun: [...(emscriptenOpts.preRun ?? []), copyDump] } };
  }
}

/** The directories and regular files of a ustar archive (what PGlite's `dumpDataDir('none')` writes). */
export function readTar(archive: Uint8Array): Dump {
  // A plain Uint8Array over the same bytes, never a Buffer (see copyDump).
  const tar = new Uint8Array(archive.buffer, archive.byteOffset, archive.byteLength);
  const text = (offset: number, length: number) => {
    let end = offset;
    while (end < offset + length && tar[end] !== 0) end++;
    return Buffer.from(tar.subarray(offset, end)).toString('utf8');
  };
  const directories = new Set<string>(['']);
  const files: Dump['files'] = [];
  for (let offset = 0; offset + 512 <= tar.length;) {
    const name = text(offset, 100);
    if (name === '') break; // the two empty blocks that end the archive
    const prefix = text(offset + 345, 155);
    const size = parseInt(text(offset + 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(tar[offset + 156]!);
    const path = withoutTrailingSlashes(`${prefix ? `${prefix}/` : ''}${name}`.replace(/^[./]+/, ''));
    offset += 512;
    if (type === '5') directories.add(path);
    else if (type === '0' || type === '\0') {
      files.push({ path, data: tar.subarray(offset, offset + size) });
      directories.add(path.split('/').slice(0, -1).join('/'));
    } else throw new Error(`the PGlite dump holds a tar entry of type ${JSON.stringify(type)} (${path}), which the test preload does not read`);
    offset += Math.ceil(size / 512) * 512;
  }
  if (!files.some((file) => file.path === 'PG_VERSION')) throw new Error('the PGlite dump holds no PG_VERSION');
  return { directories: [...directories].sort(), files };
}

/** A fresh filesystem for one PGlite instance, holding the dump's cluster. */
export function preloadedFilesystem(dump: Dump): MemoryFS {
  return new PreloadedMemoryFS(dump);
}
