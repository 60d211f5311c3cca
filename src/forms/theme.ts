/**
 * A form's theme and style inheritance. Every value here ends up in the public page's CSS, so each
 * is constrained to a safe shape (hex colours, plain font names, http(s) URLs, bounded numbers).
 */
import { z } from 'zod';
import { moduleOf, STORED_COMPONENT_TYPES } from '../components/catalogue.ts';
import { httpUrl } from '../components/content.ts';
import type { ComponentStyle, Theme } from '../db/json-columns.ts';

const color = z.string().regex(/^#(?:[0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i, 'must be a hex colour such as "#1f2937"');
const fontFamily = z.string().regex(/^[A-Z0-9][A-Z0-9 -]{0,63}$/i, 'must be a font family name (letters, digits, spaces, hyphens)');

const componentStyleSchema = z.strictObject({
  backgroundColor: color.optional(),
  textColor: color.optional(),
  borderColor: color.optional(),
  accentColor: color.optional(),
  borderRadius: z.number().int().min(0).max(64).optional(),
  fontSize: z.number().int().min(8).max(64).optional(),
});

const DEFAULT_FONTS = { heading: 'Inter', body: 'Inter' };
const DEFAULT_COLORS = { primary: '#4f46e5', background: '#ffffff', text: '#111827', buttonText: '#ffffff' };
const DEFAULT_LAYOUT = { align: 'center' as const, width: 'medium' as const, showProgressBar: true };

export const themeSchema = z.strictObject({
  fonts: z.strictObject({ heading: fontFamily, body: fontFamily }).default(DEFAULT_FONTS),
  colors: z.strictObject({ primary: color, background: color, text: color, buttonText: color }).default(DEFAULT_COLORS),
  background: z
    .discriminatedUnion('type', [
      z.strictObject({ type: z.literal('color'), color }),
      z.strictObject({ type: z.literal('gradient'), from: color, to: color, angle: z.number().int().min(0).max(360).default(180) }),
      z.strictObject({ type: z.literal('image'), url: httpUrl, overlay: color.optional() }),
    ])
    .default({ type: 'color', color: DEFAULT_COLORS.background }),
  layout: z
    .strictObject({
      align: z.enum(['left', 'center']),
      width: z.enum(['narrow', 'medium', 'wide']),
      showProgressBar: z.boolean(),
      logoUrl: httpUrl.optional(),
    })
    .default(DEFAULT_LAYOUT),
  /** Styles per component type; keys are stored component types. */
  componentStyles: z
    .record(
      z.string().refine((type) => STORED_COMPONENT_TYPES.includes(type), 'must be a component type of the catalogue'),
      componentStyleSchema,
    )
    .default({}),
});

// The shapes the forms table stores (db/json-columns.ts) are exactly what these schemas produce.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
true satisfies Same<z.output<typeof componentStyleSchema>, ComponentStyle>;
true satisfies Same<z.output<typeof themeSchema>, Theme>;

export const DEFAULT_THEME: Theme = themeSchema.parse({});

/**
 * The styling a component type gets when its template's theme has none for it: neutral surfaces in
 * the template's own palette (its primary colour for accents and buttons, its text colour for text),
 * so an uncovered component still looks like part of the form. A module's `style.defaults` gives its
 * own (buttons, headings); every other type is styled as a field.
 */
export function defaultComponentStyle(type: string, colors: Theme['colors'] = DEFAULT_COLORS): ComponentStyle {
  const own = moduleOf(type)?.style?.defaults;
  if (own) return own(colors);
  return { backgroundColor: '#ffffff', textColor: colors.text, borderColor: '#d1d5db', accentColor: colors.primary, borderRadius: 8, fontSize: 16 };
}

/**
 * The theme of a form generated from `source`: everything the template has (fonts, colours,
 * background, layout, component styles), plus default styles for component types the new form
 * uses that the template's component styles don't cover.
 */
export function inheritTheme(source: Theme, usedTypes: Iterable<string>): Theme {
  const componentStyles = structuredClone(source.componentStyles);
  for (const type of usedTypes) componentStyles[type] ??= defaultComponentStyle(type, source.colors);
  return { ...structuredClone(source), componentStyles };
}
