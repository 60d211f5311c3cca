/**
 * The stored response and its public object (SPEC.md "Response object"), shared by the pages that
 * write responses and the APIs that read them.
 */

/** One answer: `response` has `type`, `componentShapeVersion`, `headline` and the type's fields (shapes.ts). */
export interface ResponseAnswer {
  questionId: string;
  response: { type: string; componentShapeVersion?: string; headline?: string; [field: string]: unknown };
}

export interface ResponseMeta {
  /** Where the response came from: the public page or the public JSON API. */
  source?: 'page' | 'api';
  userAgent?: string;
  [key: string]: unknown;
}

/** Lifecycle codes of `status` (documented in the README). */
export const RESPONSE_STATUS = { inProgress: 2, droppedOff: 3, completed: 4 } as const;
export const RESPONSE_FORMAT_VERSION = '2.0';
export const COMPONENT_SHAPE_VERSION = '2.0';

export interface ResponseRecord {
  id: string;
  formId: string;
  leadId: string;
  finished: boolean;
  data: ResponseAnswer[];
  meta: ResponseMeta;
  ip: string;
  country: string;
  visitedForm: number;
  completedForm: number;
  version: string;
  createdAt: Date;
  updatedAt: Date;
  dataUpdatedAt: Date;
}

/** The response object of the API. */
export interface ResponseObject {
  id: string;
  createdAt: string;
  updatedAt: string;
  dataUpdatedAt: string;
  finished: boolean;
  status: number;
  formId: string;
  version: string;
  data: ResponseAnswer[];
  meta: ResponseMeta & { leadId: string };
  personAttributes: { ip: string; country: string; visitedForm: number; completedForm: number };
}

/** 4 completed; 3 dropped off (unfinished and untouched for `dropOffMs`); 2 in progress. */
export function responseStatus(record: Pick<ResponseRecord, 'finished' | 'updatedAt'>, now: Date, dropOffMs: number): number {
  if (record.finished) return RESPONSE_STATUS.completed;
  return now.getTime() - record.updatedAt.getTime() >= dropOffMs ? RESPONSE_STATUS.droppedOff : RESPONSE_STATUS.inProgress;
}

export function toResponseObject(record: ResponseRecord, now: Date, dropOffMs: number): ResponseObject {
  return {
    id: record.id,
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
    dataUpdatedAt: record.dataUpdatedAt.toISOString(),
    finished: record.finished,
    status: responseStatus(record, now, dropOffMs),
    formId: record.formId,
    version: record.version,
    data: record.data,
    meta: { ...record.meta, leadId: record.leadId },
    personAttributes: { ip: record.ip, country: record.country, visitedForm: record.visitedForm, completedForm: record.completedForm },
  };
}
