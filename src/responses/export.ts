/**
 * Responses as spreadsheet rows: the columns of a CSV export and each response's cells. Plain data in,
 * plain strings out (the REST adapter streams them as CSV records, rest/csv.ts).
 *
 * Columns: the fixed ones (EXPORT_FIXED_COLUMNS; `path` is the keys of the steps the response went
 * through, joined with " > "), then
 * - with a form: one per declared hidden field, headed `<name> [hidden]`; then one per question across
 *   its steps in order, headed `<headline> [<questionId>]`; IdentityInfo gets one column per collected
 *   key, headed `<label> [<questionId>.<key>]`; components that take no answer (Header, NextButton, …)
 *   get none;
 * - without a form (the environment export): a `hiddenFields` column holding the hidden field values
 *   as a JSON object, and a `data` column holding the answers as JSON (the `data` array of the
 *   response object).
 *
 * Cells (see `answerCell`): multi-valued answers are joined with "; ", booleans are `true`/`false`,
 * no answer is an empty cell, password answers are never exported. Every cell and header that begins
 * with `=`, `+`, `-`, `@`, a tab or a carriage return is prefixed with `'` so spreadsheets show it as
 * text instead of evaluating it (OWASP "CSV injection").
 */
import { identityFields, type IdentityField } from '../components/identity-info.ts';
import { isBookingType } from '../components/schedulers.ts';
import { headlineOf, isAnswerable } from './shapes.ts';

/** The fixed leading columns of every export, in order. */
export const EXPORT_FIXED_COLUMNS = ['id', 'createdAt', 'updatedAt', 'finished', 'status', 'formId', 'leadId', 'ip', 'country', 'path'] as const;

/** Separator of the step keys in the `path` cell. */
export const PATH_SEPARATOR = ' > ';

/** What an export reads of a response: the REST response object. */
export interface ExportedResponse {
  id: string;
  createdAt: string | Date;
  updatedAt: string | Date;
  finished: boolean;
  status: number;
  formId: string;
  data: unknown;
  meta: unknown;
  personAttributes: { ip: string; country: string };
}

/** A component of a form as the export reads it. */
export interface ExportComponent {
  id: string;
  type: string;
  content: unknown;
}

export interface ExportColumn {
  header: string;
  /** The hidden field this column holds (then `questionId` and `type` are empty). */
  hiddenField?: string;
  questionId: string;
  /** The IdentityInfo key this column holds. */
  identityKey?: string;
  type: string;
}

/** Separator of multi-valued answers within one cell. */
export const MULTI_VALUE_SEPARATOR = '; ';

const FORMULA_START = /^[=+\-@\t\r]/;

/** A cell a spreadsheet shows as text: formula-looking values get a leading `'`. */
export function neutralizeCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

type Content = Record<string, unknown>;
const asContent = (value: unknown): Content => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Content) : {});

/** The question columns of a form, step by step. */
export function questionColumns(steps: readonly { components: readonly ExportComponent[] }[]): ExportColumn[] {
  const columns: ExportColumn[] = [];
  for (const step of steps) {
    for (const component of step.components) {
      if (!isAnswerable(component.type)) continue;
      const stored = { id: component.id, type: component.type, content: asContent(component.content) };
      if (component.type === 'IdentityInfo') {
        for (const field of identityFields(stored.content) as IdentityField[]) {
          columns.push({ header: `${field.label} [${component.id}.${field.key}]`, questionId: component.id, identityKey: field.key, type: component.type });
        }
        continue;
      }
      const headline = headlineOf(stored) || component.type;
      columns.push({ header: `${headline} [${component.id}]`, questionId: component.id, type: component.type });
    }
  }
  return columns;
}

/** The columns of a form's declared hidden fields (they come before its question columns). */
export function hiddenFieldColumns(names: readonly string[]): ExportColumn[] {
  return names.map((name) => ({ header: `${name} [hidden]`, hiddenField: name, questionId: '', type: '' }));
}

/** The header row: fixed columns, then the form's columns (or `hiddenFields` and `data` without a form). */
export function headerRow(columns: readonly ExportColumn[] | undefined): string[] {
  return [...EXPORT_FIXED_COLUMNS, ...(columns ? columns.map((c) => c.header) : ['hiddenFields', 'data'])].map(neutralizeCell);
}

const text = (value: unknown): string => {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(text).filter((v) => v !== '').join(MULTI_VALUE_SEPARATOR);
  return JSON.stringify(value);
};

/** One answer as a cell (see the module comment). */
export function answerCell(type: string, response: Content, identityKey?: string): string {
  if (identityKey !== undefined) return text(response[identityKey]);
  if (type === 'PasswordInput' || type === 'PasswordCreatorInput') return '';
  if (type === 'Dropdown') return text(response.selected);
  if (Array.isArray(response.choices)) {
    const chosen = response.choices.flatMap((choice) => {
      const c = asContent(choice);
      return c.value === true && typeof c.key === 'string' ? [c.key] : [];
    });
    if (typeof response.other === 'string') chosen.push(response.other);
    return chosen.join(MULTI_VALUE_SEPARATOR);
  }
  if (isBookingType(type)) {
    if (response.eventScheduled !== true) return response.eventScheduled === false ? 'false' : '';
    return text(response.meetingTime) || 'true';
  }
  if (type === 'Disclaimer') return text(response.check);
  if (type === 'GraphicOptions') return text(response.value ?? response.index);
  for (const key of ['input', 'emailAddress', 'fileUrl'] as const) if (key in response) return text(response[key]);
  const { type: _type, headline: _headline, componentShapeVersion: _version, ...rest } = response;
  return Object.keys(rest).length === 0 ? '' : JSON.stringify(rest);
}

/** ISO 8601 UTC, as the JSON listing writes it. */
const instant = (value: string | Date): string => (value instanceof Date ? value.toISOString() : value);

/** The fixed cells of a response's row (EXPORT_FIXED_COLUMNS), each as a spreadsheet shows it as text. */
export function fixedCells(response: ExportedResponse): string[] {
  return [
    response.id,
    instant(response.createdAt),
    instant(response.updatedAt),
    String(response.finished),
    String(response.status),
    response.formId,
    text(asContent(response.meta).leadId),
    response.personAttributes.ip,
    response.personAttributes.country,
    pathOf(response.meta).join(PATH_SEPARATOR),
  ].map(neutralizeCell);
}

const pathOf = (meta: unknown): string[] => {
  const path = asContent(meta).path;
  return Array.isArray(path) ? path.filter((key): key is string => typeof key === 'string') : [];
};
const hiddenOf = (meta: unknown): Content => asContent(asContent(meta).hiddenFields);

/** The hidden fields cell of the environment export: the values as a JSON object. */
export const hiddenFieldsCell = (response: Pick<ExportedResponse, 'meta'>): string => neutralizeCell(JSON.stringify(hiddenOf(response.meta)));

/** One response as a row matching `headerRow(columns)`. */
export function responseRow(response: ExportedResponse, columns: readonly ExportColumn[] | undefined): string[] {
  const fixed = fixedCells(response);
  if (!columns) return [...fixed, hiddenFieldsCell(response), neutralizeCell(JSON.stringify(response.data))];
  const answers = Array.isArray(response.data) ? (response.data as unknown[]).map(asContent) : [];
  const byQuestion = new Map(answers.map((answer) => [String(answer.questionId), asContent(answer.response)]));
  const hidden = hiddenOf(response.meta);
  const cells = columns.map((column) => {
    if (column.hiddenField !== undefined) return text(hidden[column.hiddenField]);
    const answer = byQuestion.get(column.questionId);
    return answer ? answerCell(column.type, answer, column.identityKey) : '';
  });
  return [...fixed, ...cells.map(neutralizeCell)];
}
