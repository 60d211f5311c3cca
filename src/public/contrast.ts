/**
 * WCAG contrast for the page's colours. A template's palette is kept as given where it reads well;
 * where a pair would fail WCAG 2.2 AA (4.5:1 for text, 3:1 for field borders) the derived colour is
 * moved towards black or white, a step at a time, until the pair passes. The ratio is the `color`
 * library's (WCAG 2 relative luminance).
 */
import Color from 'color';

const TEXT_CONTRAST = 4.5;
export const NON_TEXT_CONTRAST = 3;

const BLACK = Color('#000000');
const WHITE = Color('#ffffff');

/** The lowest contrast of `color` against any of `backgrounds` (a gradient has two ends). */
function worstContrast(color: string, backgrounds: readonly string[]): number {
  const c = Color(color).alpha(1);
  return Math.min(...backgrounds.map((bg) => c.contrast(Color(bg).alpha(1))));
}

/**
 * `color`, or the nearest colour towards black or white (whichever reads better on these
 * backgrounds) that has at least `ratio` contrast against each of them. Returned as `#rrggbb`.
 */
export function readableOn(color: string, backgrounds: readonly string[], ratio = TEXT_CONTRAST): string {
  const start = Color(color).alpha(1);
  if (worstContrast(start.hex(), backgrounds) >= ratio) return start.hex().toLowerCase();
  const target = worstContrast('#000000', backgrounds) >= worstContrast('#ffffff', backgrounds) ? BLACK : WHITE;
  for (let weight = 0.05; weight < 1; weight += 0.05) {
    const candidate = start.mix(target, weight).hex();
    if (worstContrast(candidate, backgrounds) >= ratio) return candidate.toLowerCase();
  }
  return target.hex().toLowerCase();
}

/**
 * A background for text `foreground`: `background` as given, or moved away from the text (darker
 * under light text, lighter under dark text) until the pair has `ratio`. Keeps a button's text colour
 * and nudges its fill; when no fill would do, the text is adjusted instead.
 */
export function backgroundFor(foreground: string, background: string, ratio = TEXT_CONTRAST): { background: string; foreground: string } {
  const fg = Color(foreground).alpha(1);
  const bg = Color(background).alpha(1);
  if (fg.contrast(bg) >= ratio) return { background: bg.hex().toLowerCase(), foreground: fg.hex().toLowerCase() };
  const away = fg.isLight() ? BLACK : WHITE;
  for (let weight = 0.05; weight <= 0.5; weight += 0.05) {
    const candidate = bg.mix(away, weight);
    if (fg.contrast(candidate) >= ratio) return { background: candidate.hex().toLowerCase(), foreground: fg.hex().toLowerCase() };
  }
  return { background: bg.hex().toLowerCase(), foreground: readableOn(fg.hex(), [bg.hex()], ratio) };
}

/** `color` mixed with `other` (`weight` of `other`), as `#rrggbb`. */
export const mix = (color: string, other: string, weight: number) => Color(color).alpha(1).mix(Color(other).alpha(1), weight).hex().toLowerCase();
