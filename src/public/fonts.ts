/**
 * The theme fonts formloom serves itself, so that a page loads nothing from a third party: the fonts of
 * its templates, from their Fontsource packages (variable fonts: one file per script covers every
 * weight). Each family is one stylesheet, `/assets/fonts/<family>.<hash>.css`, whose `@font-face`
 * rules name the theme's family (`Inter`, not the package's `Inter Variable`) and point at the font
 * files under `/assets/fonts/`, each with its hash in its name; the browser fetches only the files of
 * the scripts a page uses (`unicode-range`). A theme font not listed here falls back to the system
 * stack (or comes from FONTS_CSS_URL when an operator sets one).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ASSETS_PREFIX, contentHash, staticAsset, type StaticAsset } from './static-assets.ts';

/** Theme font family → its Fontsource package. */
export const SELF_HOSTED_FONTS: Readonly<Record<string, string>> = {
  Inter: '@fontsource-variable/inter',
  'Playfair Display': '@fontsource-variable/playfair-display',
  'Source Sans 3': '@fontsource-variable/source-sans-3',
};

const FONTS_PATH = `${ASSETS_PREFIX}fonts/`;
const require = createRequire(import.meta.url);

interface FontFamilyAssets {
  stylesheetPath: string;
  /** Path → asset: the stylesheet and its font files. */
  assets: Map<string, StaticAsset>;
}

/** A family's stylesheet and font files, read from its package, with hashed names. */
function familyAssets(family: string, packageName: string): FontFamilyAssets {
  const cssFile = require.resolve(`${packageName}/index.css`);
  const directory = dirname(cssFile);
  const assets = new Map<string, StaticAsset>();
  const packageFamily = /font-family:\s*'([^']+)'/.exec(readFileSync(cssFile, 'utf8'))?.[1];
  const css = readFileSync(cssFile, 'utf8')
    .replace(/url\(\.\/files\/([\w.-]+)\.woff2\)/g, (_, name: string) => {
      const bytes = readFileSync(join(directory, 'files', `${name}.woff2`));
      const path = `${FONTS_PATH}${name}.${contentHash(bytes)}.woff2`;
      assets.set(path, staticAsset(bytes, 'font/woff2'));
      return `url(${path})`;
    })
    .replaceAll(`font-family: '${packageFamily}'`, `font-family: '${family}'`);
  const slug = family.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const stylesheetPath = `${FONTS_PATH}${slug}.${contentHash(css)}.css`;
  assets.set(stylesheetPath, staticAsset(css, 'text/css; charset=utf-8'));
  return { stylesheetPath, assets };
}

let families: Map<string, FontFamilyAssets> | undefined;

/** Every self-hosted family's assets, read on first use (the packages' files do not change while running). */
function allFamilies(): Map<string, FontFamilyAssets> {
  families ??= new Map(Object.entries(SELF_HOSTED_FONTS).map(([family, packageName]) => [family.toLowerCase(), familyAssets(family, packageName)]));
  return families;
}

/** The stylesheet path of a self-hosted family (matched without regard to case), or undefined. */
export function selfHostedStylesheet(family: string): string | undefined {
  return allFamilies().get(family.toLowerCase())?.stylesheetPath;
}

/** The font asset at `path` (a stylesheet or font file under /assets/fonts/), or undefined. */
export function fontAsset(path: string): StaticAsset | undefined {
  if (!path.startsWith(FONTS_PATH)) return undefined;
  for (const family of allFamilies().values()) {
    const asset = family.assets.get(path);
    if (asset) return asset;
  }
  return undefined;
}
