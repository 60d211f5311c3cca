/**
 * Ranking: put `options` in order (`choices` is an alias). The answer lists every option once, in the
 * respondent's order; stored as `ranking`. Without JavaScript the page asks one select per position.
 * As a condition's `field` an option is its position, a number (the first is 1); the export has one column
 * per option holding its position, and the summary each option's mean position and count per position.
 */
import { sql } from 'drizzle-orm';
import { html } from 'hono/html';
import { z } from 'zod';
import { asStrings as strings } from '../graphql/json-fields.ts';
import { clip, countsByPair, isEmpty, REQUIRED, type Fields, type Problems } from './answers.ts';
import { distinctTexts } from './choices.ts';
import { contentStrings, type Content, type ContentRules, text } from './content.ts';
import { fieldName } from './fields.ts';
import { allErrorsOf, box, domId, errorText, str } from './markup.ts';
import type { AnswerShapes, ComponentModule, RowSummary } from './module.ts';
import { pageWords } from '../i18n/locales.ts';

export const RANKING_LIMITS = { min: 2, max: 20 } as const;

const optionsList = distinctTexts('option', RANKING_LIMITS.min, RANKING_LIMITS.max);
const rankingContent: ContentRules = {
  schema: z.strictObject({
    question: text.optional(),
    options: optionsList.optional(),
    choices: optionsList.optional(),
    required: z.boolean().optional(),
  }),
  rules: (raw) =>
    raw.options === undefined && raw.choices === undefined
      ? [
          {
            path: ['options'],
            message: `Ranking requires ${RANKING_LIMITS.min} to ${RANKING_LIMITS.max} options (via 'options' or 'choices')`,
          },
        ]
      : [],
  normalise: ({ choices, options, ...rest }) => ({ ...rest, options: options ?? choices }),
};

const optionsOf = (content: Content) => contentStrings(content.options);

export function rankingAnswer(content: Content, raw: unknown, problems: Problems, required: boolean): Fields {
  if (isEmpty(raw)) {
    if (required) problems.add([], REQUIRED);
    return null;
  }
  const options = optionsOf(content);
  if (!Array.isArray(raw) || !raw.every((item) => typeof item === 'string') || raw.length > options.length * 2) {
    problems.add([], 'Must be a list of the options in your order');
    return null;
  }
  const ranked = raw;
  ranked.forEach((option, index) => {
    if (!options.includes(option)) problems.add([index], `"${clip(option)}" is not one of the options`);
    else if (ranked.indexOf(option) !== index) problems.add([index], `"${clip(option)}" is ranked twice`);
  });
  const missing = options.filter((option) => !ranked.includes(option));
  if (missing.length > 0) problems.add([], `Rank every option; missing: ${missing.map((option) => `"${clip(option)}"`).join(', ')}`);
  return problems.any ? null : { ranking: ranked };
}

/** An option's position in a stored ranking (1 is first), or undefined. */
const positionOf = (response: Content, option: string): number | undefined => {
  const index = strings(response.ranking).indexOf(option);
  return index < 0 ? undefined : index + 1;
};

/** The summary's counts per (option, position) pair, selected by `chosen` as JSON arrays. */
const positionCounts = (counts: ReadonlyMap<string, number>) => countsByPair(counts, (value): value is number => typeof value === 'number');

function rankingShapes(): AnswerShapes {
  const ranked = z.array(z.string()).meta({ description: "Every one of `options` once, in the respondent's order (the first is position 1)." });
  return { answer: ranked, stored: { ranking: ranked } };
}

export const ranking: ComponentModule = {
  texts: ['question', 'options.*'],
  types: { Ranking: rankingContent },
  answer: {
    shapes: rankingShapes(),
    parse: ({ content }, raw, problems, required) => rankingAnswer(content, raw, problems, required),
    fromFields(component, fields) {
      // Positions left empty are left out: the answer then misses their options, and says which.
      return optionsOf(component.content)
        .map((_, index) => fields.one(fieldName(component, String(index + 1))))
        .filter((value) => value !== '');
    },
    toAnswer: (_component, response) => strings(response.ranking),
  },
  render(component, ctx) {
    const { content } = component;
    const id = domId(component);
    const messages = allErrorsOf(ctx, component);
    const words = pageWords(ctx.form.locale);
    const options = optionsOf(content);
    const current = strings(ctx.values.get(component.id));
    const required = content.required === true;
    const question = str(content.question);
    const selects = options.map((_, index) => {
      const chosen = current[index];
      const choices = options.map((option) => html`<option value="${option}"${chosen === option ? ' selected' : ''}>${option}</option>`);
      return html`<div class="fl-rank"><label for="${id}-${index + 1}">${words.rankingPosition(index + 1)}</label><select id="${id}-${index + 1}" name="${fieldName(component, String(index + 1))}" class="fl-input"${required ? ' required' : ''}><option value="">${words.select}</option>${choices}</select></div>`;
    });
    const invalid = messages.length > 0;
    return box(
      component,
      invalid,
      html`<fieldset class="fl-fieldset fl-ranking" id="${id}" data-ranking="${JSON.stringify({ up: words.rankingMoveUp, down: words.rankingMoveDown, positions: options.map((_, index) => words.rankingPosition(index + 1)) })}"${invalid ? html` aria-describedby="${id}-error"` : ''}><legend class="fl-question">${question ?? ''}${required ? html`<span aria-hidden="true"> *</span>` : ''}</legend>${selects}</fieldset>${errorText(id, messages)}`,
    );
  },
  // A message at an index of the answer is about the option at that position (the selects count from 1).
  errorAnchor: (component, part) => (/^\d{1,2}$/.test(part) ? domId(component, String(Number(part) + 1)) : undefined),
  graphql: (kit) => ({
    components: {
      Ranking: kit.component('Ranking', 'Options put in order by the respondent.', (t) => ({
        question: kit.text(t, 'question'),
        options: t.stringList({ resolve: (c) => optionsOf(c.content) }),
        required: kit.bool(t, 'required'),
      })),
    },
    answers: {
      Ranking: kit.answer('RankingAnswer', 'Answer to a Ranking.', (t) => ({
        ranking: t.stringList({ description: 'Every option, first ranked first.', resolve: (r) => strings(r.ranking) }),
      })),
    },
  }),
  export: {
    columns: ({ content }) => optionsOf(content).map((option) => ({ label: option, key: option })),
    part: (response, option) => String(positionOf(response, option) ?? ''),
  },
  summary: {
    field: 'ranking',
    chosen: (response) => sql`select jsonb_build_array(o.value, o.position)::text
      from jsonb_array_elements_text(case when ${response}->>'type' = 'Ranking' and jsonb_typeof(${response}->'ranking') = 'array' then ${response}->'ranking' else '[]'::jsonb end) with ordinality o(value, position)`,
    rows({ content }, counts): RowSummary[] {
      const byOption = positionCounts(counts);
      const options = optionsOf(content);
      return options.map((option) => {
        const positions = options.map((_, index) => ({
          option: String(index + 1),
          count: byOption.get(option)?.get(index + 1) ?? 0,
        }));
        const total = positions.reduce((sum, p) => sum + p.count, 0);
        const mean = total === 0 ? null : positions.reduce((sum, p) => sum + Number(p.option) * p.count, 0) / total;
        return { row: option, options: positions, mean };
      });
    },
  },
  style: {
    // With JavaScript the selects give way to a list the respondent reorders (client-script.ts).
    css: `.fl-rank { display: flex; align-items: center; gap: 12px; margin: 0 0 8px; }
.fl-rank label { flex: 0 0 6.5em; }
.fl-rank[hidden] { display: none; }
.fl-rank-list { list-style: none; margin: 0; padding: 0; }
.fl-rank-item { display: flex; align-items: center; gap: 8px; margin: 0 0 8px; padding: 6px 8px 6px 12px; background: var(--c-bg); color: var(--c-field-fg);
  border: 1px solid var(--c-border); border-radius: var(--c-radius); cursor: grab; touch-action: none; }
.fl-rank-item.fl-dragging { opacity: .5; }
.fl-rank-item .fl-rank-pos { flex: 0 0 1.6em; font-weight: 600; }
.fl-rank-item .fl-rank-name { flex: 1 1 auto; }
.fl-rank-move { min-width: 40px; min-height: 40px; font: inherit; background: transparent; color: inherit; border: 1px solid var(--c-border); border-radius: var(--c-radius); cursor: pointer; }
.fl-rank-move:focus-visible { outline: 3px solid var(--c-accent); outline-offset: 2px; }
.fl-rank-move:disabled { opacity: .35; cursor: default; }`,
  },
  conditions: {
    subject({ content }, field) {
      if (field === undefined) return { kind: 'presence' };
      const options = optionsOf(content);
      if (!options.includes(field)) return `"${clip(field)}" is not one of the options of this Ranking`;
      return { kind: 'number', min: 1, max: options.length };
    },
    value: (_component, response, field) => (field === undefined ? (strings(response.ranking).length > 0 ? true : undefined) : positionOf(response, field)),
  },
};
