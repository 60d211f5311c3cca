/**
 * Dropdown: a select box (`choices` is an alias of `options`); with `isMulti`, a group of check boxes
 * (a fieldset whose legend is the question), which every keyboard and screen reader operates without
 * the "hold Ctrl" of a multiple select. The answer is a string, or an array of strings when `isMulti`;
 * stored as `selected` in the same form.
 */
import { sql } from 'drizzle-orm';
import { html } from 'hono/html';
import { z } from 'zod';
import { asStrings as strings } from '../graphql/json-fields.ts';
import { cellText, clip, isEmpty, pickedShape, REQUIRED, selection } from './answers.ts';
import { optionList } from './choices.ts';
import { contentStrings, shortText, text, type Content, type ContentRules } from './content.ts';
import { fieldName } from './fields.ts';
import { asStrings, box, describedBy, domId, errorsOf, errorText, label, str } from './markup.ts';
import { pageWords } from '../i18n/locales.ts';
import { fieldless } from './conditions.ts';
import type { ComponentModule } from './module.ts';

const dropdownContent: ContentRules = {
  schema: z.looseObject({
    question: text.optional(),
    options: optionList.optional(),
    choices: optionList.optional(),
    placeholder: shortText.optional(),
    isMulti: z.boolean().optional(),
    hideQuestion: z.boolean().optional(),
  }),
  rules: (raw) => {
    const count = (v: unknown) => (Array.isArray(v) ? v.length : 0);
    return count(raw.options) + count(raw.choices) === 0 ? [{ path: [], message: "Dropdown requires at least 1 option (via 'options' or 'choices')" }] : [];
  },
  normalise: ({ choices, options, ...rest }) => ({
    ...rest,
    options: Array.isArray(options) && options.length > 0 ? options : choices,
  }),
};

const dropdownOptions = (content: Content): string[] => contentStrings(content.options);

export const dropdown: ComponentModule = {
  texts: ['question', 'placeholder', 'options.*'],
  types: { Dropdown: dropdownContent },
  answer: {
    shapes: {
      answer: pickedShape('One of the options; with `isMulti`, a list of them.'),
      stored: { selected: pickedShape("The option; with `isMulti`, the options picked in the form's order.") },
    },
    parse({ content }, raw, problems, required) {
      const options = dropdownOptions(content);
      const multi = content.isMulti === true;
      if (isEmpty(raw)) {
        if (required) problems.add([], REQUIRED);
        return null;
      }
      const chosen = selection(raw, problems);
      if (!chosen) return null;
      // More values than options can't all be options: one message, not one per value.
      if (chosen.length > Math.max(options.length, 1)) {
        problems.add([], multi ? `Choose at most ${options.length} options` : 'Choose one option');
        return null;
      }
      if (!multi && chosen.length > 1) problems.add([], 'Choose one option');
      chosen.forEach((value) => {
        if (!options.includes(value)) problems.add([], `"${clip(value)}" is not one of the options`);
      });
      if (chosen.length === 0) {
        if (required) problems.add([], REQUIRED);
        return null;
      }
      const ordered = options.filter((option) => chosen.includes(option));
      return { selected: multi ? ordered : (ordered[0] ?? chosen[0]) };
    },
    fromFields: (component, fields) => (component.content.isMulti === true ? fields.all(fieldName(component)).filter(Boolean) : fields.one(fieldName(component))),
    toAnswer: (_component, response) => response.selected,
  },
  render(component, ctx) {
    const { content } = component;
    const id = domId(component);
    const messages = errorsOf(ctx, component.id);
    const multi = content.isMulti === true;
    const chosen = asStrings(ctx.values.get(component.id));
    const placeholder = str(content.placeholder) ?? pageWords(ctx.form.locale).select;
    const question = str(content.question);
    if (multi) {
      // The legend names the group (the placeholder when there is no question); each box is labelled by its option.
      const invalid = messages.length > 0 ? ' aria-invalid="true"' : '';
      const boxes = dropdownOptions(content).map(
        (option, index) =>
          html`<label class="fl-choice" for="${id}-${index}"><input type="checkbox" id="${id}-${index}" name="${fieldName(component)}" value="${option}"${chosen.includes(option) ? ' checked' : ''}${invalid}><span>${option}</span></label>`,
      );
      const legendClass = question && content.hideQuestion !== true ? 'fl-label' : 'sr-only';
      const required = content.required === true ? html`<span aria-hidden="true"> *</span>` : '';
      return box(
        component,
        messages.length > 0,
        html`<fieldset class="fl-fieldset" id="${id}"${describedBy(id, messages)}><legend class="${legendClass}">${question ?? placeholder}${required}</legend><div class="fl-choices">${boxes}</div></fieldset>${errorText(id, messages)}`,
      );
    }
    const options = dropdownOptions(content).map((option) => html`<option value="${option}"${chosen.includes(option) ? ' selected' : ''}>${option}</option>`);
    const aria = question ? '' : html` aria-label="${placeholder}"`;
    const control = html`<select id="${id}" name="${fieldName(component)}" class="fl-input"${content.required === true ? ' required' : ''}${aria}${describedBy(id, messages)}><option value="">${placeholder}</option>${options}</select>`;
    return box(component, messages.length > 0, html`${label(component, id, content.hideQuestion === true)}${control}${errorText(id, messages)}`);
  },
  graphql: (kit) => ({
    components: {
      Dropdown: kit.component('Dropdown', 'A select box; check boxes when isMulti.', (t) => ({
        question: kit.text(t, 'question'),
        options: t.stringList({ resolve: (c) => strings(c.content.options) }),
        placeholder: kit.text(t, 'placeholder'),
        isMulti: kit.bool(t, 'isMulti'),
        hideQuestion: kit.bool(t, 'hideQuestion'),
      })),
    },
    answers: {
      Dropdown: kit.answer('DropdownAnswer', 'Answer to a Dropdown.', (t) => ({
        selected: t.stringList({ description: 'The option(s) picked; one element unless the dropdown is multi-select.', resolve: (r) => strings(r.selected) }),
        isMulti: t.boolean({ description: 'True when the stored answer is a list.', resolve: (r) => Array.isArray(r.selected) }),
      })),
    },
  }),
  export: { cell: (response) => cellText(response.selected) },
  summary: {
    field: 'selected',
    options: (component) => dropdownOptions(component.content),
    chosen: (response) => sql`select distinct jsonb_array_elements_text(case jsonb_typeof(${response}->'selected')
               when 'array' then ${response}->'selected'
               when 'string' then jsonb_build_array(${response}->'selected')
               else '[]'::jsonb end)`,
  },
  conditions: {
    subject: fieldless(({ content }) => ({ kind: content.isMulti === true ? 'choices' : 'choice', options: dropdownOptions(content) })),
    value: (_component, response) => (typeof response.selected === 'string' ? response.selected : Array.isArray(response.selected) ? strings(response.selected) : undefined),
  },
};
