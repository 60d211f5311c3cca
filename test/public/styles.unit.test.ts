/**
 * The page stylesheet (src/public/styles.ts) is remembered by theme and options: the same request gets the
 * same text, and anything that changes the text (a colour, the component types, the progress, embedding)
 * changes what it gets.
 */
import { describe, expect, it } from 'vitest';
import { pageCss } from '../../src/public/styles.ts';
import { themeSchema } from '../../src/forms/theme.ts';

const theme = themeSchema.parse({});

describe('pageCss', () => {
  it('answers the same options with the same stylesheet, and types given once as a generator as an array', () => {
    const first = pageCss(theme, { types: ['Rating', 'Matrix'], progress: 0.5 });
    function* types() {
      yield 'Rating';
      yield 'Matrix';
    }
    expect(pageCss(theme, { types: types(), progress: 0.5 })).toBe(first);
    expect(first).toContain('.fl-c.fl-t-Matrix');
    expect(first).toContain('width: 50%');
  });

  it('answers other options and another theme with their own stylesheet', () => {
    const base = pageCss(theme, { types: ['Rating'] });
    const red = themeSchema.parse({ ...theme, colors: { ...theme.colors, primary: '#0e7490' } });
    expect(pageCss(red, { types: ['Rating'] })).toContain('#0e7490');
    expect(pageCss(theme, { types: ['Rating'] })).not.toContain('#0e7490');
    expect(pageCss(theme, { types: ['Rating'], progress: 0.25 })).toContain('width: 25%');
    expect(pageCss(theme, { types: ['Rating'], embed: { transparent: true } })).toContain('fl-transparent');
    expect(pageCss(theme, { types: ['Rating', 'Ranking'] })).not.toBe(base);
  });
});
