/**
 * Multilingual forms. A form may declare `languages` (a default and others); every text a respondent
 * reads (the form's name, step names, and the content fields each component module lists as its `texts`)
 * may then be given as one string (the default language) or as a text object `{"en": "…", "de": "…"}`.
 *
 * Stored, the default language's text stands where it always did (so answers, summaries, conditions and
 * exports read one language), and the others go beside it: a step's or component's `texts` (its content
 * path → locale → text) and the form's `texts` (`name`). Each text has a stable path, keyed by step and
 * component keys (`steps.contact.components.email.question`): the translation API's documents use them.
 *
 * `localizeForm` is the one place a form's texts are picked for a language: the page and the public JSON
 * API call it before anything else reads a text (recalled values are put into the text it picked).
 */
import { moduleOf } from '../components/catalogue.ts';
import { isObject, LIMITS, type Content } from '../components/content.ts';
import { TEXT_FIELDS } from '../components/module.ts';
import { languageOf, SUPPORTED_LANGUAGES } from '../i18n/locales.ts';
import type { FormLanguages, FormLimits, StoredComponent, StoredStep, TextTranslations } from '../db/json-columns.ts';

/** Languages a form may have in all (the default included). */
export const MAX_FORM_LANGUAGES = 20;

/** A text given in several languages: locale → text. */
export type TextObject = Record<string, unknown>;
type Path = (string | number)[];
export type Report = (path: Path, message: string) => void;

const LANGUAGE_KEY = /^[a-z]{2,3}(?:-[a-z0-9]{1,8})*$/i;
const isBuiltIn = (key: string) => (SUPPORTED_LANGUAGES as readonly string[]).includes(key);

/** Whether a value gives one text per language: an object whose keys all look like language tags, one at least a built-in language. */
export function isTextObject(value: unknown): value is TextObject {
  if (!isObject(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((key) => LANGUAGE_KEY.test(key)) && keys.some(isBuiltIn);
}

/** What is wrong with a text object on its own (keys, values), paths relative to it. */
export function textObjectProblems(value: TextObject, maxLength: number = LIMITS.maxTextLength): { path: Path; message: string }[] {
  const problems: { path: Path; message: string }[] = [];
  for (const [key, text] of Object.entries(value)) {
    if (!isBuiltIn(key)) problems.push({ path: [key], message: `"${key}" is not a language: one of ${SUPPORTED_LANGUAGES.join(', ')}` });
    else if (typeof text !== 'string') problems.push({ path: [key], message: 'A text must be a string' });
    else if (text.trim() === '') problems.push({ path: [key], message: 'A text must not be empty' });
    else if (text.length > maxLength) problems.push({ path: [key], message: `A text may have at most ${maxLength} characters` });
  }
  return problems;
}

/** A text object's text in `language`, else its first text (what validation reads before the default is known). */
export function textIn(value: TextObject, language: string | undefined): string {
  const given = language === undefined ? undefined : value[language];
  if (typeof given === 'string') return given;
  return Object.values(value).find((text): text is string => typeof text === 'string') ?? '';
}

// ---------------------------------------------------------------- a form's languages

export interface FormTexts {
  name: string;
  steps: StoredStep[];
  locale: string;
  languages: FormLanguages | null;
  texts: TextTranslations | null;
  /** Its limits' messages are texts too (`limits.closedMessage`), their translations in `limits.texts`. */
  limits?: FormLimits | null;
}

/** The messages of a form's limits (src/forms/limits.ts): texts a respondent reads, translated like the others. */
export const LIMIT_MESSAGES = ['closedMessage', 'notYetOpenMessage'] as const;

/** A form's languages, the default first (a one-language form: its locale's). */
export const languagesOf = (form: { languages: FormLanguages | null; locale: string }): string[] =>
  form.languages ? [form.languages.default, ...form.languages.others] : [languageOf(form.locale)];
export const defaultLanguageOf = (form: { languages: FormLanguages | null; locale: string }): string => languagesOf(form)[0]!;

// ---------------------------------------------------------------- texts in content

/** The text fields of a component type (its module's `texts`). */
export const textFieldsOf = (type: string): readonly string[] => moduleOf(type)?.texts ?? TEXT_FIELDS;

/** The values at a component type's text fields in `content`, each with its path (`*` expanded to each index). */
export function textsAt(content: Content, patterns: readonly string[]): { path: Path; value: unknown }[] {
  const found: { path: Path; value: unknown }[] = [];
  const walk = (node: unknown, segments: string[], path: Path) => {
    if (segments.length === 0) return void found.push({ path, value: node });
    const [segment, ...rest] = segments as [string, ...string[]];
    if (segment === '*') {
      if (Array.isArray(node)) node.forEach((item, index) => walk(item, rest, [...path, index]));
    } else if (isObject(node) && Object.hasOwn(node, segment)) walk(node[segment], rest, [...path, segment]);
  };
  for (const pattern of patterns) walk(content, pattern.split('.'), []);
  return found;
}

const setAt = (root: Content, path: Path, value: unknown) => {
  let node = root as Record<string | number, unknown>;
  for (const segment of path.slice(0, -1)) node = node[segment] as Record<string | number, unknown>;
  node[path.at(-1)!] = value;
};
const clone = <T>(value: T): T => structuredClone(value);

// Markers stand for a component's text objects while its content schema checks it: they are found again
// where the module's normalising put them, so a text object given under an alias lands at the stored field.
const MARKER = /\uE000(\d+)\uE000/g;
const markerOf = (index: number) => `\uE000${index}\uE000`;

/** Content with each text object replaced by a marker string, and the objects found (with their paths). */
export function markTextObjects(content: Content): { marked: Content; objects: { path: Path; value: TextObject }[] } {
  const objects: { path: Path; value: TextObject }[] = [];
  const walk = (node: unknown, path: Path): unknown => {
    if (isTextObject(node)) {
      objects.push({ path, value: node });
      return markerOf(objects.length - 1);
    }
    if (Array.isArray(node)) return node.map((item, index) => walk(item, [...path, index]));
    if (isObject(node)) return Object.fromEntries(Object.entries(node).map(([key, item]) => [key, walk(item, [...path, key])]));
    return node;
  };
  return { marked: walk(content, []) as Content, objects };
}

/** A message of the content's checks with its markers read as the texts they stand for. */
export const unmarkMessage = (message: string, objects: { value: TextObject }[]): string =>
  message.replace(MARKER, (_, index: string) => textIn(objects[Number(index)]?.value ?? {}, undefined));

/**
 * The checked content with the text objects back at the text fields their markers went to; a marker
 * anywhere else is a text object where the type takes one value (a problem at its stored path).
 */
export function placeTextObjects(content: Content, type: string, objects: { value: TextObject }[]): { content: Content; problems: { path: Path; message: string }[] } {
  const placed = clone(content);
  for (const { path, value } of textsAt(placed, textFieldsOf(type))) {
    const match = typeof value === 'string' ? /^\uE000(\d+)\uE000$/.exec(value) : null;
    if (match) setAt(placed, path, objects[Number(match[1])]!.value);
  }
  const problems: { path: Path; message: string }[] = [];
  const scan = (node: unknown, path: Path) => {
    if (typeof node === 'string' && node.includes('\uE000'))
      problems.push({ path, message: `Only the texts a respondent reads may be given one per language (${textFieldsOf(type).join(', ') || 'none in this type'})` });
    else if (Array.isArray(node)) node.forEach((item, index) => scan(item, [...path, index]));
    else if (isObject(node)) for (const [key, item] of Object.entries(node)) scan(item, [...path, key]);
  };
  scan(placed, []);
  return { content: placed, problems };
}

/** Content whose text objects are read in `language` (else their first text): what the form-wide checks read. */
export function contentIn(content: Content, type: string, language: string | undefined): Content {
  const out = clone(content);
  for (const { path, value } of textsAt(out, textFieldsOf(type))) if (isTextObject(value)) setAt(out, path, textIn(value, language));
  return out;
}

/** Content with its text objects resolved: the default language's text in place, the others as `texts`. */
export function resolveContent(content: Content, type: string, defaultLanguage: string): { content: Content; texts: TextTranslations } {
  const out = clone(content);
  const texts: TextTranslations = {};
  for (const { path, value } of textsAt(out, textFieldsOf(type))) {
    if (!isTextObject(value)) continue;
    setAt(out, path, textIn(value, defaultLanguage));
    const others = Object.entries(value).filter((entry): entry is [string, string] => entry[0] !== defaultLanguage && typeof entry[1] === 'string');
    if (others.length > 0) texts[path.join('.')] = Object.fromEntries(others);
  }
  return { content: out, texts };
}

/** A text given as a string or a text object: the default language's text and the others. */
export function resolveText(value: string | TextObject, defaultLanguage: string): { text: string; others: Record<string, string> | undefined } {
  if (typeof value === 'string') return { text: value, others: undefined };
  const others = Object.entries(value).filter((entry): entry is [string, string] => entry[0] !== defaultLanguage && typeof entry[1] === 'string');
  return { text: textIn(value, defaultLanguage), others: others.length > 0 ? Object.fromEntries(others) : undefined };
}

// ---------------------------------------------------------------- the languages' check

interface RawStep {
  name?: unknown;
  components?: unknown;
}

/**
 * Every text object of a definition checked against its languages (`languages`, the default first): a
 * language not declared, or a text without the default language, is reported at its path.
 */
export function checkTextLanguages(input: { name?: unknown; steps?: unknown; limits?: unknown }, languages: readonly string[], report: Report): void {
  const check = (value: unknown, path: Path) => {
    if (!isTextObject(value)) return;
    for (const key of Object.keys(value)) {
      if (isBuiltIn(key) && !languages.includes(key)) report([...path, key], `"${key}" is not one of the form's languages (${languages.join(', ')})`);
    }
    if (!Object.hasOwn(value, languages[0]!)) report(path, `A text given per language needs the default language (${languages[0]!})`);
  };
  check(input.name, ['name']);
  if (isObject(input.limits)) for (const key of LIMIT_MESSAGES) check(input.limits[key], ['limits', key]);
  if (!Array.isArray(input.steps)) return;
  (input.steps as RawStep[]).forEach((step, s) => {
    if (!isObject(step)) return;
    check(step.name, ['steps', s, 'name']);
    if (!Array.isArray(step.components)) return;
    (step.components as unknown[]).forEach((component, c) => {
      if (!isObject(component) || !isObject(component.content) || typeof component.type !== 'string') return;
      for (const { path, value } of textsAt(component.content, textFieldsOf(component.type))) check(value, ['steps', s, 'components', c, 'content', ...path]);
    });
  });
}

// ---------------------------------------------------------------- stable paths

/** One text of a form: its stable path, its default-language text and its translations. */
export interface FormText {
  path: string;
  text: string;
  translations: Record<string, string>;
}

const stepKeyOf = (step: StoredStep, index: number) => step.key ?? `step_${index + 1}`;
const componentPath = (step: StoredStep, s: number, component: StoredComponent) => `steps.${stepKeyOf(step, s)}.components.${component.key ?? component.id}`;

/** Every text of a form in its default language (empty ones left out), with its stable path, in the form's order. */
export function formTexts(form: Pick<FormTexts, 'name' | 'steps' | 'texts' | 'limits'>): FormText[] {
  const out: FormText[] = [{ path: 'name', text: form.name, translations: form.texts?.name ?? {} }];
  form.steps.forEach((step, s) => {
    out.push({ path: `steps.${stepKeyOf(step, s)}.name`, text: step.name, translations: step.texts?.name ?? {} });
    for (const component of step.components) {
      for (const { path, value } of textsAt(component.content, textFieldsOf(component.type))) {
        if (typeof value !== 'string' || value === '') continue;
        const field = path.join('.');
        out.push({ path: `${componentPath(step, s, component)}.${field}`, text: value, translations: component.texts?.[field] ?? {} });
      }
    }
  });
  for (const key of LIMIT_MESSAGES) {
    const text = form.limits?.[key];
    if (text) out.push({ path: `limits.${key}`, text, translations: form.limits?.texts?.[key] ?? {} });
  }
  return out.filter((text) => text.text !== '');
}

/** How complete a language is: its translated texts of all, and the paths of those missing. */
export interface TranslationStatus {
  locale: string;
  translated: number;
  total: number;
  missing: string[];
}

export function translationStatuses(form: FormTexts): TranslationStatus[] {
  const texts = formTexts(form);
  return languagesOf(form).map((locale, index) => {
    const missing = index === 0 ? [] : texts.filter((text) => text.translations[locale] === undefined).map((text) => text.path);
    return { locale, translated: texts.length - missing.length, total: texts.length, missing };
  });
}

/** A language's texts as one flat document, path → text (the default language: every text; another: its translated ones). */
export function translationDocument(form: FormTexts, locale: string): Record<string, string> {
  const isDefault = locale === defaultLanguageOf(form);
  const entries = formTexts(form).flatMap((text): [string, string][] => {
    const value = isDefault ? text.text : text.translations[locale];
    return value === undefined ? [] : [[text.path, value]];
  });
  return Object.fromEntries(entries);
}

/** The recall placeholders of a text (`{{question.first}}`), sorted: a translation keeps the default text's. */
export const placeholdersOf = (text: string): string[] => [...text.matchAll(/\{\{[^{}]*\}\}/g)].map((match) => match[0].replace(/\s+/g, '')).sort();

/** What is wrong with a language's document for a form: not an object, unknown keys, texts that are not texts, placeholders that differ. */
export function translationDocumentProblems(form: FormTexts, document: unknown): { path: Path; message: string }[] {
  if (!isObject(document)) return [{ path: [], message: 'A translation is an object of texts by path, e.g. {"name": "…"}' }];
  const byPath = new Map(formTexts(form).map((text) => [text.path, text]));
  const problems: { path: Path; message: string }[] = [];
  for (const [key, value] of Object.entries(document)) {
    const text = byPath.get(key);
    if (!text) problems.push({ path: [key], message: 'No text of this form has this path (GET the default language for the paths)' });
    else if (typeof value !== 'string') problems.push({ path: [key], message: 'A text must be a string' });
    else if (value.trim() === '') problems.push({ path: [key], message: 'A text must not be empty (leave the path out to leave it untranslated)' });
    else if (value.length > LIMITS.maxTextLength) problems.push({ path: [key], message: `A text may have at most ${LIMITS.maxTextLength} characters` });
    else if (placeholdersOf(value).join() !== placeholdersOf(text.text).join()) {
      problems.push({ path: [key], message: `The placeholders must be the default text's: ${placeholdersOf(text.text).join(' ') || 'none'}` });
    }
  }
  return problems;
}

/** The form's texts with `locale`'s replaced by `document` (checked: translationDocumentProblems); paths left out become untranslated. */
export function withTranslation(form: FormTexts, locale: string, document: Record<string, string>): Pick<FormTexts, 'steps' | 'texts' | 'limits'> {
  // `texts` without `locale`'s: its text at `field` is the document's at `path`, if it has one.
  const add = (texts: TextTranslations | undefined, field: string, path: string): TextTranslations | undefined => {
    const value = document[path];
    return value === undefined ? texts : { ...texts, [field]: { ...texts?.[field], [locale]: value } };
  };
  const withTexts = <T extends { texts?: TextTranslations | undefined }>(item: T, texts: TextTranslations | undefined): T => {
    const { texts: _old, ...rest } = item;
    return (texts ? { ...rest, texts } : rest) as T;
  };
  const steps = form.steps.map((step, s) => {
    const components = step.components.map((component) => {
      let texts = stripLocale(component.texts, locale);
      for (const { path, value } of textsAt(component.content, textFieldsOf(component.type))) {
        if (typeof value === 'string' && value !== '') texts = add(texts, path.join('.'), `${componentPath(step, s, component)}.${path.join('.')}`);
      }
      return withTexts(component, texts);
    });
    return withTexts({ ...step, components }, add(stripLocale(step.texts, locale), 'name', `steps.${stepKeyOf(step, s)}.name`));
  });
  const texts = add(stripLocale(form.texts, locale), 'name', 'name') ?? null;
  if (!form.limits) return { steps, texts };
  let limitTexts = stripLocale(form.limits.texts, locale);
  for (const key of LIMIT_MESSAGES) if (form.limits[key]) limitTexts = add(limitTexts, key, `limits.${key}`);
  return { steps, texts, limits: withTexts(form.limits, limitTexts) };
}

/** Translations without `locale` (undefined when nothing is left). */
export function stripLocale(texts: TextTranslations | undefined | null, locale: string): TextTranslations | undefined {
  if (!texts) return undefined;
  const next: TextTranslations = {};
  for (const [key, byLocale] of Object.entries(texts)) {
    const { [locale]: _dropped, ...rest } = byLocale;
    if (Object.keys(rest).length > 0) next[key] = rest;
  }
  return Object.keys(next).length > 0 ? next : undefined;
}

// ---------------------------------------------------------------- a form in one language

/**
 * The form as a respondent in `language` reads it: every text in that language where it is translated,
 * the default language's where not, and `locale` (the page's own words) in that language. A language
 * that is not the form's gives the default. The texts are picked before anything else reads them.
 * A version's steps are shared and never change (definition-cache.ts): their localized copy is kept with them.
 */
export function localizeForm<F extends FormTexts>(form: F, language: string): F {
  const languages = languagesOf(form);
  if (!languages.includes(language) || language === languages[0]) return form;
  const localized = { ...form, name: form.texts?.name?.[language] ?? form.name, steps: localizedSteps(form.steps, language), locale: language };
  return form.limits?.texts ? { ...localized, limits: limitsIn(form.limits, language) } : localized;
}

/** Limits with their messages in `language` where translated. */
function limitsIn(limits: FormLimits, language: string): FormLimits {
  const out: FormLimits = { ...limits };
  for (const key of LIMIT_MESSAGES) out[key] = limits.texts?.[key]?.[language] ?? limits[key];
  return out;
}

const localized = new WeakMap<StoredStep[], Map<string, StoredStep[]>>();

function localizedSteps(steps: StoredStep[], language: string): StoredStep[] {
  let byLanguage = localized.get(steps);
  if (!byLanguage) localized.set(steps, (byLanguage = new Map<string, StoredStep[]>()));
  let copy = byLanguage.get(language);
  if (!copy) {
    copy = steps.map((step) => ({
      ...step,
      name: step.texts?.name?.[language] ?? step.name,
      components: step.components.map((component) => localizeComponent(component, language)),
    }));
    byLanguage.set(language, copy);
  }
  return copy;
}

function localizeComponent(component: StoredComponent, language: string): StoredComponent {
  if (!component.texts) return component;
  const content = clone(component.content);
  for (const { path } of textsAt(content, textFieldsOf(component.type))) {
    const text = component.texts[path.join('.')]?.[language];
    if (text !== undefined) setAt(content, path, text);
  }
  return { ...component, content };
}

/** The list texts (options, rows, columns) of a component as pairs of its default language's and `language`'s. */
function listTexts(component: StoredComponent, language: string): [string, string][] {
  if (!component.texts) return [];
  const pairs: [string, string][] = [];
  for (const { path, value } of textsAt(
    component.content,
    textFieldsOf(component.type).filter((pattern) => pattern.includes('*')),
  )) {
    const translated = component.texts[path.join('.')]?.[language];
    if (typeof value === 'string' && translated !== undefined) pairs.push([value, translated]);
  }
  return pairs;
}

/** `raw` with every string (and object key) found in `map` replaced by what it maps to. */
function mapStrings(raw: unknown, map: ReadonlyMap<string, string>): unknown {
  if (map.size === 0) return raw;
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') return map.get(node) ?? node;
    if (Array.isArray(node)) return node.map(walk);
    if (isObject(node)) return Object.fromEntries(Object.entries(node).map(([key, value]) => [map.get(key) ?? key, walk(value)]));
    return node;
  };
  return walk(raw);
}

/** An answer in the default language's words shown in `language` (a stored choice on a page in another language). */
export function answerInLanguage(component: StoredComponent, answer: unknown, language: string): unknown {
  const map = new Map<string, string>();
  for (const [text, translated] of listTexts(component, language)) if (!map.has(text)) map.set(text, translated);
  return mapStrings(answer, map);
}

/**
 * An answer given in `language` in the default language's words: a list text (an option, a row, a
 * column) written in `language` is read as the default language's text at the same place, so the answer
 * is stored, counted and tested in one language. Other values stay as given.
 */
export function answerInDefaultLanguage(component: StoredComponent, raw: unknown, language: string): unknown {
  const map = new Map<string, string>();
  for (const [text, translated] of listTexts(component, language)) if (!map.has(translated)) map.set(translated, text);
  return mapStrings(raw, map);
}

/**
 * A definition as `GET /api/v1/forms/{formId}` shows it: each translated text back as one text object
 * (`{"en": "…", "de": "…"}`), so that an update given it back keeps every translation.
 */
export function definitionWithTextObjects<D extends { name: string; steps: StoredStep[]; locale: string; languages?: FormLanguages | null; texts?: TextTranslations | null }>(
  definition: D,
): Record<string, unknown> {
  const language = defaultLanguageOf({ languages: definition.languages ?? null, locale: definition.locale });
  const joined = (text: string, others: Record<string, string> | undefined) => (others ? { [language]: text, ...others } : text);
  const steps = definition.steps.map(({ texts: stepTexts, ...step }) => ({
    ...step,
    name: joined(step.name, stepTexts?.name),
    components: step.components.map(({ texts, ...component }) => {
      if (!texts) return component;
      const content = clone(component.content);
      for (const { path, value } of textsAt(content, textFieldsOf(component.type))) {
        if (typeof value === 'string') setAt(content, path, joined(value, texts[path.join('.')]));
      }
      return { ...component, content };
    }),
  }));
  // A one-language form's definition reads as it did before languages.
  const { texts, languages, ...rest } = definition;
  return { ...rest, ...(languages ? { languages } : {}), name: joined(definition.name, texts?.name), steps };
}

// ---------------------------------------------------------------- a new default language

/** A form's texts re-keyed to a new default language, and the texts that lack it (each with its path in the definition and its stable path), left as they were. */
export interface Rekeyed {
  name: string;
  texts: TextTranslations | null;
  steps: StoredStep[];
  missing: { path: Path; stablePath: string }[];
}

/**
 * The form's texts with `language` (one of its others) as the default: each text's `language`
 * translation stands in place and the former default's text goes beside it, as a translation. A text
 * without one in `language` is listed in `missing` (and left as it was).
 */
export function rekeyTexts(form: Pick<FormTexts, 'name' | 'steps' | 'texts'> & { languages: FormLanguages | null; locale: string }, language: string): Rekeyed {
  const former = defaultLanguageOf(form);
  const missing: { path: Path; stablePath: string }[] = [];
  // One text: its translation in `language` in place, the former default's beside it.
  const swap = (
    text: string,
    translations: Record<string, string> | undefined,
    path: Path,
    stablePath: string,
  ): { text: string; translations: Record<string, string> } | undefined => {
    const { [language]: next, ...others } = translations ?? {};
    if (next === undefined) missing.push({ path, stablePath });
    return next === undefined ? undefined : { text: next, translations: { ...others, [former]: text } };
  };
  const withTexts = <T extends { texts?: TextTranslations | undefined }>(item: T, texts: TextTranslations): T => {
    const { texts: _old, ...rest } = item;
    return (Object.keys(texts).length > 0 ? { ...rest, texts } : rest) as T;
  };
  const name = swap(form.name, form.texts?.name, ['name'], 'name');
  const steps = form.steps.map((step, s) => {
    const stepTexts: TextTranslations = { ...step.texts };
    const stepName = swap(step.name, step.texts?.name, ['steps', s, 'name'], `steps.${stepKeyOf(step, s)}.name`);
    if (stepName) stepTexts.name = stepName.translations;
    const components = step.components.map((component, c) => {
      const content = clone(component.content);
      const texts: TextTranslations = { ...component.texts };
      for (const { path, value } of textsAt(content, textFieldsOf(component.type))) {
        if (typeof value !== 'string' || value === '') continue;
        const field = path.join('.');
        const swapped = swap(value, component.texts?.[field], ['steps', s, 'components', c, 'content', ...path], `${componentPath(step, s, component)}.${field}`);
        if (!swapped) continue;
        setAt(content, path, swapped.text);
        texts[field] = swapped.translations;
      }
      return withTexts({ ...component, content }, texts);
    });
    return withTexts({ ...step, name: stepName?.text ?? step.name, components }, stepTexts);
  });
  const texts = name ? { ...form.texts, name: name.translations } : (form.texts ?? null);
  return { name: name?.text ?? form.name, texts, steps, missing };
}
