/**
 * The component catalogue: every component module, and lookups over them. Adding a type means one
 * new module and one line here. An input type not listed is a 400.
 */
import { aiChatbot } from './ai-chatbot.ts';
import { buttons } from './buttons.ts';
import { dateQuestion } from './date.ts';
import { captchas } from './captchas.ts';
import type { ContentRules } from './content.ts';
import { disclaimer } from './disclaimer.ts';
import { dropdown } from './dropdown.ts';
import { emailForm } from './email-form.ts';
import { fileUploader } from './file-uploader.ts';
import { graphicOptionsModule } from './graphic-options.ts';
import { header } from './header.ts';
import { identityInfo } from './identity-info.ts';
import { matrix } from './matrix.ts';
import type { AnswerRules, AnswerShapes, ComponentModule } from './module.ts';
import type { StoredComponent } from '../db/json-columns.ts';
import { multipleOptions } from './multiple-options.ts';
import { nps } from './nps.ts';
import { numberQuestion } from './number.ts';
import { opinionScale } from './opinion-scale.ts';
import { passwords } from './passwords.ts';
import { ranking } from './ranking.ts';
import { rating } from './rating.ts';
import { schedulers } from './schedulers.ts';
import { textInputs } from './text-input.ts';

export const COMPONENT_MODULES: readonly ComponentModule[] = [
  textInputs,
  identityInfo,
  dropdown,
  multipleOptions,
  schedulers,
  buttons,
  header,
  disclaimer,
  emailForm,
  fileUploader,
  graphicOptionsModule,
  passwords,
  captchas,
  aiChatbot,
  rating,
  nps,
  opinionScale,
  numberQuestion,
  dateQuestion,
  matrix,
  ranking,
];

const moduleByType = new Map<string, ComponentModule>();
for (const module of COMPONENT_MODULES) {
  for (const type of Object.keys(module.types)) {
    if (moduleByType.has(type)) throw new Error(`Component type ${type} is listed by two modules`);
    moduleByType.set(type, module);
  }
}

/** Every accepted input type with its content rules. */
export const COMPONENT_CATALOGUE: Readonly<Record<string, ContentRules>> = Object.fromEntries(COMPONENT_MODULES.flatMap((module) => Object.entries(module.types)));
export const COMPONENT_TYPES = Object.keys(COMPONENT_CATALOGUE);
/** Types that may appear in a stored form (older names are stored under their current name). */
export const STORED_COMPONENT_TYPES = COMPONENT_TYPES.filter((type) => !COMPONENT_CATALOGUE[type]!.storedType);

/** The stored types whose components take uploaded files (their module's `uploads`). */
export const UPLOAD_TYPES = STORED_COMPONENT_TYPES.filter((type) => moduleByType.get(type)?.uploads !== undefined);

/** The module of a (stored or input) component type; undefined for a type no module knows. */
export const moduleOf = (type: string): ComponentModule | undefined => moduleByType.get(type);

/** Whether `component` guards the form (a captcha, a required consent: ComponentModule.guards). */
export const isGuard = (component: StoredComponent): boolean => moduleByType.get(component.type)?.guards?.(component) === true;

/** How a stored type is answered; undefined when it takes no answer (or is only an input name). */
export const answerRulesOf = (type: string): AnswerRules | undefined => (COMPONENT_CATALOGUE[type]?.storedType === undefined ? moduleByType.get(type)?.answer : undefined);

/** Whether a component of this type takes an answer (and so records one). */
export const isAnswerable = (type: string): boolean => answerRulesOf(type) !== undefined;

/** The stored types that take an answer, each with its answer's shapes (the OpenAPI document's). */
export const ANSWER_SHAPES: ReadonlyMap<string, AnswerShapes> = new Map(
  STORED_COMPONENT_TYPES.flatMap((type) => {
    const rules = answerRulesOf(type);
    return rules ? [[type, rules.shapes] as const] : [];
  }),
);
