/** Forms: import templates, generate published forms from them, update their definitions, read and soft-delete. */
import { and, eq, getTableColumns, ilike, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';
import { preparedQuery } from '../db/prepared.ts';
import { forms, type FormDefinition, type FormStatus } from '../db/schema.ts';
import { AppError, invalidInput, notFound, versionChanged } from '../errors.ts';
import { recordAudit, type Actor } from '../audit/audit.service.ts';
import { recordEvent } from '../events/outbox.ts';
import { checkNotifications } from '../notifications/settings.ts';
import { claimIdempotencyKey, requestHash, storeIdempotentResult } from '../idempotency/idempotency.service.ts';
import { createId } from '../ids.ts';
import { afterPosition, microsOf, newestFirst, pageOf, pagesPerParent, type KeysetPosition, type Page } from '../keyset.ts';
import { stepsIn, type GenerateFormInput, type StepDraft, type UpdateFormInput } from './components.ts';
import type { FieldError } from '../errors.ts';
import { inheritTheme } from './theme.ts';
import type { FormLanguages, FormLimits, FormVariable, StoredComponent, StoredStep, TextTranslations, Theme } from '../db/json-columns.ts';
import type { Content } from '../components/content.ts';
import { DEFAULT_LOCALE, languageOf } from '../i18n/locales.ts';
import {
  checkTextLanguages,
  defaultLanguageOf,
  languagesOf,
  rekeyTexts,
  resolveContent,
  resolveText,
  textFieldsOf,
  textsAt,
  translationDocumentProblems,
  withTranslation,
  type TextObject,
} from './translations.ts';
import { idsInVersions, recordVersion, versionDefinitions, type KnownId } from './versions.service.ts';
import { checkFormLogic, stepKey } from './logic.ts';
import { stepsOf, stepsText } from './definition-cache.ts';
import { checkQuotas, rekeyLimits, resolveLimits } from './limits.ts';
import { checkRecall } from './recall.ts';

export type Form = typeof forms.$inferSelect;

export const formUrl = (id: string) => `/s/${id}`;

/**
 * How a step or component gets its id: `given` is the id the request named (an update's), `path` where,
 * `what` the step or the component's type. Generate and import: always a new one.
 */
type IdFor = (given: string | undefined, path: (string | number)[], what: KnownId) => string;
const newId: IdFor = () => createId();

/** What a stored step or component had before an update (its texts are kept where its default text is unchanged). */
type Previous = ReadonlyMap<string, StoredStep | StoredComponent>;

/**
 * Gives every step and component its stable id (`idFor`: a new one, unless an update keeps one), every
 * step its key (its own or the default: `stepKey`), and resolves the texts given per language: the default
 * language's in place, the others as `texts` (src/forms/translations.ts). An update keeps a kept id's
 * translations of a text whose default-language text did not change (`previous`).
 */
function withIds(steps: StepDraft[], language: string, idFor: IdFor = newId, previous: Previous = new Map()): StoredStep[] {
  return steps.map((step, s) => {
    const name = resolveText(step.name, language);
    const id = idFor(step.id, ['steps', s, 'id'], { kind: 'step' });
    const before = previous.get(id) as StoredStep | undefined;
    const stored: StoredStep = {
      id,
      key: stepKey(step, s),
      name: name.text,
      components: step.components.map((component, c) => {
        const componentId = idFor(component.id, ['steps', s, 'components', c, 'id'], { kind: 'component', type: component.type });
        const resolved = resolveContent(component.content, component.type, language);
        const kept = keptTexts(previous.get(componentId) as StoredComponent | undefined, resolved.content);
        const texts = { ...kept, ...resolved.texts };
        return {
          id: componentId,
          ...(component.key === undefined ? {} : { key: component.key }),
          type: component.type,
          content: resolved.content,
          ...(Object.keys(texts).length > 0 ? { texts } : {}),
        };
      }),
    };
    const nameTexts = name.others ?? (before && before.name === name.text ? before.texts?.name : undefined);
    if (nameTexts) stored.texts = { name: nameTexts };
    if (step.completion === true) stored.completion = true;
    if (step.invalid === true) stored.invalid = true;
    if (step.logic && (step.logic.rules.length > 0 || step.logic.next !== undefined)) stored.logic = step.logic;
    return stored;
  });
}

/** The translations of a component before an update whose default-language texts are still the same in `content`. */
function keptTexts(before: StoredComponent | undefined, content: Content): TextTranslations {
  if (!before?.texts) return {};
  const now = new Map(textsAt(content, textFieldsOf(before.type)).map(({ path, value }) => [path.join('.'), value]));
  const kept = textsAt(before.content, textFieldsOf(before.type)).filter(({ path, value }) => before.texts![path.join('.')] && now.get(path.join('.')) === value);
  return Object.fromEntries(kept.map(({ path }) => [path.join('.'), before.texts![path.join('.')]!]));
}

/** The form's own texts given per language (its name), for the `texts` column. */
const formTextsOf = (name: string | TextObject, language: string): { name: string; texts: TextTranslations | null } => {
  const resolved = resolveText(name, language);
  return { name: resolved.text, texts: resolved.others ? { name: resolved.others } : null };
};

/** The default language of a new form: its `languages`', else its locale's. */
const newFormLanguage = (input: { languages?: FormLanguages | null | undefined; locale?: string | null | undefined }) =>
  input.languages?.default ?? languageOf(input.locale ?? DEFAULT_LOCALE);

export interface ImportFormInput {
  environmentId: string;
  name: string | TextObject;
  theme: Theme;
  steps: StepDraft[];
  hiddenFields?: string[] | undefined;
  variables?: FormVariable[] | undefined;
  status?: FormStatus | undefined;
  /** Canonical (src/i18n/locales.ts); default English (a multilingual form: its default language). */
  locale?: string | null | undefined;
  /** Who hears of its responses (docs/notifications.md); left out: nobody. */
  notifications?: Form['notifications'] | undefined;
  languages?: FormLanguages | null | undefined;
}

/** Stores a form as given (how template forms get into an environment), at version 1. */
export async function importForm(db: Db, input: ImportFormInput): Promise<Form> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(forms)
      .values({
        id: createId(),
        environmentId: input.environmentId,
        ...formTextsOf(input.name, newFormLanguage(input)),
        status: input.status ?? 'published',
        theme: input.theme,
        steps: withIds(input.steps, newFormLanguage(input)),
        hiddenFields: input.hiddenFields ?? [],
        variables: input.variables ?? [],
        locale: input.locale ?? input.languages?.default ?? DEFAULT_LOCALE,
        languages: input.languages ?? null,
        notifications: input.notifications ?? null,
      })
      .returning();
    await recordVersion(tx, row!);
    return row!;
  });
}

/** A live (not deleted) form of the environment, or undefined. Other environments' forms are invisible. */
export async function findForm(db: Db, environmentId: string, id: string): Promise<Form | undefined> {
  const query = preparedQuery(db, 'form_in_environment', (handle) =>
    handle
      .select()
      .from(forms)
      .where(and(eq(forms.id, sql.placeholder('id')), eq(forms.environmentId, sql.placeholder('environmentId')), isNull(forms.deletedAt)))
      .prepare('form_in_environment'),
  );
  const [row] = await query.execute({ id, environmentId });
  return row;
}

/** A live form by id alone, for callers that check the environment themselves (the admin, public pages). */
export async function findFormById(db: Db, id: string): Promise<Form | undefined> {
  const query = preparedQuery(db, 'form_by_id', (handle) =>
    handle
      .select({ ...getTableColumns(forms), steps: stepsText })
      .from(forms)
      .where(and(eq(forms.id, sql.placeholder('id')), isNull(forms.deletedAt)))
      .prepare('form_by_id'),
  );
  const [row] = await query.execute({ id });
  return row && { ...row, steps: stepsOf(row.id, row.version, row.steps) };
}

/**
 * Creates a published form in `environmentId` from the template `sourceFormId` of the same
 * environment, inheriting its theme, and records its form.generated event in the same transaction.
 */
export async function generateForm(db: Db, environmentId: string, input: GenerateFormInput): Promise<Form> {
  const source = await findForm(db, environmentId, input.sourceFormId);
  if (!source) throw notFound('Source form not found');
  const language = newFormLanguage(input);
  const steps = withIds(input.steps, language);
  const usedTypes = new Set(steps.flatMap((step) => step.components.map((component) => component.type)));
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(forms)
      .values({
        id: createId(),
        environmentId,
        ...formTextsOf(input.name, language),
        status: 'published',
        theme: inheritTheme(source.theme, usedTypes),
        steps,
        hiddenFields: input.hiddenFields ?? [],
        variables: input.variables ?? [],
        sourceFormId: source.id,
        locale: input.locale ?? input.languages?.default ?? DEFAULT_LOCALE,
        languages: input.languages ?? null,
        notifications: input.notifications ?? null,
        limits: resolveLimits(input.limits, language),
        quotas: input.quotas ?? [],
        allowAnotherResponse: input.allowAnotherResponse ?? false,
      })
      .returning();
    const form = row!;
    await recordVersion(tx, form);
    // The outbox, in the form's transaction (events/outbox.ts).
    await recordEvent(tx, { environmentId, type: 'form.generated', formId: form.id, data: generatedFormObject(form), at: form.createdAt });
    return form;
  });
}

/** The `data` of a form.generated event. */
function generatedFormObject(form: Form) {
  return {
    id: form.id,
    url: formUrl(form.id),
    name: form.name,
    status: form.status,
    sourceFormId: form.sourceFormId,
    environmentId: form.environmentId,
    createdAt: form.createdAt.toISOString(),
  };
}

/**
 * generateForm under an Idempotency-Key (scoped to the environment): the first request creates the
 * form; a repeat within 24 h with the same input gets that form again (`replayed`), even if it was
 * deleted since; the same key with another input is UNPROCESSABLE. The key is claimed in the
 * transaction that creates the form, so concurrent repeats wait for the first and create nothing.
 */
export async function generateFormIdempotently(db: Db, environmentId: string, input: GenerateFormInput, key: string): Promise<{ form: Form; replayed: boolean }> {
  const scope = `env:${environmentId}:generateForm`;
  const hash = requestHash({ environmentId, input });
  return db.transaction(async (tx) => {
    const claim = await claimIdempotencyKey(tx, scope, key, hash);
    if (claim.state === 'repeat') {
      const formId = claim.result?.formId;
      const [form] = typeof formId === 'string' ? await tx.select().from(forms).where(eq(forms.id, formId)) : [];
      if (!form) throw new AppError('CONFLICT', 'A request with this Idempotency-Key is in progress; retry it');
      return { form, replayed: true };
    }
    const form = await generateForm(tx, environmentId, input);
    await storeIdempotentResult(tx, scope, key, { formId: form.id });
    return { form, replayed: false };
  });
}

// ---------------------------------------------------------------- updates

export interface UpdateFormOptions {
  /** The version the caller changes (If-Match, `expectedVersion`): another one current is PRECONDITION_FAILED. */
  expectedVersion?: number | undefined;
  /** Who updates, for the audit log. */
  actor: Actor;
  /** Versions a form may have (FORM_MAX_VERSIONS): an update beyond it is CONFLICT. Absent or 0: unlimited. */
  maxVersions?: number | undefined;
}

/** A form after an update, and the version that update made (a replay's, even if newer ones followed). */
export interface UpdatedForm {
  form: Form;
  version: number;
  replayed: boolean;
}

/**
 * Changes the definition fields `input` gives (name, steps, hidden fields; the others stay) of a live
 * form of `environmentId`: a new version, one more than the current, with its snapshot, a form.updated
 * event and an audit entry, all in one transaction. The id, url, status and theme stay: a closed form
 * stays closed. With `expectedVersion`, another current version is PRECONDITION_FAILED.
 *
 * Concurrent updates queue on the form's row (`FOR UPDATE`): each applies its fields to what the one
 * before it committed and gets the next version number, so none is lost and no number is taken twice.
 */
export async function updateForm(db: Db, environmentId: string, id: string, input: UpdateFormInput, options: UpdateFormOptions): Promise<UpdatedForm> {
  return changeDefinition(db, environmentId, id, options, async (tx, current) => {
    const { changes, problems } = await definitionChanges(tx, current, input);
    if (problems.length > 0) throw invalidInput(problems);
    return changes;
  });
}

/**
 * Replaces one language's texts of a live form with a translation document (`{<stable path>: text}`,
 * src/forms/translations.ts): a new version like any update (If-Match, the event, the audit entry). The
 * language must be one of the form's others; unknown paths and placeholders that differ are BAD_USER_INPUT.
 */
export async function saveTranslation(db: Db, environmentId: string, id: string, locale: string, document: unknown, options: UpdateFormOptions): Promise<UpdatedForm> {
  return changeDefinition(db, environmentId, id, options, (_tx, current) => {
    const others = languagesOf(current).slice(1);
    if (!others.includes(locale)) {
      const message =
        others.length === 0
          ? 'This form has one language: give it `languages` to translate it'
          : `Not one of the form's other languages (${others.join(', ')}); the default language's texts are changed by updating the form`;
      throw invalidInput([{ path: ['locale'], message }], 'Invalid path parameters');
    }
    const problems = translationDocumentProblems(current, document);
    if (problems.length > 0) throw invalidInput(problems);
    return Promise.resolve(withTranslation(current, locale, document as Record<string, string>));
  });
}

/**
 * A new version of a live form's definition: `change` reads the current row (locked: concurrent changes
 * queue, each on what the one before committed) and says what changes; the version, its snapshot, the
 * form.updated event and the audit entry are written in the same transaction.
 */
async function changeDefinition(
  db: Db,
  environmentId: string,
  id: string,
  options: UpdateFormOptions,
  change: (tx: Db, current: Form) => Promise<DefinitionChanges>,
): Promise<UpdatedForm> {
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(forms)
      .where(and(eq(forms.id, id), eq(forms.environmentId, environmentId), isNull(forms.deletedAt)))
      .for('update');
    if (!current) throw notFound('Form not found');
    if (options.expectedVersion !== undefined && options.expectedVersion !== current.version) throw versionChanged(current.version);
    if (options.maxVersions && current.version >= options.maxVersions) throw tooManyVersions(current.version);
    const changes = await change(tx, current);
    // Later than anything before it, whatever the clock did: versions are listed by time (versionPages).
    const now = new Date(Math.max(Date.now(), current.updatedAt.getTime() + 1));
    const [row] = await tx
      .update(forms)
      .set({ ...changes, version: current.version + 1, updatedAt: now })
      .where(eq(forms.id, current.id))
      .returning();
    const form = row!;
    // Pipelined on the transaction's connection: one round trip for the three.
    await Promise.all([
      recordVersion(tx, form),
      recordEvent(tx, { environmentId, type: 'form.updated', formId: form.id, data: updatedFormObject(form), at: now }),
      recordAudit(tx, { environmentId, actor: options.actor, action: 'form.update', targetIds: [form.id], details: { version: form.version } }),
    ]);
    return { form, version: form.version, replayed: false };
  });
}

type DefinitionChanges = Partial<FormDefinition> & Pick<Partial<Form>, 'notifications' | 'limits' | 'quotas' | 'allowAnotherResponse'>;

/**
 * What an update changes, and what is wrong with it: the fields it gives; the texts resolved in the
 * form's languages as they will be (a language dropped takes its translations with it; a new default
 * language needs the steps and name written in it); the logic and notifications checked across the
 * definition as it will be.
 */
async function definitionChanges(tx: Db, current: Form, input: UpdateFormInput): Promise<{ changes: DefinitionChanges; problems: FieldError[] }> {
  const problems: FieldError[] = [];
  const report = (path: readonly (string | number)[], message: string) => problems.push({ path: [...path], message });
  const changes: DefinitionChanges = {};
  if (input.hiddenFields !== undefined) changes.hiddenFields = input.hiddenFields;
  if (input.notifications !== undefined) changes.notifications = input.notifications ?? null;
  if (input.variables !== undefined) changes.variables = input.variables;
  if (input.quotas !== undefined) changes.quotas = input.quotas ?? [];
  if (input.allowAnotherResponse !== undefined) changes.allowAnotherResponse = input.allowAnotherResponse ?? false;
  const languages = input.languages === undefined ? current.languages : input.languages;
  if (input.languages !== undefined) changes.languages = input.languages;
  if (input.locale !== undefined || input.languages !== undefined) changes.locale = updatedLocale(current, input.locale, languages);
  const next = { languages, locale: changes.locale ?? current.locale };
  const language = defaultLanguageOf(next);
  const sameDefault = language === defaultLanguageOf(current);
  // A one-language form's texts are shown as written whatever its locale; a multilingual one's are in its default language.
  const partial = input.steps === undefined || input.name === undefined;
  if (!sameDefault && !current.languages && languages && partial) {
    report(input.languages ? ['languages', 'default'] : ['locale'], `A new default language (${language}) takes the name and steps written in it: give name and steps too`);
  }
  // A multilingual form's new default language: the texts not given are re-keyed to it, each needing its text in it.
  if (!sameDefault && current.languages && partial) Object.assign(changes, rekeyed(current, language, input, report));
  if (!sameDefault && current.languages && current.limits && input.limits === undefined)
    changes.limits = rekeyedLimits(current.limits, defaultLanguageOf(current), language, report);
  checkTextLanguages({ name: input.name, steps: input.steps, limits: input.limits }, languagesOf(next), report);
  if (input.limits !== undefined) changes.limits = resolveLimits(input.limits, language, sameDefault ? current.limits : null);
  if (input.name !== undefined) {
    const resolved = formTextsOf(input.name, language);
    changes.name = resolved.name;
    changes.texts = resolved.texts ?? (sameDefault && resolved.name === current.name ? current.texts : null);
  }
  if (input.steps !== undefined) changes.steps = await keepingIds(tx, current, input.steps, language, sameDefault);
  const kept = languagesOf(next);
  changes.steps = onlyLanguages(changes.steps ?? current.steps, kept);
  changes.texts = onlyTextLanguages(changes.texts === undefined ? current.texts : changes.texts, kept) ?? null;
  const limits = changes.limits === undefined ? current.limits : changes.limits;
  if (limits?.texts) changes.limits = { ...limits, texts: onlyTextLanguages(limits.texts, kept) };
  // The logic's references across the definition as it will be: the steps and hidden fields given (as
  // given: without the default keys the stored steps get), or kept.
  const steps = input.steps === undefined ? (changes.steps ?? current.steps) : (stepsIn(input.steps, language) as StepDraft[]);
  const hiddenFields = changes.hiddenFields ?? current.hiddenFields;
  const variables = changes.variables ?? current.variables;
  const notifications = changes.notifications === undefined ? current.notifications : changes.notifications;
  checkFormLogic({ steps, hiddenFields, variables }, report);
  checkQuotas({ steps, hiddenFields, variables, quotas: changes.quotas ?? current.quotas }, report);
  checkRecall({ steps, hiddenFields, variables, notifications }, report);
  // The confirmation's address must still be a question of the form as it will be.
  checkNotifications({ steps, notifications }, report);
  return { changes, problems };
}

/**
 * The name and steps an update does not give, re-keyed to a new default language (translations.ts,
 * `rekeyTexts`): a text without one in it is reported at its path, with its stable path.
 */
function rekeyed(current: Form, language: string, input: UpdateFormInput, report: (path: readonly (string | number)[], message: string) => void): DefinitionChanges {
  const result = rekeyTexts(current, language);
  // Only the texts of what is not given need one in the new language.
  const missing = result.missing.filter(({ path }) => (path[0] === 'name' ? input.name === undefined : input.steps === undefined));
  for (const { path, stablePath } of missing) {
    report(path, `No text in ${language}, the new default language (${stablePath}): translate it first (the translation API) or give name and steps written in it`);
  }
  if (missing.length > 0) return {};
  return { ...(input.name === undefined ? { name: result.name, texts: result.texts } : {}), ...(input.steps === undefined ? { steps: result.steps } : {}) };
}

/** The limits' messages re-keyed to a new default language (rekeyLimits), each one without a text in it reported at its path. */
function rekeyedLimits(limits: FormLimits, from: string, to: string, report: (path: readonly (string | number)[], message: string) => void): FormLimits {
  const result = rekeyLimits(limits, from, to);
  for (const key of result.missing)
    report(['limits', key], `No text in ${to}, the new default language (limits.${key}): translate it first (the translation API) or give limits written in it`);
  return result.limits;
}

/** The locale after an update: the one given, else the current one while it speaks the default language, else the default language. */
function updatedLocale(current: Form, given: string | null | undefined, languages: FormLanguages | null): string {
  if (given) return given;
  if (!languages) return given === null ? DEFAULT_LOCALE : current.locale;
  return given === undefined && languageOf(current.locale) === languages.default ? current.locale : languages.default;
}

/** Translations in `languages` only. */
function onlyTextLanguages(texts: TextTranslations | null | undefined, languages: readonly string[]): TextTranslations | undefined {
  if (!texts) return undefined;
  const entries = Object.entries(texts)
    .map(([path, byLocale]) => [path, Object.fromEntries(Object.entries(byLocale).filter(([locale]) => languages.includes(locale)))] as const)
    .filter(([, byLocale]) => Object.keys(byLocale).length > 0);
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

function onlyLanguages(steps: StoredStep[], languages: readonly string[]): StoredStep[] {
  const strip = <T extends { texts?: TextTranslations }>(item: T): T => {
    const { texts, ...rest } = item;
    const kept = onlyTextLanguages(texts, languages);
    return (kept ? { ...rest, texts: kept } : rest) as T;
  };
  return steps.map((step) => strip({ ...step, components: step.components.map(strip) }));
}

/** Versions are never removed (responses and exports read them): a form that has the most may change no more. */
const tooManyVersions = (versions: number) =>
  new AppError('CONFLICT', `Form has ${versions} versions, the most a form may have: it can no longer be changed; generate a new form from it instead`);

/** The `data` of a form.updated event. */
export function updatedFormObject(form: Form) {
  return {
    id: form.id,
    url: formUrl(form.id),
    name: form.name,
    status: form.status,
    version: form.version,
    environmentId: form.environmentId,
    updatedAt: form.updatedAt.toISOString(),
  };
}

/**
 * The steps of an update as stored: a step or component that names an `id` keeps it (answers to it keep
 * their questionId across versions), one without gets a new id. An id must be a step's (or a
 * component's of the same type) in some version of this form, and be given once: else BAD_USER_INPUT at
 * that `id`, every problem at once.
 */
async function keepingIds(tx: Db, form: Form, steps: StepDraft[], language: string, keepTexts: boolean): Promise<StoredStep[]> {
  const known = new Map<string, KnownId>();
  const previous = new Map<string, StoredStep | StoredComponent>();
  if (keepTexts) for (const step of form.steps) for (const item of [step, ...step.components]) previous.set(item.id, item);
  for (const step of form.steps) {
    known.set(step.id, { kind: 'step' });
    for (const component of step.components) known.set(component.id, { kind: 'component', type: component.type });
  }
  const given = steps.flatMap((step) => [step.id, ...step.components.map((component) => component.id)]).filter((id): id is string => id !== undefined);
  // Ids of earlier versions only (a step or component brought back) are looked up in their snapshots.
  for (const [id, what] of await idsInVersions(tx, form.id, [...new Set(given.filter((id) => !known.has(id)))])) known.set(id, what);

  const errors: FieldError[] = [];
  const seen = new Set<string>();
  const keep: IdFor = (id, path, wanted) => {
    if (id === undefined) return createId();
    const what = known.get(id);
    if (seen.has(id)) errors.push({ message: 'This id is given twice', path });
    else if (!what || what.kind !== wanted.kind) errors.push({ message: `No ${wanted.kind} with this id in this form; leave out id for a new ${wanted.kind}`, path });
    else if (what.kind === 'component' && wanted.kind === 'component' && what.type !== wanted.type) {
      errors.push({ message: `Component ${id} is a ${what.type}; a component keeps its type (leave out id for a new component)`, path });
    }
    seen.add(id);
    return id;
  };
  const stored = withIds(steps, language, keep, previous);
  if (errors.length > 0) throw invalidInput(errors);
  return stored;
}

/**
 * updateForm under an Idempotency-Key (scoped to the environment), as generateFormIdempotently: a repeat
 * within 24 h of the same update (form, fields, expected version) answers with the version it made,
 * without changing anything again; the same key with another update is UNPROCESSABLE.
 */
export async function updateFormIdempotently(db: Db, environmentId: string, id: string, input: UpdateFormInput, options: UpdateFormOptions, key: string): Promise<UpdatedForm> {
  const scope = `env:${environmentId}:updateForm`;
  const hash = requestHash({ id, input, expectedVersion: options.expectedVersion ?? null });
  return db.transaction(async (tx) => {
    const claim = await claimIdempotencyKey(tx, scope, key, hash);
    if (claim.state === 'repeat') {
      const version = claim.result?.version;
      const [form] =
        typeof version === 'number'
          ? await tx
              .select()
              .from(forms)
              .where(and(eq(forms.id, id), eq(forms.environmentId, environmentId)))
          : [];
      if (!form || typeof version !== 'number') throw new AppError('CONFLICT', 'A request with this Idempotency-Key is in progress; retry it');
      return { form, version, replayed: true };
    }
    const updated = await updateForm(tx, environmentId, id, input, options);
    await storeIdempotentResult(tx, scope, key, { formId: id, version: updated.version });
    return updated;
  });
}

export async function deleteForm(db: Db, environmentId: string, id: string): Promise<Form> {
  const [row] = await db
    .update(forms)
    .set({ deletedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(forms.id, id), eq(forms.environmentId, environmentId), isNull(forms.deletedAt)))
    .returning();
  if (!row) throw notFound('Form not found');
  return row;
}

// ---------------------------------------------------------------- the graph: lookups and listings

/**
 * A form as the graph's listings and lookups by id read it: without its steps, the one column that grows
 * with the definition (a form's steps may be a megabyte). A field that needs them reads them with
 * `formStepsAt`, batched; a form a mutation answers with carries them already.
 */
export type FormHead = Omit<Form, 'steps'> & { steps?: StoredStep[] | undefined };

export type ListedForm = FormHead & { position: string };

const { steps: _steps, ...headColumns } = getTableColumns(forms);
const formColumns = { ...headColumns, position: microsOf(forms.createdAt).as('position') };

/**
 * Live forms by id, in one statement, without their steps; each a form of `scope` (null: any environment)
 * and, with `only` (a key's form limit), one of those, else missing.
 */
export async function loadForms(db: Db, scope: string | null, ids: readonly string[], only: readonly string[] | null = null): Promise<(FormHead | null)[]> {
  const wanted = only === null ? ids : ids.filter((id) => only.includes(id));
  if (wanted.length === 0) return ids.map(() => null);
  const rows = await db
    .select(headColumns)
    .from(forms)
    .where(and(inArray(forms.id, [...wanted]), isNull(forms.deletedAt), scope === null ? undefined : eq(forms.environmentId, scope)));
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id) ?? null);
}

/**
 * The steps of each of `wanted` (forms the caller has found in its scope) at the version it was read at,
 * in its order: one statement (the forms' current steps, parsed once per version: stepsOf), and one more
 * only for a form updated since it was read (that version's snapshot).
 */
export async function formStepsAt(db: Db, wanted: readonly { id: string; version: number }[]): Promise<StoredStep[][]> {
  if (wanted.length === 0) return [];
  const rows = await db
    .select({ id: forms.id, version: forms.version, steps: stepsText })
    .from(forms)
    .where(inArray(forms.id, [...new Set(wanted.map((form) => form.id))]));
  const current = new Map(rows.map((row) => [`${row.id}@${row.version}`, row]));
  const steps = wanted.map((form) => {
    const row = current.get(`${form.id}@${form.version}`);
    return row && stepsOf(row.id, row.version, row.steps);
  });
  const stale = wanted.filter((_, i) => steps[i] === undefined);
  const snapshots = await versionDefinitions(
    db,
    stale.map((form) => ({ formId: form.id, version: form.version })),
  );
  const older = new Map(stale.map((form, i) => [`${form.id}@${form.version}`, snapshots[i]?.steps ?? []]));
  return wanted.map((form, i) => steps[i] ?? older.get(`${form.id}@${form.version}`)!);
}

export interface FormListFilter {
  status?: FormStatus | undefined;
  /** Case-insensitive substring of the name. */
  nameContains?: string | undefined;
  /** Only these forms (a key's form limit). */
  ids?: readonly string[] | undefined;
}

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

function formFilterConditions(filter: FormListFilter, after: KeysetPosition | undefined): (SQL | undefined)[] {
  return [
    isNull(forms.deletedAt),
    filter.status === undefined ? undefined : eq(forms.status, filter.status),
    filter.nameContains === undefined ? undefined : ilike(forms.name, likePattern(filter.nameContains)),
    filter.ids === undefined ? undefined : inArray(forms.id, [...filter.ids, '']),
    afterPosition(forms.createdAt, forms.id, after),
  ];
}

/** An environment's live forms, newest first, one keyset page (the forms_environment_created_idx order). */
export async function listForms(db: Db, input: { environmentId: string; filter: FormListFilter; after?: KeysetPosition | undefined; limit: number }): Promise<Page<ListedForm>> {
  const rows = await db
    .select(formColumns)
    .from(forms)
    .where(and(eq(forms.environmentId, input.environmentId), ...formFilterConditions(input.filter, input.after)))
    .orderBy(...newestFirst(forms.createdAt, forms.id))
    .limit(input.limit + 1);
  return pageOf(rows, input.limit);
}

/**
 * The live forms generated from each of `sourceIds` (of the same environment), newest first: one page
 * per source in one statement (a lateral index scan per source), in the order of `sourceIds`.
 */
export async function generatedFormPages(
  db: Db,
  sourceIds: readonly string[],
  input: { filter: FormListFilter; after?: KeysetPosition | undefined; limit: number },
): Promise<Page<ListedForm>[]> {
  const source = alias(forms, 'source');
  return pagesPerParent<ListedForm>(
    db,
    { table: source, id: source.id },
    {
      table: forms,
      columns: formColumns,
      createdAt: forms.createdAt,
      id: forms.id,
      where: and(eq(forms.sourceFormId, source.id), eq(forms.environmentId, source.environmentId), ...formFilterConditions(input.filter, input.after)),
    },
    sourceIds,
    input.limit,
  );
}

/**
 * Closing and reopening. published → closed (closeForm), closed → published (reopenForm); asking for
 * the state a form is already in changes nothing. A draft can be neither closed nor reopened (CONFLICT).
 */
export async function setFormStatus(db: Db, environmentId: string, id: string, target: 'closed' | 'published'): Promise<Form> {
  const from = target === 'closed' ? 'published' : 'closed';
  const [row] = await db
    .update(forms)
    .set({ status: target, updatedAt: new Date() })
    .where(and(eq(forms.id, id), eq(forms.environmentId, environmentId), isNull(forms.deletedAt), eq(forms.status, from)))
    .returning();
  if (row) return row;
  const existing = await findForm(db, environmentId, id);
  if (!existing) throw notFound('Form not found');
  if (existing.status === target) return existing;
  throw new AppError('CONFLICT', `A ${existing.status} form cannot be ${target === 'closed' ? 'closed' : 'reopened'}`);
}
