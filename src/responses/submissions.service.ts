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
 * insert with its answers, without the lock and update; for a new visitor (no lead yet) the lead,
 * counts, response and events are one statement, its own transaction. An update or finish of a
 * response read with the form (`seen`) is one statement that writes only if the row is still the
 * version read (a finish locks it there), else the locked transaction runs. The response's events
 * (response.created/updated/finished) are recorded in the same transaction or statement
 * (events/outbox.ts), in the order the row lock gives them.
 */
import { and, eq, getTableColumns, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { preparedQuery } from '../db/prepared.ts';
import type { Db } from '../db/client.ts';
import { forms, responses } from '../db/schema.ts';
import { AppError, invalidInput, type FieldError } from '../errors.ts';
import type { Form } from '../forms/forms.service.ts';
import { stepsOf, stepsText } from '../forms/definition-cache.ts';
import { answerInDefaultLanguage } from '../forms/translations.ts';
import { addLeadFormCounts, addLeadFormCountsSql, ensureVisitorLead, leadForEmail, newVisitorCountsCtes, type LeadFormCounts } from '../leads/leads.service.ts';
import { createId } from '../ids.ts';
import { recordEvents, recordEventsOfChange, type NewEvent, type WebhookEventType } from '../events/outbox.ts';
import { isInvalidResponse, toResponseObject } from './model.ts';
import { checkSchedule, finishedCounts, isCounted, lockForFinishing, notAccepting, quotaVerdict } from './gate.ts';
import { stepKey } from '../forms/logic.ts';
import { notificationsOf } from '../notifications/recipients.ts';
import { formLogicKey, hasLogic, pathIndexes, pathKeys, walkPath, type HiddenValues, type WalkedPath } from './path.ts';
import { findUnsafeJson } from '../limits/json-safety.ts';
import { CAPTCHA_MESSAGES } from '../components/captchas.ts';
import type { PasswordHasher } from './password-hashing.ts';
import { emailOf, holdsPassword, isRequired, sealResponse, validateAnswer, type StoredResponse } from './shapes.ts';
import { storedIpOf, storedIpSql, storedIpValues } from '../privacy/ip.ts';
import { type StoredComponent, type StoredStep, RESPONSE_FORMAT_VERSION, type ResponseAnswer, type ResponseInsight, type ResponseMeta } from '../db/json-columns.ts';
import { applyCounterChanges, counterChangeSql, insightChanges, newInsight, responseMetrics } from '../insights/counters.service.ts';
import { deviceClassOf, type Segment } from '../insights/dimensions.ts';

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
 * `["answers", questionId]`; answers in `language` (one of the form's) are read in the default language's
 * words (`answerInDefaultLanguage`). Passwords are hashed only when every answer is valid, and at most
 * `limits.maxPasswordAnswers` of them: the first one past the limit (in form order) is an error.
 */
export async function prepareAnswers(
  form: Pick<Form, 'steps'>,
  raw: Record<string, unknown>,
  limits: AnswerLimits,
  language?: string,
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
    // PostgreSQL refuses NUL and unpaired surrogates in jsonb, which the summaries cast the answers to: refuse them here, whoever the caller.
    const unsafe = findUnsafeJson(value, MAX_ANSWER_DEPTH, ['answers', questionId]);
    if (unsafe) {
      errors.push(unsafe);
      continue;
    }
    // A choice given in the respondent's language is stored as the default language's (one set of answers across languages).
    const result = validateAnswer(located.component, language === undefined ? value : answerInDefaultLanguage(located.component, value, language));
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

/**
 * Required questions that `data` leaves unanswered on the steps of `path` (every step when not given):
 * what stops a response from finishing. A step off the path asks nothing.
 */
export function missingRequired(form: Pick<Form, 'steps'>, data: readonly ResponseAnswer[], path?: readonly number[]): LocatedComponent[] {
  const answered = new Set(data.map((a) => a.questionId));
  const steps = path ? new Set(path) : undefined;
  return [...componentsOf(form.steps).values()].filter(({ component, stepIndex }) => (!steps || steps.has(stepIndex)) && isRequired(component) && !answered.has(component.id));
}

export interface SubmissionContext {
  ip: string;
  country: string;
  source: NonNullable<ResponseMeta['source']>;
  userAgent?: string | undefined;
  /** The host of the page that referred the respondent ('' or none: direct), for the insights' breakdown. */
  referrer?: string | undefined;
}

export interface SubmitInput {
  form: Form;
  /** The browser session (page) or the resume-token key (API) that owns the response. */
  sessionId: string;
  /** The visitor's lead id (cookie or visitor token), if known; may not exist yet. */
  visitorLeadId?: string | undefined;
  answers: PreparedAnswers;
  /**
   * Asks to finish the response (the JSON API's `finished: true`): its path must have nothing left to
   * answer, and every required question on it must be answered.
   */
  finish: boolean;
  /**
   * The page: the step this post submits (on the path, or its next step), and that the response
   * finishes when its path runs past the last step. Without it (the JSON API) a request submits the
   * steps it answers and, unless it changes an earlier step, the step that was next.
   */
  step?: number | undefined;
  /** Declared hidden field values, kept by a response this submission starts (and ignored otherwise). */
  hiddenFields?: HiddenValues | undefined;
  /** A multilingual form: the language the respondent answers in (one of the form's), kept in `meta.language` by the response it starts. */
  language?: string | undefined;
  context: SubmissionContext;
  /**
   * The session the response moves to with this submission (the embedded page's token rotates at every
   * step): the old session then finds nothing.
   */
  nextSessionId?: string | undefined;
  /** Update only: a missing response is "Response not found" rather than a new one. */
  mustExist?: boolean;
  /**
   * The response as read with the form, unlocked (`findFormAndResponse`), and its row version: an
   * update or finish of a row still at that version is then one statement (`updateSeenResponse`).
   */
  seen?: SeenResponse | undefined;
  /**
   * The session id was just drawn at random (a new resume token): no response can have it yet, so the
   * response is created in one insert, with no lock taken first and no update after.
   */
  newSession?: boolean;
  /**
   * The captcha rule (src/responses/captcha-gate.ts), checked again on the row the transaction locked: a
   * step this submission takes whose enforced captcha is not among `confirmed` refuses it.
   */
  captchas?: CaptchaPasses | undefined;
}

/** The form's enforced captchas (component ids), and those whose token the provider confirmed for this submission. */
export interface CaptchaPasses {
  enforced: ReadonlySet<string>;
  confirmed: ReadonlySet<string>;
}

/** A response row as read, and its version then (PostgreSQL's `xmin`: every update of the row changes it). */
export interface SeenResponse {
  row: ResponseRow;
  version: string;
}

export interface SubmitResult {
  response: ResponseRow;
  created: boolean;
  /** Where the response's path stands now: its next step, if any. */
  walked: WalkedPath;
}

export async function submitAnswers(db: Db, input: SubmitInput): Promise<SubmitResult> {
  const { form, sessionId } = input;
  const components = componentsOf(form.steps);
  checkSchedule(form, new Date());
  // A form whose finished responses are counted goes through the transaction, which counts them.
  const counted = isCounted(form);
  if (!counted && input.newSession && !input.visitorLeadId) return startNewVisitorResponse(db, input, components, new Date());
  if (!counted && input.seen) {
    const updated = await updateSeenResponse(db, input, input.seen, components, new Date());
    if (updated) return updated;
    // Not a plain update of the answers, or the row changed since it was read: the locked transaction decides.
  }
  return db.transaction(async (tx) => {
    const now = new Date();
    if (input.newSession) return createResponse(tx, input, components, now);
    let row = await lockSessionResponse(tx, form.id, sessionId);
    let created = false;
    let counts: { visits: number; completions: number } | undefined;
    if (!row) {
      if (input.mustExist) throw new AppError('NOT_FOUND', 'Response not found');
      const { id: leadId } = await ensureVisitorLead(tx, form.environmentId, input.visitorLeadId);
      const inserted = await insertResponse(tx, newResponseRow(input, leadId, now, { data: [], finished: false, visits: 1, completions: 0, metrics: [] }));
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
    refuseEnded(row);

    // Before any lead or count writes: a response that can't go on or finish rolls back at once.
    const next = await gated(tx, form, row, input, components, progress(form, row, input, components));
    const { data } = next;
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
    if (next.finished) {
      counts = await addLeadFormCounts(tx, leadId, form.id, { completions: 1 });
    }
    const insight = insightOf(form, row, input, next, now);
    const changes: ResponseChanges = {
      sessionId: input.nextSessionId ?? row.sessionId,
      data,
      meta: next.meta,
      insight,
      leadId,
      finished: next.finished,
      updatedAt: now,
      dataUpdatedAt: next.dataChanged ? now : row.dataUpdatedAt,
      visitedForm: counts?.visits ?? row.visitedForm,
      completedForm: counts?.completions ?? row.completedForm,
    };
    // The locked row and the changes are the updated row (no column changes on its own), so its events
    // are sent with the update: pipelined on the transaction's connection, one round trip for both.
    const updated: ResponseRow = { ...row, ...changes };
    await Promise.all([
      updateResponse(tx, row.id, changes),
      recordEvents(tx, responseEvents(form, updated, created, next.finished, now)),
      applyCounterChanges(tx, counterIds(form), insight, insightChanges(row.insight, insight)),
    ]);
    return { response: updated, created, walked: next.walked };
  });
}

/** A finished or invalid response has ended: it takes no more answers. */
function refuseEnded(row: Pick<ResponseRow, 'finished' | 'meta'>): void {
  if (row.finished) throw new AppError('CONFLICT', 'Response is already finished');
  if (isInvalidResponse(row.meta)) throw new AppError('CONFLICT', 'Response is invalid: it has ended and cannot be changed');
}

/** A response after a submission: its answers, metadata (path, hidden fields, invalid) and state. */
interface Progress {
  data: ResponseAnswer[];
  meta: ResponseMeta;
  finished: boolean;
  walked: WalkedPath;
  /** Answers were given or removed (their step fell off the path). */
  dataChanged: boolean;
}

/**
 * What a submission makes of a response (`before`: as stored; undefined for a new one): the answers
 * merged, the path walked again from the first step (src/responses/path.ts), the answers on steps that
 * fell off it removed, and whether that finishes or invalidates the response. Throws BAD_USER_INPUT for
 * answers to a step off the path, a `finish` while the path still has a step to answer, and required
 * questions unanswered on the path of a response that finishes.
 *
 * Which steps count as submitted: those on the recorded path (`meta.path`; a response stored before
 * paths were recorded: every step up to the last it answered on), the steps this request answers, and
 * the page's posted step; a JSON API request that changes no earlier step and does not ask to finish
 * also submits the step that was next (so `{answers: {}}` passes a step without questions; a `finish`
 * submits only what it answers, so it is refused while a step is left). A form without logic keeps the
 * linear rules it always had: every step up to the furthest submitted one counts, and `finish` submits
 * them all.
 */
function progress(
  form: LogicForm,
  before: Pick<ResponseRow, 'data' | 'meta'> | undefined,
  input: Pick<SubmitInput, 'answers' | 'finish' | 'step' | 'hiddenFields' | 'captchas'>,
  components: Map<string, LocatedComponent>,
  quotaFull = before?.meta.quotaFull,
): Progress {
  const { steps } = form;
  const key = logicKeyOf(form);
  const divert = divertOf(form, quotaFull);
  const merged = mergeAnswers(before?.data ?? [], input.answers, components);
  const hidden: HiddenValues = before?.meta.hiddenFields ?? input.hiddenFields ?? {};
  const previous = new Set(previousPath(form, before, components));
  const submitted = new Set<number>();
  for (const questionId of input.answers.keys()) submitted.add(components.get(questionId)!.stepIndex);
  if (input.step !== undefined) submitted.add(input.step);
  else if (!input.finish && ![...submitted].some((step) => previous.has(step))) {
    const wasNext = walkPath(steps, answersById(before?.data ?? []), hidden, (step) => previous.has(step), key, form.variables, divert).next;
    if (wasNext !== null) submitted.add(wasNext);
  }
  const linear = !hasLogic(steps);
  const furthest = Math.max(-1, ...previous, ...submitted);
  const passes = linear ? (step: number) => input.finish || step <= furthest : (step: number) => previous.has(step) || submitted.has(step);
  const walked = walkPath(steps, answersById(merged), hidden, passes, key, form.variables, divert);

  const kept = new Set(walked.path);
  if (walked.next !== null) kept.add(walked.next);
  const errors: FieldError[] = [];
  for (const questionId of input.answers.keys()) {
    if (!kept.has(components.get(questionId)!.stepIndex)) {
      errors.push({ message: "This question is on a step the response's path does not go through", path: ['answers', questionId] });
    }
  }
  if (input.finish && walked.state === 'open') {
    errors.push({ message: `The response cannot finish: its path goes on to step "${pathKeys(steps, [walked.next!])[0]}"`, path: ['finished'] });
  }
  if (input.captchas) errors.push(...unconfirmedCaptchas(steps, stepsTaken(previous, submitted, walked), input.captchas));
  if (errors.length > 0) throw invalidInput(errors);

  // Answers on steps that fell off the path go; answers to questions the form no longer has stay as they were.
  const data = merged.filter((answer) => {
    const located = components.get(answer.questionId);
    return !located || kept.has(located.stepIndex);
  });
  const finished = walked.state === 'completed' || (walked.state === 'end' && (input.finish || input.step !== undefined));
  if (finished) requireAnswered(form, data, walked.path);
  const meta: ResponseMeta = { ...before?.meta, path: pathKeys(steps, walked.path), hiddenFields: { ...hidden } };
  // The version it is answered on: a response moved to the current version (versions.service.ts, versionForResponse) stays there.
  if (typeof form.version === 'number') meta.formVersion = form.version;
  if (walked.state === 'invalid') meta.invalid = true;
  if (form.variables && form.variables.length > 0) meta.variables = walked.variables;
  if (quotaFull !== undefined) meta.quotaFull = quotaFull;
  return { data, meta, finished, walked, dataChanged: input.answers.size > 0 || data.length !== merged.length };
}

/** The steps a submission takes: those it adds to the path (a finish walks through every step left), and those it answers or posts. */
const stepsTaken = (previous: ReadonlySet<number>, submitted: ReadonlySet<number>, walked: WalkedPath): Set<number> =>
  new Set([...walked.path.filter((step) => !previous.has(step)), ...submitted]);

function unconfirmedCaptchas(steps: readonly StoredStep[], taken: ReadonlySet<number>, captchas: CaptchaPasses): FieldError[] {
  return [...taken]
    .sort((a, b) => a - b)
    .flatMap((step) => steps[step]!.components.filter((component) => captchas.enforced.has(component.id) && !captchas.confirmed.has(component.id)))
    .map((component) => ({ message: CAPTCHA_MESSAGES.missing, path: ['answers', component.id] }));
}

/**
 * The steps `input` would take on `before` (undefined: a new response), as the submission will walk them:
 * the ones whose captchas it must pass. A submission its path refuses (it fails anyway) takes the steps it
 * answers or posts.
 */
export function stepsTakenBy(
  form: Form,
  before: Pick<ResponseRow, 'data' | 'meta'> | undefined,
  input: Pick<SubmitInput, 'answers' | 'finish' | 'step' | 'hiddenFields'>,
): number[] {
  const components = componentsOf(form.steps);
  const submitted = new Set<number>([...input.answers.keys()].flatMap((id) => components.get(id)?.stepIndex ?? []));
  if (input.step !== undefined) submitted.add(input.step);
  let walked: WalkedPath;
  try {
    walked = progress(form, before, input, components).walked;
  } catch {
    return [...submitted].sort((a, b) => a - b);
  }
  return [...stepsTaken(new Set(previousPath(form, before, components)), submitted, walked)].sort((a, b) => a - b);
}

/** A form as the walk reads it: its steps, and (a stored form) what identifies its compiled logic. */
type LogicForm = Pick<Form, 'steps'> & Partial<Pick<Form, 'id' | 'version' | 'variables' | 'quotas'>>;

/** The step a full quota sent the response to (`meta.quotaFull`), as an index: where its walk goes instead of finishing. */
function divertOf(form: LogicForm, quotaFull: string | undefined): number | undefined {
  const action = quotaFull === undefined ? undefined : form.quotas?.find((quota) => quota.key === quotaFull)?.action;
  if (typeof action !== 'object') return undefined;
  const index = form.steps.findIndex((step, i) => stepKey(step, i) === action.goTo);
  return index < 0 ? undefined : index;
}

/**
 * A submission's progress as the form's limits and quotas allow it (src/responses/gate.ts): refused when
 * the form is full; a response about to finish counts toward the quotas it meets, or is routed by the first
 * full one (finished, invalid, or sent to its step).
 */
async function gated(
  tx: Db,
  form: Form,
  before: Pick<ResponseRow, 'data' | 'meta'> | undefined,
  input: SubmitInput,
  components: Map<string, LocatedComponent>,
  next: Progress,
): Promise<Progress> {
  if (!isCounted(form)) return next;
  if (next.finished) await lockForFinishing(tx, form.id);
  const counts = await finishedCounts(tx, form);
  const max = form.limits?.maxResponses;
  if (max !== undefined && counts.total >= max) throw notAccepting();
  if (!next.finished || form.quotas.length === 0) return next;
  const { counted, full } = quotaVerdict(form, { answers: answersById(next.data), meta: next.meta, walked: next.walked }, counts);
  if (!full) return { ...next, meta: { ...next.meta, quotas: counted } };
  if (full.action === 'complete') return { ...next, meta: { ...next.meta, quotas: counted, quotaFull: full.key } };
  if (full.action === 'invalid') {
    return { ...next, finished: false, meta: { ...next.meta, invalid: true, quotaFull: full.key }, walked: { ...next.walked, state: 'invalid', next: null } };
  }
  const routed = progress(form, before, { ...input, finish: false }, components, full.key);
  return routed.finished ? { ...routed, meta: { ...routed.meta, quotas: counted } } : routed;
}
const logicKeyOf = (form: LogicForm) => (form.id !== undefined && typeof form.version === 'number' ? formLogicKey({ id: form.id, version: form.version }) : undefined);

const answersById = (data: readonly ResponseAnswer[]) => new Map(data.map((answer) => [answer.questionId, answer.response] as const));

/** The steps a stored response went through: its recorded path, or (stored before paths were) every step up to the last it answered on. */
function previousPath(form: Pick<Form, 'steps'>, before: Pick<ResponseRow, 'data' | 'meta'> | undefined, components: Map<string, LocatedComponent>): number[] {
  if (!before) return [];
  if (Array.isArray(before.meta.path)) return pathIndexes(form.steps, before.meta.path);
  const last = Math.max(-1, ...before.data.map((answer) => components.get(answer.questionId)?.stepIndex ?? -1));
  return Array.from({ length: last + 1 }, (_, step) => step);
}

/** Where a stored response's path stands (its next step), without a submission. */
export function currentPath(form: LogicForm, response: Pick<ResponseRow, 'data' | 'meta' | 'finished'> | undefined): WalkedPath {
  const components = componentsOf(form.steps);
  const previous = new Set(previousPath(form, response, components));
  const walked = walkPath(
    form.steps,
    answersById(response?.data ?? []),
    response?.meta.hiddenFields ?? {},
    (step) => previous.has(step),
    logicKeyOf(form),
    form.variables,
    divertOf(form, response?.meta.quotaFull),
  );
  if (response?.finished) return { ...walked, state: 'completed', next: null };
  if (response && isInvalidResponse(response.meta)) return { ...walked, state: 'invalid', next: null };
  return walked;
}

/** The events of a submission that leaves the response as `row`: created or updated, then finished. */
function responseEvents(form: Form, row: ResponseRow, created: boolean, finished: boolean, now: Date): NewEvent[] {
  const types: WebhookEventType[] = [created ? 'response.created' : 'response.updated', ...(finished ? (['response.finished'] as const) : [])];
  const data = toResponseObject(row, now, Number.POSITIVE_INFINITY);
  // The e-mails go with the change's last event: the mail outbox, in the same statement.
  const notifications = notificationsOf(form, row, { finished, invalid: !finished && isInvalidResponse(row.meta) });
  return types.map((type, index) => ({
    environmentId: form.environmentId,
    type,
    formId: form.id,
    responseId: row.id,
    data,
    at: now,
    ...(index === types.length - 1 && notifications.length > 0 ? { notifications } : {}),
  }));
}

/**
 * A new session's response (`newSession`) of a known visitor: the same outcome as starting one and then
 * updating it, in fewer statements. Its lead is settled first with its counts (the environment's lead
 * with the answered e-mail, else the visitor's), then one insert with the answers.
 */
async function createResponse(tx: Db, input: SubmitInput, components: Map<string, LocatedComponent>, now: Date): Promise<SubmitResult> {
  const { form } = input;
  const next = await gated(tx, form, undefined, input, components, progress(form, undefined, input, components));
  const { data, finished } = next;
  const email = emailOf(data);
  const visitor = await ensureVisitorLead(tx, form.environmentId, input.visitorLeadId);
  const leadId = email ? await leadForEmail(tx, form.environmentId, visitor, email) : visitor.id;
  const counts = await addLeadFormCounts(tx, leadId, form.id, { visits: 1, completions: finished ? 1 : 0 });
  const inserted = await insertResponse(tx, newResponseRow(input, leadId, now, { data, finished, meta: next.meta, ...counts, metrics: metricsOf(form, next, now, now) }));
  // The session was drawn at random just now: no response can have it.
  if (!inserted) throw new Error('a new session already had a response');
  // The outbox and the counters, in the submission's transaction: they commit or roll back with the change.
  await Promise.all([
    recordEvents(tx, responseEvents(form, inserted, true, finished, now)),
    applyCounterChanges(tx, counterIds(form), inserted.insight!, insightChanges(undefined, inserted.insight!)),
  ]);
  return { response: inserted, created: true, walked: next.walked };
}

/**
 * A new visitor's new session (`newSession`, no visitor lead yet: the common first submission) in one
 * statement, which is its own transaction: the lead and its counts (newVisitorCountsCtes), the response
 * with its answers, its events with their deliveries and NOTIFYs commit together or not at all. Two
 * round trips with the form's lookup, where BEGIN, lead, insert, events and COMMIT took six. The lead,
 * counts and stored address are chosen by the statement; the events' payloads get them from its row.
 */
async function startNewVisitorResponse(db: Db, input: SubmitInput, components: Map<string, LocatedComponent>, now: Date): Promise<SubmitResult> {
  const { form } = input;
  const next = progress(form, undefined, input, components);
  const { data, finished } = next;
  const counts = { visits: 1, completions: finished ? 1 : 0 };
  // Lead and stored address are placeholders until the statement has chosen them (`changed` below).
  const { truncatedIp: _candidate, ...fresh } = newResponseRow(input, '', now, { data, finished, meta: next.meta, ...counts, metrics: metricsOf(form, next, now, now) });
  const insight = fresh.insight;
  const row: ResponseRow = { ...fresh, ip: '', version: RESPONSE_FORMAT_VERSION };
  const changes = sql`${newVisitorCountsCtes(form.environmentId, form.id, emailOf(data), counts)},
    changed as (
      insert into ${responses} (id, environment_id, form_id, lead_id, session_id, data, finished, meta, ip, country,
        visited_form, completed_form, version, created_at, updated_at, data_updated_at, insight)
      select ${row.id}::text, ${row.environmentId}::text, ${row.formId}::text, stats.lead_id, ${row.sessionId}::text, ${JSON.stringify(row.data)}::json,
        ${row.finished}::boolean, ${JSON.stringify(row.meta)}::jsonb, ${storedIpOf(row.environmentId, input.context.ip)}, ${row.country}::text,
        stats.visits, stats.completions, ${row.version}::text, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz,
        ${JSON.stringify(insight)}::jsonb
      from stats
      returning lead_id, ip, visited_form, completed_form
    ),
    insight_counts as (${counterChangeSql(counterIds(form), insight, insightChanges(undefined, insight), sql`changed`)})`;
  // What toResponseObject takes from the chosen columns: meta.leadId and personAttributes.
  const dataPatch = sql`jsonb_build_object('meta', ${JSON.stringify(row.meta)}::jsonb || jsonb_build_object('leadId', changed.lead_id),
    'personAttributes', jsonb_build_object('ip', changed.ip, 'country', ${row.country}::text, 'visitedForm', changed.visited_form, 'completedForm', changed.completed_form))`;
  const events = responseEvents(form, row, true, finished, now);
  // No ON CONFLICT on the session: it was drawn at random just now, and a clash fails the whole statement.
  const chosen = await recordEventsOfChange<{ lead_id: string; ip: string; visited_form: number; completed_form: number }>(db, events, { ctes: changes, dataPatch });
  if (!chosen) throw new Error('the new response was not stored');
  const response: ResponseRow = { ...row, leadId: chosen.lead_id, ip: chosen.ip, visitedForm: Number(chosen.visited_form), completedForm: Number(chosen.completed_form) };
  return { response, created: true, walked: next.walked };
}

/**
 * An update of a response as it was read with the form (`seen`, no lock taken), in one statement with its
 * events: the statement writes only if the row is still the version read, else it writes nothing and
 * `undefined` sends the submission through the locked transaction (so does a new e-mail, which may move
 * the lead, and a finish that lacks a required answer, which the newer row may have). A finish locks the
 * row in the statement first, so the lead's completion and the row's counts move together. Two round
 * trips with the form's lookup, where the transaction took five (six for a finish).
 */
async function updateSeenResponse(db: Db, input: SubmitInput, seen: SeenResponse, components: Map<string, LocatedComponent>, now: Date): Promise<SubmitResult | undefined> {
  const { row, version } = seen;
  if (row.finished || isInvalidResponse(row.meta) || row.sessionId !== input.sessionId || input.nextSessionId !== undefined) return undefined;
  let next: Progress;
  try {
    next = progress(input.form, row, input, components);
  } catch {
    // The newer row may answer it differently: the locked transaction decides (and reports).
    return undefined;
  }
  const { data, finished } = next;
  const email = emailOf(data);
  if (email && email !== emailOf(row.data)) return undefined;
  const insight = insightOf(input.form, row, input, next, now);
  const updated: ResponseRow = { ...row, data, meta: next.meta, insight, finished, updatedAt: now, dataUpdatedAt: next.dataChanged ? now : row.dataUpdatedAt };
  const set = sql`data = ${JSON.stringify(data)}::json, meta = ${JSON.stringify(next.meta)}::jsonb, insight = ${JSON.stringify(insight)}::jsonb,
    updated_at = ${now.toISOString()}::timestamptz, data_updated_at = ${updated.dataUpdatedAt.toISOString()}::timestamptz`;
  const unchanged = sql`id = ${row.id}::text and xmin::text = ${version}::text and not finished`;
  const ctes = finished
    ? // FOR UPDATE waits for a concurrent writer and then re-checks the version on the row it committed.
      sql`locked as (select id, lead_id from ${responses} where ${unchanged} for update),
        stats as (${addLeadFormCountsSql(sql`locked`, sql`lead_id`, row.formId, { visits: 0, completions: 1 })}),
        changed as (
          update ${responses} set ${set}, finished = true, visited_form = stats.visits, completed_form = stats.completions
          from locked, stats where ${responses}.id = locked.id
          returning ${responses}.visited_form, ${responses}.completed_form
        )`
    : sql`changed as (update ${responses} set ${set} where ${unchanged} returning visited_form, completed_form)`;
  const counted = insightChanges(row.insight, insight);
  const ctesWithCounts = counted.length > 0 ? sql`${ctes}, insight_counts as (${counterChangeSql(row, insight, counted, sql`changed`)})` : ctes;
  // The counts the statement chose, for the events' payloads (toResponseObject's personAttributes).
  const dataPatch = sql`jsonb_build_object('personAttributes', jsonb_build_object('ip', ${row.ip}::text, 'country', ${row.country}::text,
    'visitedForm', changed.visited_form, 'completedForm', changed.completed_form))`;
  const stored = await recordEventsOfChange<{ visited_form: number; completed_form: number }>(db, responseEvents(input.form, updated, false, finished, now), {
    ctes: ctesWithCounts,
    dataPatch,
  });
  if (!stored) return undefined;
  return { response: { ...updated, visitedForm: Number(stored.visited_form), completedForm: Number(stored.completed_form) }, created: false, walked: next.walked };
}

/** A new response of the session: who, where from, when, with its first answers and counts. */
function newResponseRow(
  input: SubmitInput,
  leadId: string,
  now: Date,
  state: { data: ResponseAnswer[]; finished: boolean; meta?: ResponseMeta; metrics: string[] } & LeadFormCounts,
) {
  const { form, context } = input;
  const meta: ResponseMeta = { source: context.source };
  if (context.userAgent) meta.userAgent = context.userAgent.slice(0, 512);
  // The version it is answered on from now on (the form given is that version: public/context.ts, formForResponse).
  meta.formVersion = form.version;
  if (form.languages) meta.language = input.language ?? form.languages.default;
  // Until the first answers are in: no step gone through yet, the hidden fields the response brings.
  Object.assign(meta, state.meta ?? { path: [], hiddenFields: { ...input.hiddenFields } });
  return {
    id: createId(),
    environmentId: form.environmentId,
    formId: form.id,
    leadId,
    sessionId: input.sessionId,
    data: state.data,
    finished: state.finished,
    meta,
    // The stored address is chosen by the environment's IP storage setting inside the insert.
    ...storedIpValues(context.ip),
    country: context.country,
    visitedForm: state.visits,
    completedForm: state.completions,
    insight: newInsight(now, newSegment(input, meta.hiddenFields ?? {}), state.metrics),
    createdAt: now,
    updatedAt: now,
    dataUpdatedAt: now,
  };
}

/** The segment a new response counts in: its device, the form's language, its referrer and hidden values. */
const newSegment = (input: SubmitInput, hidden: Record<string, string>): Segment => ({
  device: deviceClassOf(input.context.userAgent),
  language: input.form.languages ? (input.language ?? input.form.languages.default) : input.form.locale,
  referrer: input.context.referrer ?? '',
  hidden,
});

const counterIds = (form: Pick<Form, 'id' | 'environmentId'>) => ({ formId: form.id, environmentId: form.environmentId });

/** What a response counts after a submission (`next`), started at `startedAt`. */
const metricsOf = (form: Pick<Form, 'steps'>, next: Progress, startedAt: Date, now: Date) =>
  responseMetrics({
    steps: form.steps,
    path: next.walked.path,
    next: next.walked.next,
    finished: next.finished,
    invalid: next.meta.invalid === true,
    startedAt,
    at: now,
  });

/**
 * A stored response's insight after a submission: its hour and segment as they were (one stored before
 * counting began gets them from its row), what it counts now.
 */
function insightOf(form: Form, row: ResponseRow, input: SubmitInput, next: Progress, now: Date): ResponseInsight {
  const metrics = metricsOf(form, next, row.createdAt, now);
  if (row.insight) return { ...row.insight, metrics };
  const segment: Segment = { device: deviceClassOf(row.meta.userAgent), language: row.meta.language ?? form.locale, referrer: '', hidden: { ...row.meta.hiddenFields } };
  return newInsight(row.createdAt, segment, metrics);
}

/** Inserts a session's response; undefined when the session already has one (a simultaneous submission made it). */
async function insertResponse(db: Db, row: ReturnType<typeof newResponseRow>): Promise<ResponseRow | undefined> {
  const name = 'insert_response';
  const query = preparedQuery(db, name, (handle) =>
    handle
      .insert(responses)
      // Every column a placeholder of the same name, but the stored address (chosen in the statement).
      .values({ ...columnPlaceholders(NEW_RESPONSE_COLUMNS), ip: storedIpSql })
      .onConflictDoNothing({ target: [responses.formId, responses.sessionId] })
      .returning()
      .prepare(name),
  );
  const [inserted] = await query.execute(row);
  return inserted;
}

/** A response finishes only with every required question on its path answered: else 400 naming each. */
function requireAnswered(form: Pick<Form, 'steps'>, data: readonly ResponseAnswer[], path: readonly number[]): void {
  const missing = missingRequired(form, data, path);
  if (missing.length > 0) {
    throw invalidInput(missing.map(({ component }) => ({ message: 'This question must be answered before the response can finish', path: ['answers', component.id] })));
  }
}

/** Answers replace earlier ones with the same questionId; `data` follows the form's question order. */
function mergeAnswers(existing: readonly ResponseAnswer[], answers: PreparedAnswers, components: Map<string, LocatedComponent>): ResponseAnswer[] {
  const byId = new Map(existing.map((a) => [a.questionId, a] as const));
  for (const [questionId, response] of answers) {
    if (response === null) byId.delete(questionId);
    else {
      const key = components.get(questionId)?.component.key;
      byId.set(questionId, key === undefined ? { questionId, response } : { questionId, key, response });
    }
  }
  return [...byId.values()].sort((a, b) => positionIn(components, a.questionId) - positionIn(components, b.questionId));
}

/** The response a session of a form owns, if any; `forUpdate` locks it for the transaction `db`. */
async function sessionResponse(db: Db, formId: string, sessionId: string, forUpdate: boolean): Promise<ResponseRow | undefined> {
  const name = forUpdate ? 'response_of_session_for_update' : 'response_of_session';
  const query = preparedQuery(db, name, (handle) => {
    const select = handle
      .select()
      .from(responses)
      .where(and(eq(responses.formId, sql.placeholder('formId')), eq(responses.sessionId, sql.placeholder('sessionId'))));
    return (forUpdate ? select.for('update') : select).prepare(name);
  });
  const [row] = await query.execute({ formId, sessionId });
  return row;
}

const lockSessionResponse = (db: Db, formId: string, sessionId: string) => sessionResponse(db, formId, sessionId, true);

/** The response a session of a form owns, if any. */
export const findSessionResponse = (db: Db, formId: string, sessionId: string) => sessionResponse(db, formId, sessionId, false);

/** `findSessionResponse` with the row's version, for a submission's `seen` (one statement for a plain update). */
export async function findSeenSessionResponse(db: Db, formId: string, sessionId: string): Promise<SeenResponse | undefined> {
  const name = 'seen_response_of_session';
  const query = preparedQuery(db, name, (handle) =>
    handle
      .select({ row: responses, version: sql<string>`${responses}.xmin::text` })
      .from(responses)
      .where(and(eq(responses.formId, sql.placeholder('formId')), eq(responses.sessionId, sql.placeholder('sessionId'))))
      .prepare(name),
  );
  const [found] = await query.execute({ formId, sessionId });
  return found;
}

/** Every column a submission may change. */
const CHANGED_COLUMNS = ['sessionId', 'data', 'meta', 'insight', 'leadId', 'finished', 'updatedAt', 'dataUpdatedAt', 'visitedForm', 'completedForm'] as const;
type ResponseChanges = Pick<ResponseRow, (typeof CHANGED_COLUMNS)[number]>;

/** The columns a new response is inserted with (its `ip` is chosen by the statement: storedIpSql). */
const NEW_RESPONSE_COLUMNS = [
  'id',
  'environmentId',
  'formId',
  'leadId',
  'sessionId',
  'data',
  'finished',
  'meta',
  'country',
  'visitedForm',
  'completedForm',
  'insight',
  'createdAt',
  'updatedAt',
  'dataUpdatedAt',
] as const;

/**
 * Each column as a placeholder of its name, where drizzle's types want the column's value: at run time
 * drizzle binds it as a value of that column (with the column's encoder: JSON, timestamps), which
 * `values()` and `set()` do not type.
 */
const columnPlaceholders = <K extends string>(columns: readonly K[]) => Object.fromEntries(columns.map((column) => [column, sql.placeholder(column)])) as Record<K, never>;

function updateResponse(db: Db, id: string, changes: ResponseChanges) {
  const name = 'update_response';
  const query = preparedQuery(db, name, (handle) =>
    handle
      .update(responses)
      .set(columnPlaceholders(CHANGED_COLUMNS))
      .where(eq(responses.id, sql.placeholder('id')))
      .prepare(name),
  );
  return query.execute({ id, ...changes });
}

/**
 * A form (not deleted) and its response `responseId` as it is now, unlocked, with the row's version
 * (undefined when the form has no such response), in one statement: what an update of a response checks
 * first, and what `seen` takes.
 */
export async function findFormAndResponse(db: Db, formId: string, responseId: string): Promise<{ form: Form; response: SeenResponse | undefined } | undefined> {
  const name = 'form_and_response';
  const query = preparedQuery(db, name, (handle) =>
    handle
      .select({ form: { ...getTableColumns(forms), steps: stepsText }, response: seenResponse, version: sql<string | null>`${seenResponse}.xmin::text` })
      .from(forms)
      .leftJoin(seenResponse, and(eq(seenResponse.formId, forms.id), eq(seenResponse.id, sql.placeholder('responseId'))))
      .where(and(eq(forms.id, sql.placeholder('formId')), isNull(forms.deletedAt)))
      .prepare(name),
  );
  const [found] = await query.execute({ formId, responseId });
  if (!found) return undefined;
  const form = { ...found.form, steps: stepsOf(found.form.id, found.form.version, found.form.steps) };
  return { form, response: found.response && found.version !== null ? { row: found.response, version: found.version } : undefined };
}

const seenResponse = alias(responses, 'seen_response');
