import { describe, expect, it } from 'vitest';
import { defaultComponentStyle, inheritTheme, themeSchema } from '../../src/forms/theme.ts';

describe('theme', () => {
  const source = themeSchema.parse({
    fonts: { heading: 'Playfair Display', body: 'Lato' },
    colors: { primary: '#0f766e', background: '#f0fdfa', text: '#134e4a', buttonText: '#ffffff' },
    background: { type: 'image', url: 'https://img.test/bg.png', overlay: '#00000080' },
    layout: { align: 'left', width: 'wide', showProgressBar: false },
    componentStyles: { Dropdown: { borderRadius: 20, borderColor: '#5eead4' } },
  });

  it('inherits everything from the template and adds default styles only for uncovered types', () => {
    const theme = inheritTheme(source, ['Dropdown', 'ShortInput', 'NextButton']);
    expect(theme.fonts).toEqual(source.fonts);
    expect(theme.colors).toEqual(source.colors);
    expect(theme.background).toEqual(source.background);
    expect(theme.layout).toEqual(source.layout);
    expect(theme.componentStyles).toEqual({
      Dropdown: { borderRadius: 20, borderColor: '#5eead4' },
      ShortInput: defaultComponentStyle('ShortInput', source.colors),
      NextButton: defaultComponentStyle('NextButton', source.colors),
    });
    expect(theme.componentStyles.NextButton).toMatchObject({ backgroundColor: '#0f766e', textColor: '#ffffff' });
    expect(theme.componentStyles.ShortInput).toMatchObject({ accentColor: '#0f766e', textColor: '#134e4a' });
    expect(source.componentStyles).toEqual({ Dropdown: { borderRadius: 20, borderColor: '#5eead4' } }); // not mutated
  });

  it('rejects values that are unsafe in CSS', () => {
    const bad = themeSchema.safeParse({
      fonts: { heading: 'x;}</style><script>', body: 'Lato' },
      colors: { primary: 'red; background:url(x)', background: '#fff', text: '#000', buttonText: '#fff' },
      background: { type: 'image', url: 'javascript:alert(1)' },
      componentStyles: { NotAType: {} },
    });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => i.path.join('.'))).toEqual(expect.arrayContaining(['fonts.heading', 'colors.primary', 'background.url', 'componentStyles.NotAType']));
  });
});
