/**
 * The exports: responses as spreadsheet rows (the columns of a CSV export and each response's cells:
 * plain data in, plain strings out) and the body formats a stream writes them in (`exportFormat`: CSV
 * records, csv.ts, or NDJSON lines).
 *
 * Columns: the fixed ones (EXPORT_FIXED_COLUMNS; `formVersion` is the version of the form the response
 * answered, meta.formVersion; `path` the keys of the steps the response went through, joined with " > ";
 * `language` the language a multilingual form's response was answered in, meta.language), then
 * - with a form: one per declared hidden field, headed `<name> [hidden]`; then one per question across
 *   its steps in order, headed `<headline> [<questionId>]`, or the columns its module's `export.columns`
 *   names (one per collected field, headed `<label> [<questionId>.<key>]`); components that take no
 *   answer get none. The current version's questions come first, then those only earlier versions had
 *   (newest first), so no answer of an earlier version is lost;
 * - without a form (the environment export): a `hiddenFields` column holding the hidden field values
 *   as a JSON object, and a `data` column holding the answers as JSON (the `data` array of the
 *   response object).
 *
 * Cells (see `answerCell`, and each module's `export.cell`): multi-valued answers are joined with "; ",
 * booleans are `true`/`false`, no answer is an empty cell, password answers are never exported. Every cell and header that begins
 * with `=`, `+`, `-`, `@`, a tab or a carriage return is prefixed with `'` so spreadsheets show it as
 * text instead of evaluating it (OWASP "CSV injection").
 */
import { cellText, type StoredResponse } from '../components/answers.ts';
import { moduleOf } from '../components/catalogue.ts';
import { headlineOf, isAnswerable } from './shapes.ts';
import { csvField, csvRecord, neutralizeCell } from './csv.ts';
import { jsonOfJsonbText } from '../db/jsonb-text.ts';
import { responseStatus } from './model.ts';
import type { StreamedResponse } from './responses.service.ts';
import { isRow, writeItemJson, type BodyFormat } from './stream.ts';

export const EXPORT_FORMATS = ['csv', 'ndjson'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
import { responseFormVersion } from '../forms/versions.service.ts';

/** The fixed leading columns of every export, in order. */
export const EXPORT_FIXED_COLUMNS = ['id', 'createdAt', 'updatedAt', 'finished', 'status', 'formId', 'leadId', 'ip', 'country', 'formVersion', 'path', 'language'] as const;

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
  /** The form variable this column holds (then `questionId` and `type` are empty). */
  variable?: string;
  questionId: string;
  /** The part of the answer this column holds, when its module's `export.columns` names parts. */
  key?: string;
  type: string;
}

type Content = Record<string, unknown>;
/** `value[key]` if `value` has it as its own property: a stored name such as `constructor` never reads what every object inherits. */
const own = (value: Content, key: string): unknown => (Object.hasOwn(value, key) ? value[key] : undefined);
const asContent = (value: unknown): Content => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Content) : {});

/** The question columns of a form, step by step. */
export function questionColumns(steps: readonly { components: readonly ExportComponent[] }[]): ExportColumn[] {
  const columns: ExportColumn[] = [];
  for (const step of steps) {
    for (const component of step.components) {
      if (!isAnswerable(component.type)) continue;
      const stored = { id: component.id, type: component.type, content: asContent(component.content) };
      const parts = moduleOf(component.type)?.export?.columns?.(stored);
      if (parts) {
        for (const { label, key } of parts) columns.push({ header: `${label} [${component.id}.${key}]`, questionId: component.id, key, type: component.type });
        continue;
      }
      const headline = headlineOf(stored) || component.type;
      columns.push({ header: `${headline} [${component.id}]`, questionId: component.id, type: component.type });
    }
  }
  return columns;
}

/**
 * The question columns of every version of a form, `versions` newest (current) first: each version's
 * columns that no newer version has (a question, or an IdentityInfo key), headed as the newest version
 * that has it shows it.
 */
export function questionColumnsOfVersions(versions: readonly (readonly { components: readonly ExportComponent[] }[])[]): ExportColumn[] {
  const columns: ExportColumn[] = [];
  const seen = new Set<string>();
  for (const steps of versions) {
    for (const column of questionColumns(steps)) {
      const key = `${column.questionId}.${column.key ?? ''}`;
      if (seen.has(key)) continue;
      seen.add(key);
      columns.push(column);
    }
  }
  return columns;
}

/** The columns of a form's declared hidden fields (they come before its question columns). */
export function hiddenFieldColumns(names: readonly string[]): ExportColumn[] {
  return names.map((name) => ({ header: `${name} [hidden]`, hiddenField: name, questionId: '', type: '' }));
}

/** One column per form variable, `<name> [variable]`: its value as the response's path left it. */
export function variableColumns(names: readonly string[]): ExportColumn[] {
  return names.map((name) => ({ header: `${name} [variable]`, variable: name, questionId: '', type: '' }));
}

/** The header row: fixed columns, then the form's columns (or `hiddenFields` and `data` without a form). */
export function headerRow(columns: readonly ExportColumn[] | undefined): string[] {
  return [...EXPORT_FIXED_COLUMNS, ...(columns ? columns.map((c) => c.header) : ['hiddenFields', 'data'])].map(neutralizeCell);
}

/** One answer as a cell (see the module comment). */
export function answerCell(type: string, response: Content, key?: string): string {
  if (key !== undefined) return moduleOf(type)?.export?.part?.(response as StoredResponse, key) ?? cellText(response[key]);
  const own = moduleOf(type)?.export?.cell?.(response as StoredResponse);
  if (own !== undefined) return own;
  for (const field of ['input', 'emailAddress', 'fileUrl'] as const) if (field in response) return cellText(response[field]);
  const { type: _type, headline: _headline, componentShapeVersion: _version, ...rest } = response;
  return Object.keys(rest).length === 0 ? '' : JSON.stringify(rest);
}

/** ISO 8601 UTC, as the JSON listing writes it. */
const instant = (value: string | Date): string => (value instanceof Date ? value.toISOString() : value);

/** The fixed cells of a response's row (EXPORT_FIXED_COLUMNS), each as a spreadsheet shows it as text. */
function fixedCells(response: ExportedResponse): string[] {
  return [
    response.id,
    instant(response.createdAt),
    instant(response.updatedAt),
    String(response.finished),
    String(response.status),
    response.formId,
    cellText(own(asContent(response.meta), 'leadId')),
    response.personAttributes.ip,
    response.personAttributes.country,
    String(responseFormVersion(response.meta)),
    pathOf(response.meta).join(PATH_SEPARATOR),
    cellText(own(asContent(response.meta), 'language')),
  ].map(neutralizeCell);
}

const pathOf = (meta: unknown): string[] => {
  const path = own(asContent(meta), 'path');
  return Array.isArray(path) ? path.filter((key): key is string => typeof key === 'string') : [];
};
const hiddenOf = (meta: unknown): Content => asContent(own(asContent(meta), 'hiddenFields'));

/** The hidden fields cell of the environment export: the values as a JSON object. */
export const hiddenFieldsCell = (response: Pick<ExportedResponse, 'meta'>): string => neutralizeCell(JSON.stringify(hiddenOf(response.meta)));

/** One response as a row matching `headerRow(columns)`. */
export function responseRow(response: ExportedResponse, columns: readonly ExportColumn[] | undefined): string[] {
  const fixed = fixedCells(response);
  if (!columns) return [...fixed, hiddenFieldsCell(response), neutralizeCell(JSON.stringify(response.data))];
  const answers = Array.isArray(response.data) ? (response.data as unknown[]).map(asContent) : [];
  const byQuestion = new Map(answers.map((answer) => [String(answer.questionId), asContent(answer.response)]));
  const hidden = hiddenOf(response.meta);
  const variables = asContent(own(asContent(response.meta), 'variables'));
  const cells = columns.map((column) => {
    if (column.hiddenField !== undefined) return cellText(own(hidden, column.hiddenField));
    if (column.variable !== undefined) return cellText(own(variables, column.variable));
    const answer = byQuestion.get(column.questionId);
    return answer ? answerCell(column.type, answer, column.key) : '';
  });
  return [...fixed, ...cells.map(neutralizeCell)];
}

/**
 * The body of an export (responses/stream.ts writes it): CSV rows after the header row (a later batch's
 * row of the environment export writes its `data` cell from the jsonb text, `ChunkWriter.jsonbCsvField`),
 * or NDJSON lines of the response object.
 */
export function exportFormat<T extends ExportedResponse>(format: ExportFormat, columns: ExportColumn[] | undefined, dropOffMs: number): BodyFormat<T> {
  if (format === 'ndjson') {
    return {
      head: '',
      row: (out, item, _first, now) => {
        writeItemJson(out, item, now, dropOffMs);
        out.text('\n');
      },
      tail: '',
    };
  }
  return {
    head: csvRecord(headerRow(columns)),
    row: (out, item, _first, now) => {
      if (columns === undefined && isRow(item)) {
        const exported = exportedOfRow(item, now, dropOffMs, null);
        out.text(`${[...fixedCells(exported), hiddenFieldsCell(exported)].map(csvField).join(',')},`);
        out.jsonbCsvField(item.data);
        out.text('\r\n');
      } else {
        out.text(csvRecord(responseRow(isRow(item) ? exportedOfRow(item, now, dropOffMs, JSON.parse(item.data)) : item, columns)));
      }
    },
    tail: '',
  };
}

/** What the export reads of a later batch's row: its metadata (small: parsed), the lead (the column's), its answers as given. */
const exportedOfRow = (row: StreamedResponse, now: Date, dropOffMs: number, data: unknown): ExportedResponse => ({
  id: row.id,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
  finished: row.finished,
  status: responseStatus(row, now, dropOffMs),
  formId: row.formId,
  data,
  meta: { ...(JSON.parse(jsonOfJsonbText(row.meta)) as object), leadId: row.leadId },
  personAttributes: { ip: row.ip, country: row.country },
});
