/**
 * The project's root folder, for files read at run time (migrations, the example template, the built
 * PGlite template). One level up from this module both in the source (src/paths.ts) and in the
 * bundle `npm start` runs (dist/main.js), so it holds for either.
 */
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const fromRoot = (path: string) => `${ROOT.replace(/\/$/, '')}/${path}`;
