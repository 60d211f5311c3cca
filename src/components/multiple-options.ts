/**
 * MultipleOptionsQuestion (older names MultipleChoiceSingleAnswer, MultipleChoiceQuestion; `options` is
 * an alias of `choices`): choices as radio buttons or check boxes, with an optional "Other" text
 * (`allowOther`). The answer is a string or array of strings, or `{selected, other}`; stored as every
 * choice with whether it was picked (`choices`), `selectedOther` and `other`.
 */
import { sql } from 'drizzle-orm';
import { html } from 'hono/html';
import { z } from 'zod';
import { asBoolean as bool, asInt as int, asString as jsonStr, asStrings as strings } from '../graphql/json-fields.ts';
import { ANSWER_LIMITS, clip, isEmpty, MULTI_VALUE_SEPARATOR, pickedShape, REQUIRED, selection, type Path } from './answers.ts';
import { optionList } from './choices.ts';
import { contentStrings, text, type Content, type ContentRules } from './content.ts';
import { fieldName } from './fields.ts';
import { asObject, asStrings, box, describedBy, domId, errorsOf, errorText, requiredGroup, requiredMark, str } from './markup.ts';
import { fieldless } from './conditions.ts';
import type { AnswerShapes, ComponentModule } from './module.ts';
import { pageWords } from '../i18n/locales.ts';

/** The value of the "Other" radio/checkbox. */
const OTHER_CHOICE = '__other__';

const schema = z.looseObject({
  question: text.optional(),
  choices: optionList.optional(),
  options: optionList.optional(),
  subheading: text.optional(),
  isMulti: z.boolean().optional(),
});
const normalise =
  (defaults: Content = {}) =>
  ({ choices, options, ...rest }: Content): Content => {
    const merged: Content = { ...defaults, ...rest };
    const list = Array.isArray(choices) && choices.length > 0 ? choices : options;
    if (list !== undefined) merged.choices = list;
    return merged;
  };
const content = (storedType?: string, defaults?: Content): ContentRules => ({
  schema,
  normalise: normalise(defaults),
  ...(storedType ? { storedType } : {}),
});

const multipleChoices = (content: Content): string[] => contentStrings(content.choices);
/** `allowOther: true` offers an "Other" choice with a text box. */
const allowsOther = (content: Content): boolean => content.allowOther === true;

interface Choice {
  key: string;
  value: boolean;
  index: number;
}
const choicesOf = (value: unknown): Choice[] =>
  Array.isArray(value)
    ? value.flatMap((c: unknown, i) => {
        if (typeof c !== 'object' || c === null) return [];
        const choice = c as Record<string, unknown>;
        const key = jsonStr(choice.key);
        return key === null ? [] : [{ key, value: choice.value === true, index: int(choice.index) ?? i }];
      })
    : [];

/** A choice or a list of them, or `{selected, other}`; stored as every choice with whether it was picked, and the "Other" text. */
const multipleOptionsShapes = (): AnswerShapes => {
  const picked = pickedShape('One of the choices; with `isMulti`, a list of them.');
  return {
    answer: z
      .union([
        picked,
        z.strictObject({
          selected: picked.optional(),
          other: z.string().nullable().optional().meta({ description: 'The text of "Other" (`allowOther`).' }),
        }),
      ])
      .meta({ description: 'A choice, a list of choices with `isMulti`, or `{selected, other}` where the question allows "Other".' }),
    stored: {
      choices: z.array(z.strictObject({ key: z.string(), value: z.boolean().meta({ description: 'Whether it was picked.' }), index: z.number().int() })),
      selectedOther: z.boolean(),
      other: z.string().optional(),
    },
  };
};

export const multipleOptions: ComponentModule = {
  texts: ['question', 'subheading', 'choices.*'],
  types: {
    MultipleOptionsQuestion: content(),
    MultipleChoiceSingleAnswer: content('MultipleOptionsQuestion', { isMulti: false }),
    MultipleChoiceQuestion: content('MultipleOptionsQuestion'),
  },
  answer: {
    shapes: multipleOptionsShapes(),
    parse({ content }, raw, problems, required) {
      const choices = multipleChoices(content);
      const multi = content.isMulti === true;
      let selectedRaw: unknown = raw;
      let other: string | undefined;
      if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
        const { selected, other: otherRaw, ...rest } = raw as Content;
        for (const key of Object.keys(rest)) problems.add([key], `Unknown key "${key}"; expected "selected" and "other"`);
        selectedRaw = selected ?? [];
        if (otherRaw !== undefined && otherRaw !== null) {
          if (typeof otherRaw !== 'string') problems.add(['other'], 'Must be a string');
          else if (!allowsOther(content)) problems.add(['other'], 'This question has no "Other" choice');
          else if (otherRaw.trim() === '') problems.add(['other'], 'Tell us what "Other" means for you');
          else if (otherRaw.trim().length > ANSWER_LIMITS.otherText) problems.add(['other'], `Must be at most ${ANSWER_LIMITS.otherText} characters`);
          else other = otherRaw.trim();
        }
      } else if (isEmpty(raw)) {
        selectedRaw = [];
      }
      const chosen = selection(selectedRaw, problems, typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? ['selected'] : []);
      if (!chosen) return null;
      const at: Path = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? ['selected'] : [];
      if (chosen.length > Math.max(choices.length, 1)) {
        problems.add(multi ? at : [], multi ? `Choose at most ${choices.length} choices` : 'Choose one answer');
        return null;
      }
      chosen.forEach((value) => {
        if (!choices.includes(value)) problems.add(at, `"${clip(value)}" is not one of the choices`);
      });
      if (!multi && chosen.length + (other !== undefined ? 1 : 0) > 1) problems.add([], 'Choose one answer');
      if (chosen.length === 0 && other === undefined) {
        if (required && !problems.any) problems.add([], REQUIRED);
        return null;
      }
      const out: Content = {
        choices: choices.map((key, index) => ({ key, value: chosen.includes(key), index })),
        selectedOther: other !== undefined,
      };
      if (other !== undefined) out.other = other;
      return out;
    },
    fromFields(component, fields) {
      const picked = fields.all(fieldName(component));
      const selected = picked.filter((v) => v !== OTHER_CHOICE);
      return picked.includes(OTHER_CHOICE) ? { selected, other: fields.one(fieldName(component, 'other')) } : { selected };
    },
    toAnswer(_component, response) {
      const choices = Array.isArray(response.choices) ? (response.choices as { key: string; value: boolean }[]) : [];
      return { selected: choices.filter((c) => c.value).map((c) => c.key), other: response.other };
    },
  },
  render(component, ctx) {
    const { content } = component;
    const id = domId(component);
    const messages = [...errorsOf(ctx, component.id), ...errorsOf(ctx, `${component.id}.selected`)];
    const otherMessages = errorsOf(ctx, `${component.id}.other`);
    const multi = content.isMulti === true;
    const value = ctx.values.get(component.id);
    const answer = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Content) : { selected: value };
    const chosen = asStrings(answer.selected);
    const other = typeof answer.other === 'string' ? answer.other : undefined;
    const type = multi ? 'checkbox' : 'radio';
    const name = fieldName(component);
    const question = str(content.question);
    const subheading = str(content.subheading);
    const choices = multipleChoices(content).map(
      (choice, index) =>
        html`<label class="fl-choice" for="${id}-${index}"><input type="${type}" id="${id}-${index}" name="${name}" value="${choice}"${chosen.includes(choice) ? ' checked' : ''}><span>${choice}</span></label>`,
    );
    const otherWord = pageWords(ctx.form.locale).other;
    const otherChoice = allowsOther(content)
      ? html`<label class="fl-choice" for="${id}-other"><input type="${type}" id="${id}-other" name="${name}" value="${OTHER_CHOICE}"${other !== undefined ? ' checked' : ''}><span>${otherWord}</span><input type="text" class="fl-input" name="${fieldName(component, 'other')}" aria-label="${otherWord}" maxlength="${ANSWER_LIMITS.otherText}" value="${other ?? ''}"></label>${errorText(`${id}-other`, otherMessages)}`
      : '';
    return box(
      component,
      messages.length + otherMessages.length > 0,
      html`<fieldset class="fl-fieldset"${requiredGroup(content.required === true, !multi)}${describedBy(id, messages)}>${question ? html`<legend class="fl-question">${question}${requiredMark(content.required === true)}</legend>` : ''}${subheading ? html`<p class="fl-sub">${subheading}</p>` : ''}<div class="fl-choices">${choices}${otherChoice}</div></fieldset>${errorText(id, messages)}`,
    );
  },
  graphql(kit) {
    const ChoiceRef = kit.builder.objectRef<Choice>('ChoiceAnswer').implement({
      description: 'One choice of a MultipleOptionsQuestion and whether it was picked.',
      fields: (t) => ({ key: t.exposeString('key'), value: t.exposeBoolean('value'), index: t.exposeInt('index') }),
    });
    const answer = kit.answer('MultipleOptionsQuestionAnswer', 'Answer to a MultipleOptionsQuestion.', (t) => ({
      choices: t.field({ type: [ChoiceRef], resolve: (r) => choicesOf(r.choices) }),
      selectedOther: t.boolean({ nullable: true, description: 'The respondent chose "Other".', resolve: (r) => bool(r.selectedOther) }),
    }));
    return {
      components: {
        MultipleOptionsQuestion: kit.component('MultipleOptionsQuestion', 'Choices shown as buttons or check boxes.', (t) => ({
          question: kit.text(t, 'question'),
          choices: t.stringList({ resolve: (c) => strings(c.content.choices) }),
          subheading: kit.text(t, 'subheading'),
          isMulti: kit.bool(t, 'isMulti'),
        })),
      },
      answers: { MultipleOptionsQuestion: answer, MultipleChoiceSingleAnswer: answer, MultipleChoiceQuestion: answer },
    };
  },
  export: {
    cell(response) {
      if (!Array.isArray(response.choices)) return undefined;
      const chosen = response.choices.flatMap((choice) => {
        const c = asObject(choice);
        return c.value === true && typeof c.key === 'string' ? [c.key] : [];
      });
      if (typeof response.other === 'string') chosen.push(response.other);
      return chosen.join(MULTI_VALUE_SEPARATOR);
    },
  },
  summary: {
    field: 'choices',
    options: (component) => multipleChoices(component.content),
    chosen: (response) =>
      sql`select distinct c->>'key' from jsonb_array_elements(case jsonb_typeof(${response}->'choices') when 'array' then ${response}->'choices' else '[]'::jsonb end) c
        where c->'value' = 'true'::jsonb`,
  },
  conditions: {
    // With "Other" the answer may be any text, so values are not checked against the choices.
    subject: fieldless(({ content }) => ({ kind: content.isMulti === true ? 'choices' : 'choice', options: allowsOther(content) ? undefined : multipleChoices(content) })),
    value({ content }, response) {
      const chosen = choicesOf(response.choices)
        .filter((c) => c.value)
        .map((c) => c.key);
      if (typeof response.other === 'string') chosen.push(response.other);
      return content.isMulti === true ? chosen : chosen[0];
    },
  },
};
