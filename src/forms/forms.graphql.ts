/**
 * GraphQL types and fields of forms: Step (of catalogue components, components.graphql.ts), Form with its
 * definition and versions, generateForm, importForm, updateForm, deleteForm, closeForm, reopenForm.
 */
import { actorOf, recordAudit } from '../audit/audit.service.ts';
import { z } from 'zod';
import { readScope, requireApiKey, requireEnvironmentAccess } from '../auth/auth.service.ts';
import { formLimitOf, formsFilterOf, reachesForm, requireFormReach, requireWholeEnvironment } from '../auth/form-limits.ts';
import { FORM_STATUSES } from '../db/schema.ts';
import DataLoader from 'dataloader';
import { AppError, invalidInput, notFound, type FieldError } from '../errors.ts';
import { isCaptchaType, uncheckableCaptchas } from '../components/captchas.ts';
import { ComponentUnion } from '../components/components.graphql.ts';
import { captchaSettingsForForm } from '../environments/captcha-keys.service.ts';
import { builder } from '../graphql/builder.ts';
import { captchaKeyringOf, type GraphQLContext } from '../graphql/context.ts';
import { NodeRef } from '../graphql/node.ts';
import { checkPageArgs, DEFAULT_PAGE_SIZE, keysetConnection, pageComplexity, type PageArgs } from '../graphql/pagination.ts';
import { MAX_PAGE_SIZE } from '../keyset.ts';
import { notificationsSchema } from '../notifications/settings.ts';
import {
  formLocaleSchema,
  generateFormInputSchema,
  languagesSchema,
  importFormNameSchema,
  importStepsSchema,
  updateFormInputSchema,
  type GenerateFormInput,
} from './components.ts';
import { DEFAULT_LOCALE, SUPPORTED_LANGUAGES } from '../i18n/locales.ts';
import {
  deleteForm,
  findForm,
  findFormById,
  formStepsAt,
  formUrl,
  generateForm,
  generateFormIdempotently,
  generatedFormPages,
  importForm,
  saveTranslation,
  loadForms,
  setFormStatus,
  updateForm,
  updateFormIdempotently,
  type Form,
  type FormHead,
  type UpdatedForm,
} from './forms.service.ts';
import type { FormDefinition } from '../db/schema.ts';
import { FormNotificationsInput, FormNotificationsRef } from '../notifications/settings.graphql.ts';
import { definitionOf, versionDefinitions, versionPages, type ListedVersion } from './versions.service.ts';
import { themeSchema } from './theme.ts';
import type { ComponentStyle, FormLanguages, Theme, StoredStep } from '../db/json-columns.ts';
import { importHiddenFieldsSchema, importVariablesSchema, withLogicChecks } from './components.ts';
import { defaultLanguageOf, definitionWithTextObjects, languagesOf, LIMIT_MESSAGES, translationDocument, translationStatuses, type TranslationStatus } from './translations.ts';
import type { FormLimits, FormQuota } from '../db/json-columns.ts';
import { finishedCountsOf, type FinishedCounts } from '../responses/gate.ts';
import {
  actionsOf,
  CALCULATION_OPS,
  CONDITION_OPS,
  routeOf,
  type CalculateAction,
  type Condition,
  type FormVariable,
  type HiddenCondition,
  type LogicAction,
  type LogicRule,
  type QuestionCondition,
  type StepLogic,
  type VariableCondition,
} from '../components/conditions.ts';
import { stepKey } from './logic.ts';

// ---------------------------------------------------------------- steps

const FormStatusEnum = builder.enumType('FormStatus', {
  description:
    'DRAFT: not served. PUBLISHED: served at its url, accepting responses. CLOSED: its url shows "no longer accepting responses"; its responses stay readable and it can still be a template. Deleted forms are not listed.',
  values: Object.fromEntries(FORM_STATUSES.map((s) => [s.toUpperCase(), { value: s }])) as Record<'DRAFT' | 'PUBLISHED' | 'CLOSED', { value: (typeof FORM_STATUSES)[number] }>,
});

// ---------------------------------------------------------------- logic

export const ConditionOpEnum = builder.enumType('ConditionOp', {
  description:
    'How a condition compares. equals/notEquals: the same value (numbers as numbers when both sides are numbers); contains/notContains: a substring of a text answer, or a member of a multiple choice; in/notIn: equals one of a list; greaterThan/lessThan/greaterOrEqual/lessOrEqual: both sides numbers; between: value [low, high], both ends included (two numbers, or two dates); before/after: dates YYYY-MM-DD; answered/notAnswered: whether there is an answer (or a hidden value).',
  values: CONDITION_OPS,
});

const AllConditionRef = builder.objectRef<{ all: Condition[] }>('AllCondition');
const AnyConditionRef = builder.objectRef<{ any: Condition[] }>('AnyCondition');
const NotConditionRef = builder.objectRef<{ not: Condition }>('NotCondition');
const QuestionConditionRef = builder.objectRef<QuestionCondition>('QuestionCondition');
const HiddenFieldConditionRef = builder.objectRef<HiddenCondition>('HiddenFieldCondition');
const VariableConditionRef = builder.objectRef<VariableCondition>('VariableCondition');
const conditionRefOf = (condition: Condition) =>
  'all' in condition
    ? AllConditionRef
    : 'any' in condition
      ? AnyConditionRef
      : 'not' in condition
        ? NotConditionRef
        : 'hidden' in condition
          ? HiddenFieldConditionRef
          : 'variable' in condition
            ? VariableConditionRef
            : QuestionConditionRef;
export const ConditionUnion = builder.unionType('Condition', {
  description: 'A test on the answers so far, the hidden fields or the variables: a group (all, any, not) or a leaf.',
  types: [AllConditionRef, AnyConditionRef, NotConditionRef, QuestionConditionRef, HiddenFieldConditionRef, VariableConditionRef],
  resolveType: (condition: Condition) => conditionRefOf(condition),
});
VariableConditionRef.implement({
  description: "A test on a form variable's value as the rules before it left it.",
  fields: (t) => ({
    variable: t.exposeString('variable', { description: 'The variable name.' }),
    op: t.field({ type: ConditionOpEnum, resolve: (c) => c.op }),
    value: t.field({ type: 'JSON', nullable: true, resolve: (c) => c.value ?? null }),
  }),
});
AllConditionRef.implement({
  description: 'Holds when every one of its conditions holds.',
  fields: (t) => ({ all: t.field({ type: [ConditionUnion], resolve: (c) => c.all }) }),
});
AnyConditionRef.implement({
  description: 'Holds when at least one of its conditions holds.',
  fields: (t) => ({ any: t.field({ type: [ConditionUnion], resolve: (c) => c.any }) }),
});
NotConditionRef.implement({
  description: 'Holds when its condition does not.',
  fields: (t) => ({ not: t.field({ type: ConditionUnion, resolve: (c) => c.not }) }),
});
QuestionConditionRef.implement({
  description: "A test on one component's answer.",
  fields: (t) => ({
    question: t.exposeString('question', { description: "The component's key." }),
    field: t.exposeString('field', { nullable: true, description: 'The IdentityInfo field tested (e.g. numberOfEmployees); null: the whole answer.' }),
    op: t.field({ type: ConditionOpEnum, resolve: (c) => c.op }),
    value: t.field({
      type: 'JSON',
      nullable: true,
      description: 'What the answer is compared with: a text, a number, true/false, or a list (in, notIn).',
      resolve: (c) => c.value ?? null,
    }),
  }),
});
HiddenFieldConditionRef.implement({
  description: "A test on a hidden field's value.",
  fields: (t) => ({
    hidden: t.exposeString('hidden', { description: 'The hidden field name.' }),
    op: t.field({ type: ConditionOpEnum, resolve: (c) => c.op }),
    value: t.field({ type: 'JSON', nullable: true, resolve: (c) => c.value ?? null }),
  }),
});
const CalculationOpEnum = builder.enumType('CalculationOp', {
  description: 'set, add, subtract, multiply, divide (by zero: unchanged) a number variable; set or append to a text variable.',
  values: CALCULATION_OPS,
});
const CalculationRef = builder.objectRef<CalculateAction['calculate']>('Calculation').implement({
  description: 'Changes a form variable when its rule holds (docs/logic.md).',
  fields: (t) => ({
    variable: t.exposeString('variable'),
    op: t.field({ type: CalculationOpEnum, resolve: (c) => c.op }),
    value: t.field({ type: 'JSON', description: 'A number, a text, {question: <key>}, {scoreOf: <key>} or {variable: <name>}.', resolve: (c) => c.value }),
  }),
});
const LogicActionRef = builder.objectRef<LogicAction>('LogicAction').implement({
  description: 'What a rule does when its condition holds: go to a later step, end the response (complete, invalid), or calculate a variable.',
  fields: (t) => ({
    calculate: t.field({ type: CalculationRef, nullable: true, resolve: (a) => ('calculate' in a ? a.calculate : null) }),
    goTo: t.string({ nullable: true, description: 'The key of the step to go to.', resolve: (a) => ('goTo' in a ? a.goTo : null) }),
    complete: t.boolean({ description: 'Finish the response.', resolve: (a) => 'complete' in a }),
    invalid: t.boolean({ description: 'Mark the response invalid (status 5) and end it.', resolve: (a) => 'invalid' in a }),
  }),
});
/**
 * A rule as GraphQL resolves it, its `if` and `then` named `condition` and `action`: the GraphQL
 * executors take any object with a `then` for a promise (a stored rule as a resolved value, and a
 * rule's result with a `then` field alike), so neither the value nor the type may have one.
 */
interface RuleValue {
  condition: LogicRule['if'];
  actions: readonly LogicAction[];
}
const LogicRuleRef = builder.objectRef<RuleValue>('LogicRule').implement({
  description: 'One rule: when `condition` holds as the step is submitted, `action` decides what follows. (The input and the REST/public JSON call them `if` and `then`.)',
  fields: (t) => ({
    condition: t.field({ type: ConditionUnion, description: 'The `if` of the rule.', resolve: (r) => r.condition }),
    action: t.field({
      type: LogicActionRef,
      nullable: true,
      description: 'The action of the `then` that routes (goTo, complete, invalid); null when the rule only calculates.',
      resolve: (r) => routeOf(r.actions) ?? null,
    }),
    actions: t.field({ type: [LogicActionRef], description: 'Every action of the `then`, in order.', resolve: (r) => r.actions }),
  }),
});
const StepLogicRef = builder.objectRef<StepLogic>('StepLogic').implement({
  description: 'Where the respondent goes after a step: the first rule that holds, else `next` (else the following step).',
  fields: (t) => ({
    rules: t.field({ type: [LogicRuleRef], resolve: (l) => l.rules.map((rule): RuleValue => ({ condition: rule.if, actions: actionsOf(rule.then) })) }),
    next: t.exposeString('next', { nullable: true, description: 'The key of the step that follows when no rule holds; null: the following step.' }),
  }),
});

const FormVariableRef = builder.objectRef<FormVariable>('FormVariable').implement({
  description: 'A value the rules calculate along a response: a number or a text, from `initial`.',
  fields: (t) => ({
    name: t.exposeString('name'),
    type: t.string({ description: '`number` or `text`.', resolve: (v) => v.type }),
    initial: t.field({ type: 'JSON', resolve: (v) => v.initial }),
  }),
});

/** A form's limits, with its default language (what a translated message's text object is keyed by first). */
type LimitsOfForm = FormLimits & { language: string };
const FormLimitsRef = builder.objectRef<LimitsOfForm>('FormLimits').implement({
  description: 'When the form takes responses and how many (docs/logic.md, Limits).',
  fields: (t) => ({
    maxResponses: t.int({ nullable: true, description: 'Finished responses the form takes; then it is full.', resolve: (l) => l.maxResponses ?? null }),
    opensAt: t.field({ type: 'DateTime', nullable: true, description: 'Before it the form is not open yet.', resolve: (l) => l.opensAt ?? null }),
    closesAt: t.field({ type: 'DateTime', nullable: true, description: 'From it on the form is closed.', resolve: (l) => l.closesAt ?? null }),
    closedMessage: t.string({ nullable: true, description: 'The text of the closed screen (in the default language).', resolve: (l) => l.closedMessage ?? null }),
    notYetOpenMessage: t.string({
      nullable: true,
      description: 'The text of the screen before `opensAt` (in the default language); its opening time is shown below it.',
      resolve: (l) => l.notYetOpenMessage ?? null,
    }),
    json: t.field({
      type: 'JSON',
      description: 'The limits as `limits` takes them back: a translated message as one text per language (`{"en": "…", "de": "…"}`).',
      resolve: ({ language, texts, ...limits }) => {
        const joined = (key: (typeof LIMIT_MESSAGES)[number]) => (texts?.[key] && limits[key] ? { [key]: { [language]: limits[key], ...texts[key] } } : {});
        return { ...limits, ...joined('closedMessage'), ...joined('notYetOpenMessage') };
      },
    }),
  }),
});

/** A quota with its form, for its count. */
interface QuotaOfForm {
  form: FormHead;
  quota: FormQuota;
}
/**
 * The finished counts of the forms of a request, batched: every form at one place in a query (a listing's
 * `finishedResponses`, its quotas' `count`) is counted by one statement, each form once per request.
 */
const countsByRequest = new WeakMap<GraphQLContext, DataLoader<FormHead, FinishedCounts, string>>();
function countsOf(ctx: GraphQLContext, form: FormHead): Promise<FinishedCounts> {
  let loader = countsByRequest.get(ctx);
  if (!loader) countsByRequest.set(ctx, (loader = new DataLoader((many: readonly FormHead[]) => finishedCountsOf(ctx.db, many), { cacheKeyFn: (f) => f.id })));
  return loader.load(form);
}
const QuotaRef = builder.objectRef<QuotaOfForm>('Quota').implement({
  description: 'At most `limit` finished responses meeting `condition`; past it a response is routed by `action`.',
  fields: (t) => ({
    key: t.string({ resolve: ({ quota }) => quota.key }),
    limit: t.int({ resolve: ({ quota }) => quota.limit }),
    count: t.int({
      description: 'Finished responses counted toward it so far.',
      resolve: async ({ form, quota }, _, ctx) => (await countsOf(ctx, form)).quotas.get(quota.key) ?? 0,
    }),
    condition: t.field({ type: ConditionUnion, resolve: ({ quota }) => quota.condition }),
    action: t.field({ type: 'JSON', description: '"complete", "invalid" or {goTo: <step key>}.', resolve: ({ quota }) => quota.action }),
    json: t.field({ type: 'JSON', description: 'The quota as `quotas` takes it back: `{key, condition, limit, action}`.', resolve: ({ quota }) => quota }),
  }),
});

const StepRef = builder.objectRef<StoredStep & { key: string }>('Step').implement({
  description: 'One page of a form.',
  fields: (t) => ({
    id: t.exposeID('id'),
    key: t.exposeString('key', { description: 'Unique in the form: its own, or the default `step_<n>` (1-based position). What logic and `meta.path` name.' }),
    name: t.exposeString('name'),
    components: t.field({ type: [ComponentUnion], resolve: (step) => step.components }),
    completion: t.boolean({ description: 'Reaching it finishes the response; it is the final screen.', resolve: (step) => step.completion === true }),
    invalid: t.boolean({ description: 'Reaching it marks the response invalid (status 5) and ends it; it is the final screen.', resolve: (step) => step.invalid === true }),
    logic: t.field({ type: StepLogicRef, nullable: true, description: 'Its rules; null: the following step comes next.', resolve: (step) => step.logic ?? null }),
  }),
});

// ---------------------------------------------------------------- theme

const ThemeFontsRef = builder.objectRef<Theme['fonts']>('ThemeFonts').implement({
  fields: (t) => ({ heading: t.exposeString('heading'), body: t.exposeString('body') }),
});
const ThemeColorsRef = builder.objectRef<Theme['colors']>('ThemeColors').implement({
  fields: (t) => ({
    primary: t.exposeString('primary'),
    background: t.exposeString('background'),
    text: t.exposeString('text'),
    buttonText: t.exposeString('buttonText'),
  }),
});
type Background = Theme['background'];
const ThemeBackgroundRef = builder.objectRef<Background>('ThemeBackground').implement({
  description: 'A plain colour, a gradient (from, to, angle) or an image (url, overlay).',
  fields: (t) => ({
    type: t.exposeString('type'),
    color: t.string({ nullable: true, resolve: (b) => (b.type === 'color' ? b.color : null) }),
    from: t.string({ nullable: true, resolve: (b) => (b.type === 'gradient' ? b.from : null) }),
    to: t.string({ nullable: true, resolve: (b) => (b.type === 'gradient' ? b.to : null) }),
    angle: t.int({ nullable: true, resolve: (b) => (b.type === 'gradient' ? b.angle : null) }),
    url: t.string({ nullable: true, resolve: (b) => (b.type === 'image' ? b.url : null) }),
    overlay: t.string({ nullable: true, resolve: (b) => (b.type === 'image' ? (b.overlay ?? null) : null) }),
  }),
});
const ThemeLayoutRef = builder.objectRef<Theme['layout']>('ThemeLayout').implement({
  fields: (t) => ({
    align: t.exposeString('align'),
    width: t.exposeString('width'),
    showProgressBar: t.exposeBoolean('showProgressBar'),
    logoUrl: t.exposeString('logoUrl', { nullable: true }),
  }),
});
const ComponentStyleRef = builder.objectRef<ComponentStyle & { componentType: string }>('ComponentStyle').implement({
  description: 'Styles of one component type.',
  fields: (t) => ({
    componentType: t.exposeString('componentType'),
    backgroundColor: t.exposeString('backgroundColor', { nullable: true }),
    textColor: t.exposeString('textColor', { nullable: true }),
    borderColor: t.exposeString('borderColor', { nullable: true }),
    accentColor: t.exposeString('accentColor', { nullable: true }),
    borderRadius: t.exposeInt('borderRadius', { nullable: true }),
    fontSize: t.exposeInt('fontSize', { nullable: true }),
  }),
});
const ThemeRef = builder.objectRef<Theme>('Theme').implement({
  description: 'Fonts, colours, background, layout and per-component styles of a form.',
  fields: (t) => ({
    fonts: t.field({ type: ThemeFontsRef, resolve: (theme) => theme.fonts }),
    colors: t.field({ type: ThemeColorsRef, resolve: (theme) => theme.colors }),
    background: t.field({ type: ThemeBackgroundRef, resolve: (theme) => theme.background }),
    layout: t.field({ type: ThemeLayoutRef, resolve: (theme) => theme.layout }),
    componentStyles: t.field({
      type: [ComponentStyleRef],
      resolve: (theme) =>
        Object.entries(theme.componentStyles)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([componentType, style]) => ({ componentType, ...style })),
    }),
  }),
});

// ---------------------------------------------------------------- definitions and versions

const FormLanguagesRef = builder.objectRef<FormLanguages>('FormLanguages').implement({
  description: 'The languages of a multilingual form.',
  fields: (t) => ({
    default: t.exposeString('default', { description: 'The language its texts are written in first: what a text without a translation shows.' }),
    others: t.exposeStringList('others'),
  }),
});

const FormTranslationRef = builder.objectRef<TranslationStatus>('FormTranslation').implement({
  description: 'How complete one language of a form is (the default language is complete).',
  fields: (t) => ({
    locale: t.exposeString('locale'),
    translated: t.exposeInt('translated', { description: 'Texts with a text in this language.' }),
    total: t.exposeInt('total', { description: 'Texts of the form (those written in the default language).' }),
    missing: t.exposeStringList('missing', { description: 'The stable paths of the texts without one (shown in the default language).' }),
  }),
});

const FormDefinitionRef = builder.objectRef<FormDefinition>('FormDefinition').implement({
  description: 'What a version of a form says: its name, steps, hidden fields, locale and notifications (what updateForm changes).',
  fields: (t) => ({
    name: t.exposeString('name'),
    steps: t.field({ type: [StepRef], resolve: (definition) => definition.steps.map((step, index) => ({ ...step, key: stepKey(step, index) })) }),
    hiddenFields: t.exposeStringList('hiddenFields', { description: 'Names of the values respondents bring in the URL or through the JSON API.' }),
    variables: t.field({
      type: [FormVariableRef],
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- a snapshot stored before variables existed has none
      resolve: (definition) => definition.variables ?? [],
    }),
    locale: t.exposeString('locale', { description: "The language of the page's own words (a BCP 47 tag)." }),
    notifications: t.field({
      type: FormNotificationsRef,
      nullable: true,
      description: 'Who hears of the responses started on this version; null: nobody.',
      resolve: (definition) => definition.notifications ?? null,
    }),
    json: t.field({
      type: 'JSON',
      description: 'The definition as one JSON object, as `GET /api/v1/forms/{formId}` shows it and `updateForm`/PATCH take it back: steps and components with their ids.',
      resolve: (definition) => definitionWithTextObjects(definitionOf(definition)),
    }),
    languages: t.field({
      type: FormLanguagesRef,
      nullable: true,
      description: "A multilingual form's languages; null: one language.",
      resolve: (definition) => definition.languages ?? null,
    }),
  }),
});

/** Request-scoped loader of versions' definitions: the versions of one tick are read in one statement. */
const definitionLoaders = new WeakMap<GraphQLContext, DataLoader<ListedVersion, FormDefinition, string>>();
function definitionLoader(ctx: GraphQLContext): DataLoader<ListedVersion, FormDefinition, string> {
  let loader = definitionLoaders.get(ctx);
  if (!loader) {
    loader = new DataLoader<ListedVersion, FormDefinition, string>(async (versions) => versionDefinitions(ctx.db, versions), {
      cacheKeyFn: (version) => `${version.formId}:${version.version}`,
    });
    definitionLoaders.set(ctx, loader);
  }
  return loader;
}

/** Request-scoped loader of forms' steps at the version read: every form at one place in a query in one statement. */
const stepsLoaders = new WeakMap<GraphQLContext, DataLoader<FormHead, StoredStep[], string>>();
function stepsLoader(ctx: GraphQLContext): DataLoader<FormHead, StoredStep[], string> {
  let loader = stepsLoaders.get(ctx);
  if (!loader) stepsLoaders.set(ctx, (loader = new DataLoader((many: readonly FormHead[]) => formStepsAt(ctx.db, many), { cacheKeyFn: (f) => `${f.id}@${f.version}` })));
  return loader;
}

/**
 * The form with its steps: listings and lookups by id read forms without them (FormHead), so a field that
 * needs them reads them here, batched per request.
 */
export async function formWithSteps(ctx: GraphQLContext, form: FormHead): Promise<Form> {
  if (form.steps) return form as Form;
  return { ...form, steps: await stepsLoader(ctx).load(form) };
}

const MB = 1024 * 1024;
/**
 * Takes `bytes` of definitions from the request's budget (GRAPHQL_MAX_DEFINITION_BYTES) before they are
 * read, each time the answer holds them (aliases included), so no request reads or answers more definition
 * bytes than that: a version's definition, and a form's current steps (forms(first: 100) { steps } over
 * forms of a megabyte each would otherwise answer 100 MB).
 */
function spendDefinitionBudget(ctx: GraphQLContext, bytes: number, what: string, advice: string): void {
  const budget = ctx.definitionBudget;
  if (!budget) return;
  if (bytes > budget.left) {
    throw new AppError('BAD_USER_INPUT', `${what} would pass the ${(budget.max / MB).toFixed(1)} MB of definitions one request may read: ${advice}`);
  }
  budget.left -= bytes;
}

/** The size of a form's current steps as JSON text; the stored steps of a version are shared and frozen, so it is measured once. */
const stepsSizes = new WeakMap<readonly unknown[], number>();
function stepsBytes(steps: readonly unknown[]): number {
  let bytes = stepsSizes.get(steps);
  if (bytes === undefined) {
    bytes = Buffer.byteLength(JSON.stringify(steps));
    stepsSizes.set(steps, bytes);
  }
  return bytes;
}

/** The form with its steps, their size taken from the request's budget of definition bytes. */
async function stepsWithinBudget(ctx: GraphQLContext, head: FormHead): Promise<Form> {
  const form = await formWithSteps(ctx, head);
  if (ctx.definitionBudget)
    spendDefinitionBudget(ctx, stepsBytes(form.steps), `The steps of form ${form.id}`, 'select steps or definition on fewer forms at a time (a smaller first)');
  return form;
}

const FormVersionRef = builder.objectRef<ListedVersion>('FormVersion').implement({
  description: 'One version of a form: the definition it had from `createdAt` until the next version. Responses record the version they started on (`meta.formVersion`).',
  fields: (t) => ({
    version: t.exposeInt('version', { description: 'From 1, one more with each update.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    definitionBytes: t.exposeInt('definitionBytes', {
      description: "Size of the definition as JSON text, in bytes: what reading `definition` takes from the request's budget of definition bytes.",
    }),
    definition: t.field({
      type: FormDefinitionRef,
      description:
        "The version's definition. One request reads at most GRAPHQL_MAX_DEFINITION_BYTES of definitions (16 MiB by default): beyond it, BAD_USER_INPUT, and no definition is read.",
      resolve: (version, _args, ctx) => {
        spendDefinitionBudget(ctx, version.definitionBytes, `The definition of version ${version.version}`, 'select definition on fewer versions at a time (a smaller first)');
        return definitionLoader(ctx).load(version);
      },
    }),
  }),
});

const FormVersionConnection = builder.connectionObject(
  {
    type: FormVersionRef,
    name: 'FormVersionConnection',
    description: 'A page of versions of a form, newest first.',
    edgesNullable: { list: false, items: false },
    nodeNullable: false,
  },
  { name: 'FormVersionEdge' },
);

// ---------------------------------------------------------------- form

/**
 * Loaded by id through the request's dataloader (node lookups, `sourceForm`, a response's `form`), which
 * answers only live forms of the caller's environment (any environment for the admin token).
 */
export const FormRef = builder.loadableObjectRef<FormHead | null, string, string, FormHead>('Form', {
  load: (ids: string[], ctx) => loadForms(ctx.db, readScope(ctx.principal), ids, formLimitOf(ctx.principal)),
});
FormRef.implement({
  description: 'A form: its steps, theme and public url.',
  interfaces: [NodeRef],
  fields: (t) => ({
    environmentId: t.exposeID('environmentId'),
    name: t.exposeString('name'),
    status: t.field({ type: FormStatusEnum, resolve: (form) => form.status }),
    url: t.string({ description: 'Public path of the form, `/s/<id>`.', resolve: (form) => formUrl(form.id) }),
    sourceFormId: t.exposeID('sourceFormId', { nullable: true, description: 'The template it was generated from.' }),
    theme: t.field({ type: ThemeRef, resolve: (form) => form.theme }),
    steps: t.field({
      type: [StepRef],
      description: "The current steps. They take their size from the request's budget of GRAPHQL_MAX_DEFINITION_BYTES, as `definition` does.",
      resolve: async (head, _args, ctx) => (await stepsWithinBudget(ctx, head)).steps.map((step, index) => ({ ...step, key: stepKey(step, index) })),
    }),
    hiddenFields: t.stringList({
      description: 'Names of the values a response may bring in the page URL or the JSON API; conditions test them.',
      resolve: (form) => form.hiddenFields,
    }),
    variables: t.field({ type: [FormVariableRef], description: 'Values the rules calculate along a response (docs/logic.md).', resolve: (form) => form.variables }),
    version: t.exposeInt('version', { description: "The current version of the form's definition: 1 when created, one more with each update (`updateForm`)." }),
    definition: t.field({
      type: FormDefinitionRef,
      description:
        "The current version's definition (the same name, steps and hidden fields as the form's own fields); its steps take their size from the request's budget of GRAPHQL_MAX_DEFINITION_BYTES.",
      resolve: async (head, _args, ctx) => definitionOf(await stepsWithinBudget(ctx, head)),
    }),
    versions: t.loadable({
      type: FormVersionConnection,
      description: 'Every version of the definition, newest first (the current one first).',
      args: {
        first: t.arg.int({ defaultValue: DEFAULT_PAGE_SIZE, description: `Page size, 1 to ${MAX_PAGE_SIZE}.` }),
        after: t.arg.string({ description: '`endCursor` of the previous page: continue with older versions.' }),
      },
      // Listed without its definition (read within the request's budget of definition bytes, definitionLoader).
      complexity: (args) => ({ field: 1, multiplier: Math.min(Math.max(args.first ?? DEFAULT_PAGE_SIZE, 1), MAX_PAGE_SIZE) }),
      byPath: true,
      load: async (formIds: string[], ctx: GraphQLContext, args) => {
        const { first, after } = checkPageArgs(args);
        // The parents were loaded within the caller's scope.
        const pages = await versionPages(ctx.db, formIds, { after, limit: first });
        return pages.map((page) => keysetConnection(page.rows, page.hasNextPage, after !== undefined));
      },
      resolve: (form) => form.id,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    locale: t.exposeString('locale', {
      description: "The language of the page's own words: a BCP 47 tag in one of the built-in languages (en, de, fr, es, it, nl, pt, pl, ja, ar), with an optional region.",
    }),
    notifications: t.field({
      type: FormNotificationsRef,
      nullable: true,
      description: 'Who hears of its responses by e-mail; null: nobody.',
      resolve: (form) => form.notifications,
    }),
    limits: t.field({
      type: FormLimitsRef,
      nullable: true,
      description: 'When it takes responses and how many; null: always, without a limit.',
      resolve: (form) => form.limits && { ...form.limits, language: defaultLanguageOf(form) },
    }),
    finishedResponses: t.int({
      authScopes: { scope: 'forms:read' },
      description: 'Its finished responses: what `limits.maxResponses` counts.',
      resolve: async (form, _, ctx) => (await countsOf(ctx, form)).total,
    }),
    quotas: t.field({
      authScopes: { scope: 'forms:read' },
      type: [QuotaRef],
      description: 'Its quotas, each with its count.',
      resolve: (form) => form.quotas.map((quota) => ({ form, quota })),
    }),
    languages: t.field({
      type: FormLanguagesRef,
      nullable: true,
      description: "A multilingual form's languages; null: one language (`locale`'s).",
      resolve: (form) => form.languages,
    }),
    translations: t.field({
      type: [FormTranslationRef],
      description: 'Every language of the form (the default first) with how complete it is.',
      resolve: async (form, _args, ctx) => translationStatuses(await formWithSteps(ctx, form)),
    }),
    translation: t.field({
      type: 'JSON',
      nullable: true,
      description: 'One language\'s texts as a flat document, `{"<stable path>": "text"}` (the default language: every text); null when it is not a language of the form.',
      args: { locale: t.arg.string({ required: true }) },
      resolve: async (form, { locale }, ctx) => (languagesOf(form).includes(locale) ? translationDocument(await formWithSteps(ctx, form), locale) : null),
    }),
    allowAnotherResponse: t.exposeBoolean('allowAnotherResponse', { description: 'Whether the final screen offers "Submit another response".' }),
  }),
});

builder.queryField('form', (t) =>
  t.field({
    authScopes: { scope: 'forms:read' },
    type: FormRef,
    nullable: true,
    description: "A live form of the caller's environment; null when there is none (or it is another environment's).",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_, { id }, { db, principal }) => {
      if (principal.kind === 'admin') return (await findFormById(db, String(id))) ?? null;
      const { environmentId } = requireApiKey(principal);
      if (!reachesForm(principal, String(id))) return null;
      return (await findForm(db, environmentId, String(id))) ?? null;
    },
  }),
);

// ---------------------------------------------------------------- inputs

const KEPT_ID =
  'updateForm only: the id of a {what} of this form (in any version) to keep, so its answers keep their questionId. Left out: a new id. generateForm and importForm ignore it.';

const ComponentInput = builder.inputType('ComponentInput', {
  description: 'A component: its type and a content object whose shape depends on the type.',
  fields: (t) => ({
    id: t.id({ description: KEPT_ID.replace('{what}', 'component of the same type') }),
    type: t.string({ required: true }),
    content: t.field({ type: 'JSON', required: true }),
    key: t.string({ description: "The name conditions use; unique across the form's components." }),
  }),
});

const FormLimitsInput = builder.inputType('FormLimitsInput', {
  description: 'When the form takes responses and how many; instants ISO 8601 with an offset or Z.',
  fields: (t) => ({
    maxResponses: t.int(),
    opensAt: t.string(),
    closesAt: t.string(),
    closedMessage: t.field({ type: 'LocalizedText', description: 'The text of the closed screen: a string, or one text per language.' }),
    notYetOpenMessage: t.field({ type: 'LocalizedText', description: 'The text of the screen before `opensAt`: a string, or one text per language.' }),
  }),
});
const QUOTAS_INPUT =
  'Up to 20 `{key, condition, limit, action}`: at most `limit` finished responses meeting `condition` (a Condition as JSON); past it `action` ("complete", "invalid" or {goTo: <step key>}) routes the response.';

const FormVariableInput = builder.inputType('FormVariableInput', {
  description: 'A form variable: a name (as a hidden field name), `number` or `text`, and where it starts (default 0 or "").',
  fields: (t) => ({ name: t.string({ required: true }), type: t.string({ required: true, description: '`number` or `text`.' }), initial: t.field({ type: 'JSON' }) }),
});
const LogicRuleInput = builder.inputType('LogicRuleInput', {
  fields: (t) => ({
    // JSON rather than a recursive input type: graphql-jit, which runs the REST adapters' operations, can't
    // compile variables of a self-referencing input type. Its shape is the Condition union's (docs/logic.md).
    if: t.field({
      type: 'JSON',
      required: true,
      description:
        'A condition: `{all: [...]}`, `{any: [...]}`, `{not: ...}`, `{question: <component key>, field?, op, value?}` or `{hidden: <name>, op, value?}` (op: a ConditionOp value).',
    }),
    then: t.field({
      type: 'JSON',
      required: true,
      description: 'One action or a list of them: `{goTo: <step key>}`, `{complete: true}`, `{invalid: true}`, `{calculate: {variable, op, value}}` (at most one that routes).',
    }),
  }),
});
const StepLogicInput = builder.inputType('StepLogicInput', {
  description: 'Rules evaluated in order when the step is submitted (at most 20); `next`: the step when none holds.',
  fields: (t) => ({ rules: t.field({ type: [LogicRuleInput] }), next: t.string() }),
});

const StepInput = builder.inputType('StepInput', {
  fields: (t) => ({
    id: t.id({ description: KEPT_ID.replace('{what}', 'step') }),
    name: t.field({ type: 'LocalizedText', required: true }),
    key: t.string({ description: 'Unique in the form; default `step_<n>` (its 1-based position).' }),
    components: t.field({ type: [ComponentInput], required: true }),
    completion: t.boolean({ description: 'Reaching this step finishes the response (no questions on it).' }),
    invalid: t.boolean({ description: 'Reaching this step marks the response invalid and ends it (no questions on it).' }),
    logic: t.field({ type: StepLogicInput }),
  }),
});

const LANGUAGES_INPUT =
  'A multilingual form: its default language and the others (each a built-in language, at most 20 in all). Its texts may then be given as `{"<locale>": "…"}` objects. Left out: one language, `locale`\'s.';
const FormLanguagesInput = builder.inputType('FormLanguagesInput', {
  fields: (t) => ({
    default: t.string({ required: true, description: 'The language of the texts given as strings.' }),
    others: t.stringList({ description: 'The other languages, each at most once.' }),
  }),
});

const GenerateFormInput = builder.inputType('GenerateFormInput', {
  description: 'The same shape as the body of POST /api/v1/environments/{environmentId}/forms/generate.',
  fields: (t) => ({
    sourceFormId: t.id({ required: true, description: 'A form of the same environment, used as the style template.' }),
    name: t.field({ type: 'LocalizedText', required: true }),
    hiddenFields: t.stringList({ description: 'Names of values a response may bring (page URL query, JSON API), at most 20.' }),
    variables: t.field({ type: [FormVariableInput], description: 'Values the rules calculate (at most 20).' }),
    steps: t.field({ type: [StepInput], required: true, description: 'At least 2 steps.' }),
    locale: t.string({
      description: `The language of the page's own words (buttons, messages, the thank-you and closed screens, \`<html lang>\`): a BCP 47 tag in ${SUPPORTED_LANGUAGES.join(', ')}, a region may follow (de-CH). Default ${DEFAULT_LOCALE}.`,
    }),
    notifications: t.field({ type: FormNotificationsInput, description: 'E-mail alerts to the team and a confirmation to the respondent (docs/notifications.md).' }),
    limits: t.field({ type: FormLimitsInput, description: 'When it takes responses and how many.' }),
    quotas: t.field({ type: 'JSON', description: QUOTAS_INPUT }),
    languages: t.field({ type: FormLanguagesInput, description: LANGUAGES_INPUT }),
    allowAnotherResponse: t.boolean({ description: 'Whether the final screen offers "Submit another response" (a new response from the same browser). Default false.' }),
  }),
});

const GenerateFormPayload = builder.objectRef<Form>('GenerateFormPayload').implement({
  fields: (t) => ({
    success: t.boolean({ resolve: () => true }),
    form: t.field({ type: FormRef, resolve: (form) => form }),
  }),
});

/**
 * Secure by default: a captcha that could never be checked (no secret key, or no site key, for its
 * provider in the environment or on the server) is refused instead of being shown and never verified.
 */
async function refuseUncheckableCaptchas(ctx: GraphQLContext, environmentId: string, steps: GenerateFormInput['steps']) {
  if (!steps.some((step) => step.components.some((component) => isCaptchaType(component.type)))) return;
  const { defaults, box } = captchaKeyringOf(ctx);
  const problems = uncheckableCaptchas(steps, await captchaSettingsForForm(ctx.db, box, defaults, { environmentId, steps }));
  if (problems.length > 0) throw invalidInput(problems);
}

builder.mutationField('generateForm', (t) =>
  t.field({
    authScopes: { scope: 'forms:write' },
    type: GenerateFormPayload,
    description:
      'Creates a published form from a template form of the same environment, inheriting its theme. Honours an `Idempotency-Key` HTTP header (24 h, per environment): a repeat with the same input returns the same form (response header `Idempotent-Replayed: true`); with another input it is UNPROCESSABLE.',
    args: {
      environmentId: t.arg.id({ required: true, description: 'The Site ID.' }),
      input: t.arg({ type: GenerateFormInput, required: true }).validate(generateFormInputSchema),
    },
    resolve: async (_, { environmentId, input }, ctx) => {
      const { db, principal, idempotency } = ctx;
      requireEnvironmentAccess(principal, String(environmentId));
      requireWholeEnvironment(principal, 'create forms');
      await refuseUncheckableCaptchas(ctx, String(environmentId), input.steps);
      const audit = (form: Form) =>
        recordAudit(db, {
          environmentId: form.environmentId,
          actor: actorOf(principal),
          action: 'form.generate',
          targetIds: [form.id, ...(form.sourceFormId ? [form.sourceFormId] : [])],
        });
      if (!idempotency) {
        const form = await generateForm(db, String(environmentId), input);
        await audit(form);
        return form;
      }
      const { form, replayed } = await generateFormIdempotently(db, String(environmentId), input, idempotency.key);
      idempotency.replayed = replayed;
      if (!replayed) await audit(form);
      return form;
    },
  }),
);

const ImportFormInput = builder.inputType('ImportFormInput', {
  description: 'A form stored as given: how template forms get into an environment.',
  fields: (t) => ({
    environmentId: t.id({ required: true }),
    name: t.field({ type: 'LocalizedText', required: true }),
    theme: t.field({
      type: 'JSON',
      description: 'Fonts, colours, background, layout and component styles (docs/components.md, "Themes and style inheritance"); defaults fill what is left out.',
    }),
    hiddenFields: t.stringList(),
    variables: t.field({ type: [FormVariableInput] }),
    steps: t.field({ type: [StepInput], required: true }),
    status: t.field({ type: FormStatusEnum, description: 'Defaults to PUBLISHED.' }),
    locale: t.string({ description: `As in GenerateFormInput; default ${DEFAULT_LOCALE}.` }),
    notifications: t.field({ type: FormNotificationsInput, description: 'As in GenerateFormInput; left out: nobody is notified.' }),
    languages: t.field({ type: FormLanguagesInput, description: 'As in GenerateFormInput.' }),
  }),
});

const importFormInputSchema = withLogicChecks(
  z.object({
    environmentId: z.string(),
    name: importFormNameSchema,
    theme: z.preprocess((v) => v ?? undefined, themeSchema.optional()),
    hiddenFields: importHiddenFieldsSchema,
    variables: importVariablesSchema,
    steps: importStepsSchema,
    status: z.enum(FORM_STATUSES).nullish(),
    locale: formLocaleSchema,
    notifications: notificationsSchema,
    languages: languagesSchema.nullish(),
  }),
);

builder.mutationField('importForm', (t) =>
  t.field({
    authScopes: { scope: 'forms:write' },
    type: FormRef,
    args: { input: t.arg({ type: ImportFormInput, required: true }).validate(importFormInputSchema) },
    resolve: async (_, { input }, ctx) => {
      const { db, principal } = ctx;
      requireEnvironmentAccess(principal, input.environmentId);
      requireWholeEnvironment(principal, 'create forms');
      await refuseUncheckableCaptchas(ctx, input.environmentId, input.steps);
      const form = await importForm(db, {
        environmentId: input.environmentId,
        name: input.name,
        theme: input.theme ?? themeSchema.parse({}),
        steps: input.steps,
        hiddenFields: input.hiddenFields,
        variables: input.variables,
        status: input.status ?? undefined,
        locale: input.locale,
        notifications: input.notifications,
        languages: input.languages,
      });
      await recordAudit(db, { environmentId: form.environmentId, actor: actorOf(principal), action: 'form.import', targetIds: [form.id] });
      return form;
    },
  }),
);

const UpdateFormInput = builder.inputType('UpdateFormInput', {
  description:
    'Any of the definition fields of GenerateFormInput, checked as generate checks them; those left out stay. The same shape as the body of PATCH /api/v1/forms/{formId}.',
  fields: (t) => ({
    name: t.field({ type: 'LocalizedText' }),
    steps: t.field({
      type: [StepInput],
      description: 'The whole new list of steps (at least 2). A step or component with an `id` keeps it; its translations of texts that did not change stay.',
    }),
    hiddenFields: t.stringList({ description: 'The whole new list of hidden fields.' }),
    variables: t.field({ type: [FormVariableInput], description: 'The whole new list of variables.' }),
    locale: t.string({ description: `As in GenerateFormInput; null: ${DEFAULT_LOCALE}.` }),
    notifications: t.field({ type: FormNotificationsInput, description: 'The whole new notifications; null: nobody is notified.' }),
    limits: t.field({ type: FormLimitsInput, description: 'The whole new limits; null: none.' }),
    quotas: t.field({ type: 'JSON', description: `The whole new list of quotas; null: none. ${QUOTAS_INPUT}` }),
    languages: t.field({
      type: FormLanguagesInput,
      description: 'The whole new languages; null: one language. A language dropped takes its translations with it; a new default language takes name and steps written in it.',
    }),
    allowAnotherResponse: t.boolean({ description: 'As in GenerateFormInput; null: false.' }),
  }),
});

const UpdateFormPayload = builder.objectRef<UpdatedForm>('UpdateFormPayload').implement({
  fields: (t) => ({
    success: t.boolean({ resolve: () => true }),
    version: t.exposeInt('version', { description: "The version this update made (a replayed update's, even when newer versions followed)." }),
    form: t.field({ type: FormRef, resolve: (updated) => updated.form }),
  }),
});

builder.mutationField('putFormTranslation', (t) =>
  t.field({
    authScopes: { scope: 'forms:write' },
    type: UpdateFormPayload,
    description:
      'Replaces one of a form\'s other languages\' texts with a flat document `{"<stable path>": "text"}` (Form.translation\'s shape); paths left out become untranslated. A new version like updateForm (`expectedVersion` as there). An unknown path, or placeholders that differ from the default text\'s, is BAD_USER_INPUT with the path.',
    args: {
      id: t.arg.id({ required: true }),
      locale: t.arg.string({ required: true }),
      texts: t.arg({ type: 'JSON', required: true }),
      expectedVersion: t.arg.int({ description: 'The version this change applies to; another one current refuses it (PRECONDITION_FAILED).' }),
    },
    resolve: async (_, { id, locale, texts, expectedVersion }, ctx) => {
      const environmentId = await formEnvironment(ctx, String(id));
      const options = { expectedVersion: expectedVersion ?? undefined, actor: actorOf(ctx.principal), maxVersions: ctx.formMaxVersions };
      return saveTranslation(ctx.db, environmentId, String(id), locale, texts, options);
    },
  }),
);

builder.mutationField('updateForm', (t) =>
  t.field({
    authScopes: { scope: 'forms:write' },
    type: UpdateFormPayload,
    description:
      "Changes a live form's name, steps or hidden fields: a new version (one more than the current); its id, url, status and theme stay. Responses already started finish on the version they started on; new ones get this one. `expectedVersion` (REST: `If-Match`): when another version is current, nothing changes and the error is PRECONDITION_FAILED. Honours an `Idempotency-Key` HTTP header like generateForm. Recorded in the audit log; sends a `form.updated` webhook event.",
    args: {
      id: t.arg.id({ required: true }),
      input: t.arg({ type: UpdateFormInput, required: true }).validate(updateFormInputSchema),
      expectedVersion: t.arg.int({ description: 'The version this update changes; another one current refuses it (PRECONDITION_FAILED).' }),
    },
    resolve: async (_, { id, input, expectedVersion }, ctx) => {
      const environmentId = await formEnvironment(ctx, String(id));
      if (input.steps) await refuseUncheckableCaptchas(ctx, environmentId, input.steps);
      const options = { expectedVersion: expectedVersion ?? undefined, actor: actorOf(ctx.principal), maxVersions: ctx.formMaxVersions };
      if (!ctx.idempotency) return updateForm(ctx.db, environmentId, String(id), input, options);
      const updated = await updateFormIdempotently(ctx.db, environmentId, String(id), input, options, ctx.idempotency.key);
      ctx.idempotency.replayed = updated.replayed;
      return updated;
    },
  }),
);

const DeleteFormPayload = builder.objectRef<Form>('DeleteFormPayload').implement({
  fields: (t) => ({ id: t.exposeID('id'), deleted: t.boolean({ resolve: (form) => form.deletedAt !== null }) }),
});

builder.mutationField('deleteForm', (t) =>
  t.field({
    authScopes: { scope: 'forms:write' },
    type: DeleteFormPayload,
    description: 'Soft-deletes a form: it is no longer served and can no longer be a template.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_, { id }, { db, principal }) => {
      requireFormReach(principal, String(id));
      const environmentId = principal.kind === 'admin' ? (await findFormById(db, String(id)))?.environmentId : requireApiKey(principal).environmentId;
      if (environmentId === undefined) throw notFound('Form not found');
      const form = await deleteForm(db, environmentId, String(id));
      await recordAudit(db, { environmentId, actor: actorOf(principal), action: 'form.delete', targetIds: [form.id] });
      return form;
    },
  }),
);

/** The environment a form mutation acts in: the API key's, or (admin token) the form's own. */
async function formEnvironment(ctx: GraphQLContext, id: string): Promise<string> {
  requireFormReach(ctx.principal, id);
  const environmentId = ctx.principal.kind === 'admin' ? (await findFormById(ctx.db, id))?.environmentId : requireApiKey(ctx.principal).environmentId;
  if (environmentId === undefined) throw notFound('Form not found');
  return environmentId;
}

async function setStatusAudited(ctx: GraphQLContext, id: string, status: 'closed' | 'published') {
  const environmentId = await formEnvironment(ctx, id);
  const form = await setFormStatus(ctx.db, environmentId, id, status);
  await recordAudit(ctx.db, { environmentId, actor: actorOf(ctx.principal), action: status === 'closed' ? 'form.close' : 'form.reopen', targetIds: [id] });
  return form;
}

builder.mutationField('closeForm', (t) =>
  t.field({
    authScopes: { scope: 'forms:write' },
    type: FormRef,
    description:
      'Closes a published form to new responses: its page shows "no longer accepting responses" and public submissions are refused (410). Its responses stay readable; it can still be a template. Closing a closed form changes nothing; a draft cannot be closed (CONFLICT).',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_, { id }, ctx) => setStatusAudited(ctx, String(id), 'closed'),
  }),
);

builder.mutationField('reopenForm', (t) =>
  t.field({
    authScopes: { scope: 'forms:write' },
    type: FormRef,
    description: 'Publishes a closed form again. Reopening a published form changes nothing; a draft cannot be reopened (CONFLICT).',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_, { id }, ctx) => setStatusAudited(ctx, String(id), 'published'),
  }),
);

// ---------------------------------------------------------------- listings and lineage

export const FormConnection = builder.connectionObject(
  {
    type: FormRef,
    name: 'FormConnection',
    description: 'A page of forms, newest first (created_at DESC, id DESC).',
    edgesNullable: { list: false, items: false },
    nodeNullable: false,
  },
  { name: 'FormEdge' },
);

const FormFilterInput = builder.inputType('FormFilter', {
  description: 'Which forms a listing holds. Deleted forms are never listed.',
  fields: (t) => ({
    status: t.field({ type: FormStatusEnum, description: 'Only forms in this state.' }),
    nameContains: t.string({ description: 'Only forms whose name contains this text (case-insensitive).' }),
  }),
});

/** The arguments of every listing of forms (an environment's, a template's generated forms). */
export const formListingArgs = builder.args((t) => ({
  filter: t.field({ type: FormFilterInput }),
  first: t.int({ defaultValue: DEFAULT_PAGE_SIZE, description: `Page size, 1 to ${MAX_PAGE_SIZE}.` }),
  after: t.string({ description: '`endCursor` of the previous page.' }),
}));

/** A listing of forms' arguments checked (BAD_USER_INPUT listing every problem). */
export function checkFormListingArgs(args: PageArgs & { filter?: { status?: Form['status'] | null; nameContains?: string | null } | null }) {
  const errors: FieldError[] = [];
  const nameContains = args.filter?.nameContains ?? undefined;
  if (nameContains !== undefined && nameContains.length > 200) errors.push({ message: 'nameContains must be at most 200 characters', path: ['filter', 'nameContains'] });
  const { first, after } = checkPageArgs(args, errors);
  return { filter: { status: args.filter?.status ?? undefined, nameContains }, first, after };
}

builder.objectFields(FormRef, (t) => ({
  sourceForm: t.field({
    type: FormRef,
    nullable: true,
    description: 'The template this form was generated from; null for an imported form, or when the template was deleted.',
    resolve: (form) => form.sourceFormId,
  }),
  generatedForms: t.loadable({
    type: FormConnection,
    description: 'The forms generated from this one as their template (deleted ones excepted), newest first.',
    args: formListingArgs,
    complexity: pageComplexity,
    byPath: true,
    load: async (formIds: string[], ctx: GraphQLContext, args) => {
      const { filter, first, after } = checkFormListingArgs(args);
      // The parents were loaded within the caller's scope, and a generated form shares its template's environment.
      const pages = await generatedFormPages(ctx.db, formIds, { filter: { ...filter, ...formsFilterOf(ctx.principal) }, after, limit: first });
      return pages.map((page) => keysetConnection(page.rows, page.hasNextPage, after !== undefined));
    },
    resolve: (form) => form.id,
  }),
}));
