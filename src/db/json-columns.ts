/**
 * What the tables' JSON columns hold: a form's steps and theme, a response's answers and metadata.
 * The domains build and check these values (the component modules, forms/theme.ts, the responses
 * services); the tables only store them, so their shapes are declared here, below every domain.
 */

/** A component of a stored form. */
export interface StoredComponent {
  /** Stable id; the `questionId` of this component's answers. */
  id: string;
  /** The name conditions use (unique in the form); answers carry it beside `questionId`. */
  key?: string;
  type: string;
  content: Record<string, unknown>;
  /** Its texts in the form's other languages: content path (`question`, `options.2`) → locale → text (src/forms/translations.ts). */
  texts?: TextTranslations;
}

/** Texts in a multilingual form's other languages: a text's path → locale → text. The default language's text stays where it is. */
export type TextTranslations = Record<string, Record<string, string>>;

/** A multilingual form's languages: the default (its texts stand in the definition) and the others (at most 19). */
export interface FormLanguages {
  default: string;
  others: string[];
}

export interface StoredStep {
  id: string;
  /**
   * The step's key, unique in the form (what `goTo`, `next` and a response's `meta.path` name). Forms
   * generated before keys existed have none: read it with `stepKey` (src/forms/logic.ts).
   */
  key?: string;
  name: string;
  components: StoredComponent[];
  /** The step's name in the form's other languages (`name` → locale → text). */
  texts?: TextTranslations;
  /** Reaching this step finishes the response; it is shown as the final screen. */
  completion?: boolean;
  /** Reaching this step marks the response invalid and ends it; it is shown as the final screen. */
  invalid?: boolean;
  logic?: StepLogic;
}

// A step's logic as stored (what src/components/conditions.ts and src/forms/logic.ts read).
export const CONDITION_OPS = [
  'equals',
  'notEquals',
  'contains',
  'notContains',
  'in',
  'notIn',
  'greaterThan',
  'lessThan',
  'greaterOrEqual',
  'lessOrEqual',
  'between',
  'before',
  'after',
  'answered',
  'notAnswered',
] as const;
export type ConditionOp = (typeof CONDITION_OPS)[number];

/** A value a condition compares with (`value`): text, a number, a boolean, or (for `in`/`notIn`, and `between`'s `[low, high]`) a list of text or numbers. */
export type ConditionValue = string | number | boolean | (string | number)[];

/** A leaf on an answer: `question` is a component's `key`; `field` an IdentityInfo field key. */
export interface QuestionCondition {
  question: string;
  field?: string;
  op: ConditionOp;
  value?: ConditionValue;
}
/** A leaf on a hidden field's value. */
export interface HiddenCondition {
  hidden: string;
  op: ConditionOp;
  value?: ConditionValue;
}
/** A leaf on a form variable's value as the rules before it left it. */
export interface VariableCondition {
  variable: string;
  op: ConditionOp;
  value?: ConditionValue;
}
export type Condition = { all: Condition[] } | { any: Condition[] } | { not: Condition } | QuestionCondition | HiddenCondition | VariableCondition;

/** Where a rule that holds sends the response: a later step, or an end (completed or invalid). */
export type RouteAction = { goTo: string } | { complete: true } | { invalid: true };

export const CALCULATION_OPS = ['set', 'add', 'subtract', 'multiply', 'divide', 'append'] as const;
export type CalculationOp = (typeof CALCULATION_OPS)[number];
/** What a calculation takes: a constant, a question's answer, the scores of its chosen options, or a variable. */
export type CalculationValue = number | string | { question: string } | { scoreOf: string } | { variable: string };
/** Changes a form variable when its rule holds. */
export interface CalculateAction {
  calculate: { variable: string; op: CalculationOp; value: CalculationValue };
}
export type LogicAction = RouteAction | CalculateAction;

export interface LogicRule {
  if: Condition;
  /** One action or a list of them, as given. */
  then: LogicAction | LogicAction[];
}

/** A form variable (`forms.variables`): a number or a text the rules calculate, starting at `initial`. */
export interface FormVariable {
  name: string;
  type: 'number' | 'text';
  initial: number | string;
}
export type VariableValues = Record<string, number | string>;

/** When a form takes responses and how many (`forms.limits`); instants as ISO 8601 UTC. */
export interface FormLimits {
  /** Finished responses the form takes; then it is full. */
  maxResponses?: number | undefined;
  /** Before it the form is not open yet. */
  opensAt?: string | undefined;
  /** From it on the form is closed: started responses can finish until then. */
  closesAt?: string | undefined;
  /** The text of the closed screen (else the page's own words). */
  closedMessage?: string | undefined;
  /** The text of the screen before `opensAt` (else the page's own words); the opening time is shown below it. */
  notYetOpenMessage?: string | undefined;
  /** A multilingual form's translations of the messages: message → locale → text (the default language's stands above). */
  texts?: TextTranslations | undefined;
}

/** What a full quota does with a response that would pass its limit: finish it, mark it invalid, or send it to a step. */
export type QuotaAction = 'complete' | 'invalid' | { goTo: string };

/** At most `limit` finished responses meeting `condition` (`forms.quotas`). */
export interface FormQuota {
  key: string;
  condition: Condition;
  limit: number;
  action: QuotaAction;
}

/** A step's logic: rules evaluated in order when the step is submitted; `next` when none holds (default: the next step). */
export interface StepLogic {
  rules: LogicRule[];
  next?: string;
}

/** How one component type is styled (every value CSS-safe; forms/theme.ts checks them). */
export interface ComponentStyle {
  backgroundColor?: string | undefined;
  textColor?: string | undefined;
  borderColor?: string | undefined;
  accentColor?: string | undefined;
  borderRadius?: number | undefined;
  fontSize?: number | undefined;
}

/** A form's theme (forms/theme.ts: its schema, defaults and inheritance). */
export interface Theme {
  fonts: { heading: string; body: string };
  colors: { primary: string; background: string; text: string; buttonText: string };
  background: { type: 'color'; color: string } | { type: 'gradient'; from: string; to: string; angle: number } | { type: 'image'; url: string; overlay?: string | undefined };
  layout: { align: 'left' | 'center'; width: 'narrow' | 'medium' | 'wide'; showProgressBar: boolean; logoUrl?: string | undefined };
  /** Styles per component type; keys are stored component types. */
  componentStyles: Record<string, ComponentStyle>;
}

/** One answer: `response` has `type`, `componentShapeVersion`, `headline` and the type's fields (responses/shapes.ts). */
export interface ResponseAnswer {
  questionId: string;
  /** The component's key, when it has one (docs/logic.md). */
  key?: string;
  response: { type: string; componentShapeVersion?: string; headline?: string; [field: string]: unknown };
}

export interface ResponseMeta {
  /** Where the response came from: the public page or the public JSON API. */
  source?: 'page' | 'api';
  userAgent?: string;
  /** The version of the form's definition the response started on, and is answered on until it finishes. */
  formVersion?: number;
  /** The keys of the steps the response went through, in order (docs/logic.md). */
  path?: string[];
  /** The declared hidden fields it brought, by name. */
  hiddenFields?: Record<string, string>;
  /** The keys of the quotas a finished response counts toward. */
  quotas?: string[];
  /** The quota that was full when the response would have finished, and routed it by its action. */
  quotaFull?: string;
  /** The form variables as the rules along its path left them (forms with variables). */
  variables?: VariableValues;
  /** The language it was answered in: one of its form's languages (a one-language form: its locale). */
  language?: string;
  /** Set when the response reached an invalid step or action: it has ended, unfinished (status 5). */
  invalid?: true;
  [key: string]: unknown;
}

/**
 * What a response adds to its form's insight counters (src/insights/): the counter row it is counted in
 * (the hour it started, its segment) and the metrics it counts in it now. A submission changes the
 * counters by the difference between the metrics before and after; a deletion takes them off.
 */
export interface ResponseInsight {
  /** The start of the UTC hour the response started in. */
  hour: string;
  /** The segment's id: a hash of the dimensions below. */
  segment: string;
  device: string;
  language: string;
  /** The referring page's host ('' when none). */
  referrer: string;
  hidden: Record<string, string>;
  /** `starts`, `finishes`, `invalid`, `reached:<step key>`, `left:<step key>`, `ttc:<seconds>`. */
  metrics: string[];
}

/** The `version` of a response's format (the response object's `version`). */
export const RESPONSE_FORMAT_VERSION = '2.0';

/** The response events a team alert may be sent on. */
export const TEAM_NOTIFICATION_EVENTS = ['response.finished', 'response.invalid'] as const;
export type TeamNotificationEvent = (typeof TEAM_NOTIFICATION_EVENTS)[number];

/** An alert to the team (forms.notifications.team[]). */
export interface TeamNotification {
  to: string[];
  on: TeamNotificationEvent[];
  includeAnswers: boolean;
  subject?: string | undefined;
}

/** A confirmation to the respondent, at the address their answer `emailFrom` gave. */
export interface RespondentNotification {
  enabled: boolean;
  /** An EmailForm's key, or `<IdentityInfo key>.emailAddress` / `.workEmailAddress`. */
  emailFrom: string;
  subject: string;
  body: string;
  includeAnswers: boolean;
}

/** forms.notifications: who hears of the form's responses by e-mail. */
export interface FormNotifications {
  team: TeamNotification[];
  respondent?: RespondentNotification | undefined;
}
