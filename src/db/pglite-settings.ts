/**
 * PGlite's settings, the same wherever an instance is opened (the worker, the inline instance, the
 * built template). PostgreSQL's default shared_buffers (128 MB) is allocated and touched at start in
 * PGlite's WebAssembly memory, so it is resident for good: 16 MB holds a small form service's working
 * set and keeps the idle process under 300 MB (bench/embedded.ts measures it).
 */
const PGLITE_SHARED_BUFFERS = '16MB';

/** PGlite's own start parameters (`PGlite.defaultStartParams`, passed in: this module loads nothing) plus ours. */
export const pgliteStartParams = (defaults: readonly string[]): string[] => [...defaults, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`];
