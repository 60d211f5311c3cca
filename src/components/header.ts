/** Header: a heading and subheading; takes no answer. */
import { html } from 'hono/html';
import { loose, text } from './content.ts';
import { box, str } from './markup.ts';
import type { ComponentModule } from './module.ts';

export const header: ComponentModule = {
  texts: ['title', 'subheading'],
  types: { Header: loose({ title: text.optional(), subheading: text.optional() }) },
  headline: (component) => (typeof component.content.title === 'string' ? component.content.title : ''),
  // The step's first titled Header is its one h1; later ones are h2.
  stepHeading: (component) => str(component.content.title) !== undefined,
  render(component, ctx) {
    const title = str(component.content.title);
    const sub = str(component.content.subheading);
    const first = ctx.step.components.find((c) => c.type === component.type && str(c.content.title) !== undefined) === component;
    const heading = title ? (first ? html`<h1>${title}</h1>` : html`<h2>${title}</h2>`) : '';
    return box(component, false, html`${heading}${sub ? html`<p>${sub}</p>` : ''}`);
  },
  graphql: (kit) => ({
    components: { Header: kit.component('Header', 'A heading.', (t) => ({ title: kit.text(t, 'title'), subheading: kit.text(t, 'subheading') })) },
  }),
  style: {
    defaults: (colors) => ({ textColor: colors.text, fontSize: 28 }),
    css: `.fl-t-Header h1, .fl-t-Header h2 { font-family: var(--fl-heading); font-size: var(--c-fs); color: var(--c-fg); line-height: 1.2; margin: 0 0 8px; }
.fl-t-Header p { margin: 0; color: var(--c-muted); font-size: max(15px, calc(var(--c-fs) * .55)); }`,
  },
};
