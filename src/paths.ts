/**
 * The project's root folder, for files read at run time (migrations, the example template, the built
 * PGlite template). One level up from this module both in the source (src/paths.ts) and in the
 * bundle `npm start` runs (dist/main.js), so it holds for either.
 */
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const fromRoot = (path: string) => `${ROOT.replace(/\/$/, '')}/${path}`;

/** `path` without the slashes it ends with (a loop: `/\/+$/` moves super-linearly over a run of slashes). */
export function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path[end - 1] === '/') end -= 1;
  return path.slice(0, end);
}
