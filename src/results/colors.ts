/**
 * The results page's palette, from the form's theme colours: text at WCAG 2.2 AA contrast (4.5:1) on
 * the page's background, chart marks at 3:1 (non-text contrast), each moved towards black or white only
 * as far as it must.
 */
import Color from 'color';
import type { Theme } from '../db/json-columns.ts';

const TEXT = 4.5;
const MARKS = 3;

const contrast = (a: string, b: string) => Color(a).alpha(1).contrast(Color(b).alpha(1));

/** `color`, or the nearest mix towards black or white with `ratio` against `background`. */
function readable(color: string, background: string, ratio: number): string {
  if (contrast(color, background) >= ratio) return Color(color).alpha(1).hex().toLowerCase();
  const target = contrast('#000000', background) >= contrast('#ffffff', background) ? '#000000' : '#ffffff';
  for (let weight = 0.05; weight < 1; weight += 0.05) {
    const candidate = Color(color).alpha(1).mix(Color(target), weight).hex();
    if (contrast(candidate, background) >= ratio) return candidate.toLowerCase();
  }
  return target;
}

/** Black or white, whichever reads better on `background` (at least 4.5:1 for any colour). */
export const textOn = (background: string) => (contrast('#000000', background) >= contrast('#ffffff', background) ? '#000000' : '#ffffff');

export const mix = (color: string, other: string, weight: number) => Color(color).alpha(1).mix(Color(other).alpha(1), weight).hex().toLowerCase();

export interface Palette {
  background: string;
  text: string;
  /** Secondary text (axes, notes), still 4.5:1. */
  muted: string;
  /** The first series and every bar. */
  primary: string;
  /** The second and third series (told apart by their dashes too). */
  second: string;
  third: string;
  /** Lines and borders of tables and axes (3:1). */
  rule: string;
  /** A light surface behind tables' header cells. */
  surface: string;
  surfaceText: string;
}

export function paletteOf(theme: Theme): Palette {
  const background = Color(theme.colors.background).alpha(1).hex().toLowerCase();
  const text = readable(theme.colors.text, background, TEXT);
  const primary = readable(theme.colors.primary, background, MARKS);
  const surface = mix(primary, background, 0.92);
  return {
    background,
    text,
    muted: readable(mix(text, background, 0.3), background, TEXT),
    primary,
    second: readable(mix(primary, text, 0.5), background, MARKS),
    third: readable(text, background, MARKS),
    rule: readable(mix(text, background, 0.5), background, MARKS),
    surface,
    surfaceText: readable(text, surface, TEXT),
  };
}
