/**
 * Matrix: several questions (`rows`) answered on one scale of `columns`, as a table of radio buttons (one
 * column per row) or, with `isMulti`, check boxes. The answer is `{<row>: <column>}`, or with `isMulti`
 * `{<row>: [<column>…]}`; with `required` every row must be answered. Stored as `rows` in the same shape,
 * rows and columns in the form's order.
 */
import { sql } from 'drizzle-orm';
import { html } from 'hono/html';
import { z } from 'zod';
import { asStrings as strings } from '../graphql/json-fields.ts';
import { cellText, clip, countsByPair, isEmpty, REQUIRED, type Fields, type Problems } from './answers.ts';
import { distinctTexts } from './choices.ts';
import { contentStrings, isObject, text, type Content, type ContentRules } from './content.ts';
import { fieldName } from './fields.ts';
import { allErrorsOf, asObject, box, domId, errorText, str } from './markup.ts';
import type { AnswerShapes, ComponentModule, RowSummary } from './module.ts';

export const MATRIX_LIMITS = { rows: 20, minColumns: 2, columns: 10 } as const;

const matrixContent: ContentRules = {
  schema: z.strictObject({
    question: text.optional(),
    rows: distinctTexts('row', 1, MATRIX_LIMITS.rows),
    columns: distinctTexts('column', MATRIX_LIMITS.minColumns, MATRIX_LIMITS.columns),
    isMulti: z.boolean().optional(),
    required: z.boolean().optional(),
  }),
};

const rowsOf = (content: Content) => contentStrings(content.rows);
const columnsOf = (content: Content) => contentStrings(content.columns);

/** The columns one row's answer picks, or undefined after a problem (reported at the row). */
function rowAnswer(value: unknown, columns: string[], multi: boolean, problems: Problems, row: string): string[] | undefined {
  const picked = multi && Array.isArray(value) ? value : [value];
  if (!picked.every((v) => typeof v === 'string')) {
    problems.add([row], multi ? 'Must be a column or a list of columns' : 'Must be one of the columns');
    return undefined;
  }
  const unknown = picked.filter((v) => v !== '' && !columns.includes(v));
  for (const column of unknown) problems.add([row], `"${clip(column)}" is not one of the columns`);
  return unknown.length > 0 ? undefined : columns.filter((column) => picked.includes(column));
}

export function matrixAnswer(content: Content, raw: unknown, problems: Problems, required: boolean): Fields {
  if (isEmpty(raw) || (isObject(raw) && Object.keys(raw).length === 0)) {
    if (required) problems.add([], REQUIRED);
    return null;
  }
  if (!isObject(raw)) {
    problems.add([], 'Must be an object of rows and their answers');
    return null;
  }
  const rows = rowsOf(content);
  const columns = columnsOf(content);
  const multi = content.isMulti === true;
  for (const key of Object.keys(raw)) if (!rows.includes(key)) problems.add([key], `"${clip(key)}" is not one of the rows`);
  const answered: [string, string | string[]][] = [];
  for (const row of rows) {
    const value = Object.hasOwn(raw, row) ? raw[row] : undefined;
    const picked = isEmpty(value) ? [] : rowAnswer(value, columns, multi, problems, row);
    if (picked === undefined) continue;
    if (picked.length === 0) {
      if (required) problems.add([row], 'This row requires an answer');
      continue;
    }
    answered.push([row, multi ? picked : picked[0]!]);
  }
  if (problems.any) return null;
  // Own properties only: a row may be named like an inherited one ("constructor").
  return answered.length === 0 ? null : { rows: Object.fromEntries(answered) };
}

/** A stored answer's columns for one row. */
const storedRow = (response: Content, row: string): string[] => {
  const rows = asObject(response.rows);
  return Object.hasOwn(rows, row) ? strings(rows[row]) : [];
};

/** The summary's counts per (row, column) pair: `chosen` selects each pair as a JSON array. */
const pairCounts = (counts: ReadonlyMap<string, number>) => countsByPair(counts, (value): value is string => typeof value === 'string');

function matrixShapes(): AnswerShapes {
  const rows = z
    .record(z.string(), z.union([z.string(), z.array(z.string())]))
    .meta({ description: 'By row (one of `rows`), the column picked (one of `columns`); with `isMulti`, a list of columns.' });
  return { answer: rows, stored: { rows } };
}

export const matrix: ComponentModule = {
  texts: ['question', 'rows.*', 'columns.*'],
  types: { Matrix: matrixContent },
  answer: {
    shapes: matrixShapes(),
    parse: ({ content }, raw, problems, required) => matrixAnswer(content, raw, problems, required),
    fromFields(component, fields) {
      const multi = component.content.isMulti === true;
      const answer = rowsOf(component.content).flatMap((row, index) => {
        const name = fieldName(component, String(index));
        const picked = multi ? fields.all(name).filter(Boolean) : fields.one(name);
        return isEmpty(picked) ? [] : [[row, picked] as const];
      });
      return Object.fromEntries(answer);
    },
    toAnswer: (_component, response) => asObject(response.rows),
  },
  render(component, ctx) {
    const { content } = component;
    const id = domId(component);
    const messages = allErrorsOf(ctx, component);
    const multi = content.isMulti === true;
    const required = content.required === true;
    const answer = asObject(ctx.values.get(component.id));
    const columns = columnsOf(content);
    const question = str(content.question);
    const head = columns.map((column, c) => html`<th scope="col" id="${id}-c${c}">${column}</th>`);
    const body = rowsOf(content).map((row, r) => {
      const chosen = Object.hasOwn(answer, row) ? strings(answer[row]) : [];
      const cells = columns.map(
        (column, c) =>
          html`<td><input type="${multi ? 'checkbox' : 'radio'}" name="${fieldName(component, String(r))}" value="${column}" aria-labelledby="${id}-r${r} ${id}-c${c}"${chosen.includes(column) ? ' checked' : ''}${required && !multi ? ' required' : ''}></td>`,
      );
      return html`<tr><th scope="row" id="${id}-r${r}">${row}</th>${cells}</tr>`;
    });
    const invalid = messages.length > 0;
    return box(
      component,
      invalid,
      html`<fieldset class="fl-fieldset" id="${id}"${invalid ? html` aria-describedby="${id}-error"` : ''}><legend class="fl-question">${question ?? ''}${required ? html`<span aria-hidden="true"> *</span>` : ''}</legend><div class="fl-matrix" tabindex="0" role="region" aria-labelledby="${id}-caption"><table><caption class="sr-only" id="${id}-caption">${question ?? ''}</caption><thead><tr><td></td>${head}</tr></thead><tbody>${body}</tbody></table></div></fieldset>${errorText(id, messages)}`,
    );
  },
  graphql(kit) {
    const Row = kit.builder.objectRef<{ row: string; columns: string[] }>('MatrixRowAnswer').implement({
      description: 'One row of a Matrix answer and the column(s) picked.',
      fields: (t) => ({
        row: t.exposeString('row'),
        columns: t.exposeStringList('columns', { description: 'One column unless the matrix is multi.' }),
      }),
    });
    return {
      components: {
        Matrix: kit.component('Matrix', 'Rows answered on one scale of columns: radio buttons, or check boxes when isMulti.', (t) => ({
          question: kit.text(t, 'question'),
          rows: t.stringList({ resolve: (c) => rowsOf(c.content) }),
          columns: t.stringList({ resolve: (c) => columnsOf(c.content) }),
          isMulti: kit.bool(t, 'isMulti'),
          required: kit.bool(t, 'required'),
        })),
      },
      answers: {
        Matrix: kit.answer('MatrixAnswer', 'Answer to a Matrix.', (t) => ({
          rows: t.field({
            type: [Row],
            description: "The rows answered, in the form's order of the answer.",
            resolve: (r) => Object.keys(asObject(r.rows)).map((row) => ({ row, columns: storedRow(r, row) })),
          }),
        })),
      },
    };
  },
  export: {
    columns: ({ content }) => rowsOf(content).map((row) => ({ label: row, key: row })),
    part: (response, row) => cellText(storedRow(response, row)),
  },
  summary: {
    field: 'rows',
    // Each pair once: a row is a key once, and its columns are distinct (the content's, filtered by the answer).
    chosen: (response) => sql`select jsonb_build_array(r.key, c.value)::text
      from jsonb_each(case when ${response}->>'type' = 'Matrix' and jsonb_typeof(${response}->'rows') = 'object' then ${response}->'rows' else '{}'::jsonb end) r
      cross join lateral jsonb_array_elements_text(case jsonb_typeof(r.value) when 'array' then r.value when 'string' then jsonb_build_array(r.value) else '[]'::jsonb end) c`,
    rows({ content }, counts): RowSummary[] {
      const byRow = pairCounts(counts);
      return rowsOf(content).map((row) => ({
        row,
        options: columnsOf(content).map((option) => ({ option, count: byRow.get(row)?.get(option) ?? 0 })),
        mean: null,
      }));
    },
  },
  style: {
    css: `.fl-matrix { overflow-x: auto; max-width: 100%; -webkit-overflow-scrolling: touch; }
.fl-matrix:focus-visible { outline: 3px solid var(--c-link); outline-offset: 2px; }
.fl-matrix table { border-collapse: collapse; min-width: 100%; }
.fl-matrix th, .fl-matrix td { padding: 8px 10px; text-align: center; border-bottom: 1px solid var(--c-border); }
.fl-matrix th[scope="row"] { text-align: start; font-weight: 500; min-width: 8em; }
.fl-matrix th[scope="col"] { font-weight: 600; font-size: 14px; }
.fl-matrix input { width: 24px; height: 24px; margin: 0; accent-color: var(--c-accent); }
.fl-matrix input:focus-visible { outline: 3px solid var(--c-link); outline-offset: 2px; }`,
  },
  conditions: {
    subject({ content }, field) {
      if (field === undefined) return { kind: 'presence' };
      if (!rowsOf(content).includes(field)) return `"${clip(field)}" is not one of the rows of this Matrix`;
      return { kind: content.isMulti === true ? 'choices' : 'choice', options: columnsOf(content) };
    },
    value({ content }, response, field) {
      if (field === undefined) return isObject(response.rows) && Object.keys(response.rows).length > 0 ? true : undefined;
      const picked = storedRow(response, field);
      if (content.isMulti === true) return picked.length > 0 ? picked : undefined;
      return picked[0];
    },
  },
};
