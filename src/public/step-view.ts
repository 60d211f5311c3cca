/** Sending one step of the form as a page: for the step page, and for a step post whose input comes back with messages. */
import { captchaSettingsForForm } from '../environments/captcha-keys.service.ts';
import type { Form } from '../forms/forms.service.ts';
import { languageName, localizeMessage } from '../i18n/locales.ts';
import { answerInLanguage, languagesOf, localizeForm } from '../forms/translations.ts';
import { pageHref, type LanguageLink } from '../components/markup.ts';
import type { WalkedPath } from '../responses/path.ts';
import { emailOf, nameOf } from '../responses/shapes.ts';
import type { ResponseRow } from '../responses/submissions.service.ts';
import { newNonce, pageCsp, sendHtml } from './html-response.ts';
import { carried, hiddenQuery, hiddenValues, type PageRequest } from './page-request.ts';
import { recallLookup } from '../responses/recall-values.ts';
import { withRecall } from './recall-view.ts';
import { frameOrigins, renderStepPage, scriptOrigins, type FieldMessages, type StepPageInput } from './render.ts';
import { referrerQuery } from './views.ts';

/** What a step shows: the values in its fields, messages at them and above, and where the response is. */
export interface StepView {
  values: Map<string, unknown>;
  errors?: FieldMessages;
  notices?: StepPageInput['notices'];
  data: ResponseRow['data'];
  walked: WalkedPath;
  /** No response yet: the step's post carries the hidden fields and the referrer. */
  starting: boolean;
  /** The hidden fields the response brought (a starting one: those of the address). */
  hiddenFields?: Record<string, string> | undefined;
}

export async function sendStep(page: PageRequest, form: Form, stepIndex: number, view: StepView, status = 200): Promise<Response> {
  const { c, deps } = page;
  const { config } = deps;
  await page.framedBy();
  const nonce = newNonce();
  // The texts in the respondent's language, before anything reads them (src/forms/translations.ts).
  const shown = localizeForm(form, page.language);
  // Validation messages are written in English; the page shows them in its language.
  const errors: FieldMessages = new Map([...(view.errors ?? [])].map(([key, messages]) => [key, messages.map((message) => localizeMessage(shown.locale, message))]));
  const step = form.steps[stepIndex]!;
  // Stored choices are in the default language's words; the fields show them in the page's.
  const values = new Map(step.components.map((component) => [component.id, answerInLanguage(component, view.values.get(component.id), page.language)] as const));
  const actionQuery = view.starting ? hiddenQuery(form, c) + referrerQuery(c) : '';
  // Recall fills the chosen language's texts (translation first, then the respondent's values).
  const hidden = view.starting ? hiddenValues(form, c) : (view.hiddenFields ?? {});
  const lookup = recallLookup({ data: view.data, meta: { hiddenFields: hidden, variables: view.walked.variables } }, { form, language: page.language, written: true });
  const rendered = await renderStepPage({
    form: withRecall(shown, stepIndex, lookup),
    stepIndex,
    values,
    errors,
    notices: view.notices ?? [],
    backStep: stepBefore(view.walked, stepIndex),
    actionQuery,
    prefill: { email: emailOf(view.data), name: nameOf(view.data) },
    host: new URL(c.req.url).host,
    nonce,
    fontsCssUrl: config.fontsCssUrl,
    carry: carried(page),
    embed: page.session.embed,
    languages: languageLinks(page, form, `step=${stepIndex}${view.starting ? hiddenQuery(form, c) : ''}`),
    captcha: await captchaSettingsForForm(deps.db, deps.secretBox, config.captcha, {
      environmentId: form.environmentId,
      steps: [step],
    }),
  });
  const csp = pageCsp(nonce, {
    fontsCssUrl: config.fontsCssUrl,
    frameOrigins: frameOrigins(step),
    scriptOrigins: scriptOrigins(step),
  });
  return sendHtml(c, rendered.toString(), status, csp);
}

/** The language switcher of a multilingual form: a link to this page in each of its languages (none for one language). */
function languageLinks(page: PageRequest, form: Form, query: string): LanguageLink[] | undefined {
  if (!form.languages) return undefined;
  return languagesOf(form).map((language) => ({
    language,
    name: languageName(language),
    href: pageHref(form.id, `${query}&lang=${language}`, { carry: page.session.carry() }),
    current: language === page.language,
  }));
}

/** The step before `index` on the path (the back link): undefined for the first. */
function stepBefore(walked: WalkedPath, index: number): number | undefined {
  const at = walked.path.indexOf(index);
  const before = at === -1 ? walked.path.at(-1) : walked.path[at - 1];
  return before !== undefined && before < index ? before : undefined;
}
