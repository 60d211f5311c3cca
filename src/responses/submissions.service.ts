/**
 * The write side of responses: validating a step's answers, starting or updating the response of a
 * (form, session), finishing it. Plain TypeScript; the public page and the public JSON API both call it.
 *
 * Concurrency: everything for one submission runs in one transaction. The response row is created
 * with `INSERT … ON CONFLICT (form_id, session_id) DO NOTHING` and then locked with
 * `SELECT … FOR UPDATE`, so simultaneous submissions for one session queue on that row: each merges
 * its answers (keyed by questionId) into what the previous one committed, none is lost, and a
 * session never gets two responses. A session id drawn at random by the same request (`newSession`:
 * a new resume token or page session) cannot have a response yet: that response is created by one
 * insert with its answers, without the lock and update. The response's events (response.created/updated/finished) are
 * recorded in the same transaction (events/outbox.ts), in the order the row lock gives them.
 */
import { and, eq, sql } from 'drizzle-orm';
import { preparedQuery } from '../db/prepared.ts';
import type { Db } from '../db/client.ts';
import { responses } from '../db/schema.ts';
import { AppError, invalidInput } from '../errors.ts';
import type { FieldError, StoredComponent, StoredStep } from '../forms/components.ts';
import type { Form } from '../forms/forms.service.ts';
import { addLeadFormCounts, ensureVisitorLead, leadForEmail, leadWithEmail } from '../leads/leads.service.ts';
import { createId } from '../ids.ts';
import { recordEvent } from '../events/outbox.ts';
import { toResponseObject, type ResponseAnswer, type ResponseMeta } from './model.ts';
import { findUnsafeJson } from '../limits/json-safety.ts';
import type { PasswordHasher } from './password-hashing.ts';
import { emailOf, holdsPassword, isAnswerable, isRequired, sealResponse, validateAnswer, type StoredResponse } from './shapes.ts';
import { storedIpSql } from '../privacy/ip.ts';

export type ResponseRow = typeof responses.$inferSelect;

/** Validated answers by questionId; `null` removes an earlier answer. */
export type PreparedAnswers = Map<string, StoredResponse | null>;

export interface LocatedComponent {
  component: StoredComponent;
  stepIndex: number;
  /** Position in the whole form: answers and errors are kept in this order. */
  position: number;
}

export function componentsOf(steps: readonly StoredStep[]): Map<string, LocatedComponent> {
  const map = new Map<string, LocatedComponent>();
  steps.forEach((step, stepIndex) => step.components.forEach((component) => map.set(component.id, { component, stepIndex, position: map.size })));
  return map;
}

/** Sort key of a questionId: its position in the form; unknown ids last. */
const positionIn = (components: Map<string, LocatedComponent>, questionId: string) => components.get(questionId)?.position ?? components.size;

/** No answer shape nests deeper than `{selected: [...]}`; deeper input is refused before it is walked. */
const MAX_ANSWER_DEPTH = 4;

/** What a submission may cost, from the config (PASSWORD_HASH_CONCURRENCY, MAX_PASSWORD_ANSWERS). */
export interface AnswerLimits {
  /** Password answers accepted in one submission; each costs a scrypt hash. */
  maxPasswordAnswers: number;
  /** The app's one hasher: bounded concurrency across every submission. */
  passwords: PasswordHasher;
}

/**
 * Validates answers keyed by questionId against the form. Error paths start with
 * `["answers", questionId]`. Passwords are hashed only when every answer is valid, and at most
 * `limits.maxPasswordAnswers` of them: the first one past the limit (in form order) is an error.
 */
export async function prepareAnswers(
  form: Pick<Form, 'steps'>,
  raw: Record<string, unknown>,
  limits: AnswerLimits,
): Promise<{ answers: PreparedAnswers; errors: FieldError[] }> {
  const components = componentsOf(form.steps);
  const valid: [string, StoredResponse | null][] = [];
  const errors: FieldError[] = [];
  for (const [questionId, value] of Object.entries(raw)) {
    const located = components.get(questionId);
    if (!located) {
      errors.push({ message: 'No question with this id in the form', path: ['answers', questionId] });
      continue;
    }
    // PostgreSQL refuses NUL and unpaired surrogates in jsonb: refuse them here, whoever the caller.
    const unsafe = findUnsafeJson(value, MAX_ANSWER_DEPTH, ['answers', questionId]);
    if (unsafe) {
      errors.push(unsafe);
      continue;
    }
    const result = validateAnswer(located.component, value);
    if (result.ok) valid.push([questionId, result.response]);
    else errors.push(...result.errors.map((e) => ({ message: e.message, path: ['answers', questionId, ...e.path] })));
  }
  valid.sort(([a], [b]) => positionIn(components, a) - positionIn(components, b));
  const passwords = valid.filter(([, response]) => holdsPassword(response));
  for (const [questionId] of passwords.slice(limits.maxPasswordAnswers)) {
    errors.push({ message: `At most ${limits.maxPasswordAnswers} password answers per submission`, path: ['answers', questionId] });
  }
  if (errors.length > 0) {
    // Report in form order, whatever order the answers came in.
    errors.sort((a, b) => positionIn(components, String(a.path[1])) - positionIn(components, String(b.path[1])));
    return { answers: new Map(), errors };
  }
  const hash = (clear: string) => limits.passwords.hash(clear);
  const sealed = await Promise.all(valid.map(async ([questionId, response]) => [questionId, response && (await sealResponse(response, hash))] as const));
  return { answers: new Map(sealed), errors };
}

/** Required questions that `data` leaves unanswered (what stops a response from finishing). */
export function missingRequired(form: Pick<Form, 'steps'>, data: readonly ResponseAnswer[]): LocatedComponent[] {
  const answered = new Set(data.map((a) => a.questionId));
  return [...componentsOf(form.steps).values()].filter(({ component }) => isRequired(component) && !answered.has(component.id));
}

export interface SubmissionContext {
  ip: string;
  country: string;
  source: NonNullable<ResponseMeta['source']>;
  userAgent?: string | undefined;
}

export interface SubmitInput {
  form: Form;
  /** The browser session (page) or the resume-token key (API) that owns the response. */
  sessionId: string;
  /** The visitor's lead id (cookie or visitor token), if known; may not exist yet. */
  visitorLeadId?: string | undefined;
  answers: PreparedAnswers;
  /** Marks the response finished (all required questions must then be answered). */
  finish: boolean;
  context: SubmissionContext;
  /** Update only: a missing response is "Response not found" rather than a new one. */
  mustExist?: boolean;
  /**
   * The session id was just drawn at random (a new resume token): no response can have it yet, so the
   * response is created in one insert, with no lock taken first and no update after.
   */
  newSession?: boolean;
}

export interface SubmitResult {
  response: ResponseRow;
  created: boolean;
}

export async function submitAnswers(db: Db, input: SubmitInput): Promise<SubmitResult> {
  const { form, sessionId } = input;
  const components = componentsOf(form.steps);
  return db.transaction(async (tx) => {
    const now = new Date();
    if (input.newSession) return createResponse(tx, input, components, now);
    let row = await lockSessionResponse(tx, form.id, sessionId);
    let created = false;
    let counts: { visits: number; completions: number } | undefined;
    if (!row) {
      if (input.mustExist) throw new AppError('NOT_FOUND', 'Response not found');
      const { id: leadId } = await ensureVisitorLead(tx, form.environmentId, input.visitorLeadId);
      const [inserted] = await tx
        .insert(responses)
        .values(newResponseRow(input, leadId, now))
        .onConflictDoNothing({ target: [responses.formId, responses.sessionId] })
        .returning();
      if (inserted) {
        created = true;
        row = inserted;
        counts = await addLeadFormCounts(tx, leadId, form.id, { visits: 1 });
      } else {
        // A simultaneous submission of this session created it first; queue behind it.
        row = await lockSessionResponse(tx, form.id, sessionId);
        if (!row) throw new Error('response of the session vanished');
      }
    }
    if (row.finished) throw new AppError('CONFLICT', 'Response is already finished');

    const data = mergeAnswers(row.data, input.answers, components);
    // Before any lead or count writes: a response that can't finish rolls back at once.
    if (input.finish) requireAnswered(form, data);
    let leadId = row.leadId;
    const email = emailOf(data);
    // An e-mail the response already had was settled when it was answered: only a new one moves the lead.
    if (email && email !== emailOf(row.data)) {
      const target = await leadForEmail(tx, form.environmentId, leadId, email);
      if (target !== leadId) {
        // The visit was this lead's all along.
        await addLeadFormCounts(tx, leadId, form.id, { visits: -1 });
        counts = await addLeadFormCounts(tx, target, form.id, { visits: 1 });
        leadId = target;
      }
    }
    if (input.finish) {
      counts = await addLeadFormCounts(tx, leadId, form.id, { completions: 1 });
    }
    const [updated] = await tx
      .update(responses)
      .set({
        data,
        leadId,
        finished: input.finish,
        updatedAt: now,
        ...(input.answers.size > 0 ? { dataUpdatedAt: now } : {}),
        ...(counts ? { visitedForm: counts.visits, completedForm: counts.completions } : {}),
      })
      .where(eq(responses.id, row.id))
      .returning();
    await recordResponseEvents(tx, form, updated!, created, input.finish, now);
    return { response: updated!, created };
  });
}

/** The outbox, in the submission's transaction: the events commit or roll back with the change. */
async function recordResponseEvents(tx: Db, form: Form, row: ResponseRow, created: boolean, finished: boolean, now: Date) {
  const responseObject = toResponseObject(row, now, Number.POSITIVE_INFINITY);
  const event = { environmentId: form.environmentId, formId: form.id, responseId: row.id, data: responseObject, at: now };
  await recordEvent(tx, { ...event, type: created ? 'response.created' : 'response.updated' });
  if (finished) await recordEvent(tx, { ...event, type: 'response.finished' });
}

/**
 * A new session's response (`newSession`): the same outcome as starting one and then updating it, in
 * fewer statements. Its lead is settled first (a new visitor who answers an e-mail goes straight to the
 * environment's lead with it), then its counts, then one insert with the answers.
 */
async function createResponse(tx: Db, input: SubmitInput, components: Map<string, LocatedComponent>, now: Date): Promise<SubmitResult> {
  const { form } = input;
  const data = mergeAnswers([], input.answers, components);
  if (input.finish) requireAnswered(form, data);
  const email = emailOf(data);
  let leadId: string;
  if (email && !input.visitorLeadId) {
    leadId = await leadWithEmail(tx, form.environmentId, email);
  } else {
    const visitor = await ensureVisitorLead(tx, form.environmentId, input.visitorLeadId);
    leadId = email ? await leadForEmail(tx, form.environmentId, visitor, email) : visitor.id;
  }
  const counts = await addLeadFormCounts(tx, leadId, form.id, { visits: 1, completions: input.finish ? 1 : 0 });
  const [inserted] = await tx
    .insert(responses)
    .values({ ...newResponseRow(input, leadId, now), data, finished: input.finish, visitedForm: counts.visits, completedForm: counts.completions })
    .returning();
  await recordResponseEvents(tx, form, inserted!, true, input.finish, now);
  return { response: inserted!, created: true };
}

/** A new response of the session: who, where from, when (answers and counts are the caller's). */
function newResponseRow(input: SubmitInput, leadId: string, now: Date) {
  const { form, context } = input;
  const meta: ResponseMeta = { source: context.source };
  if (context.userAgent) meta.userAgent = context.userAgent.slice(0, 512);
  return {
    id: createId(),
    environmentId: form.environmentId,
    formId: form.id,
    leadId,
    sessionId: input.sessionId,
    meta,
    ip: storedIpSql(form.environmentId, context.ip), // as the environment's IP storage setting says
    country: context.country,
    createdAt: now,
    updatedAt: now,
    dataUpdatedAt: now,
  };
}

/** A response finishes only with every required question answered: else 400 naming each. */
function requireAnswered(form: Pick<Form, 'steps'>, data: readonly ResponseAnswer[]): void {
  const missing = missingRequired(form, data);
  if (missing.length > 0) {
    throw invalidInput(
      missing.map(({ component }) => ({ message: 'This question must be answered before the response can finish', path: ['answers', component.id] })),
    );
  }
}

/** Answers replace earlier ones with the same questionId; `data` follows the form's question order. */
function mergeAnswers(existing: readonly ResponseAnswer[], answers: PreparedAnswers, components: Map<string, LocatedComponent>): ResponseAnswer[] {
  const byId = new Map(existing.map((a) => [a.questionId, a] as const));
  for (const [questionId, response] of answers) {
    if (response === null) byId.delete(questionId);
    else byId.set(questionId, { questionId, response });
  }
  return [...byId.values()].sort((a, b) => positionIn(components, a.questionId) - positionIn(components, b.questionId));
}

async function lockSessionResponse(db: Db, formId: string, sessionId: string): Promise<ResponseRow | undefined> {
  const [row] = await db
    .select()
    .from(responses)
    .where(and(eq(responses.formId, formId), eq(responses.sessionId, sessionId)))
    .for('update');
  return row;
}

/** A response of a form by its id or its session, with the query built once per handle. */
async function findResponseBy(db: Db, column: 'id' | 'sessionId', formId: string, value: string): Promise<ResponseRow | undefined> {
  const name = `response_of_form_by_${column}`;
  const query = preparedQuery(db, name, (handle) =>
    handle
      .select()
      .from(responses)
      .where(and(eq(responses.formId, sql.placeholder('formId')), eq(responses[column], sql.placeholder('value'))))
      .prepare(name),
  );
  const [row] = await query.execute({ formId, value });
  return row;
}

/** The response a session of a form owns, if any. */
export const findSessionResponse = (db: Db, formId: string, sessionId: string) => findResponseBy(db, 'sessionId', formId, sessionId);

export const findFormResponse = (db: Db, formId: string, responseId: string) => findResponseBy(db, 'id', formId, responseId);

/**
 * Where a returning session continues: the step after the last one it answered; or, when it has
 * submitted steps without answers, the first step with a question.
 */
export function resumeStepIndex(form: Pick<Form, 'steps'>, response: Pick<ResponseRow, 'data'> | undefined): number {
  if (!response) return 0;
  const components = componentsOf(form.steps);
  const answeredSteps = response.data.map((a) => components.get(a.questionId)?.stepIndex ?? -1);
  const last = Math.max(-1, ...answeredSteps);
  if (last >= 0) return Math.min(last + 1, form.steps.length - 1);
  const firstQuestion = form.steps.findIndex((step) => step.components.some((c) => isAnswerable(c.type)));
  return Math.max(0, Math.min(firstQuestion === -1 ? form.steps.length - 1 : firstQuestion, form.steps.length - 1));
}
