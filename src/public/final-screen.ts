/** `GET /s/:formId?done=1`: the final screen of an ended response, the step that ended it or the default one. */
import type { Form } from '../forms/forms.service.ts';
import { currentPath, type ResponseRow } from '../responses/submissions.service.ts';
import { newNonce, pageCsp, sendHtml } from './html-response.ts';
import { carried, type PageRequest } from './page-request.ts';
import { localizeForm } from '../forms/translations.ts';
import { frameOrigins, renderFinalPage, scriptOrigins } from './render.ts';
import { recallLookup } from '../responses/recall-values.ts';
import { withRecall } from './recall-view.ts';

export async function sendFinalScreen(page: PageRequest, form: Form, response: ResponseRow): Promise<Response> {
  const { fontsCssUrl } = page.deps.config;
  await page.framedBy();
  const nonce = newNonce();
  const state = response.finished ? 'completed' : 'invalid';
  const walked = currentPath(form, response);
  const last = walked.path.at(-1);
  // The final step's texts in the page's language, then recalling the respondent's values (its score, its name).
  const localized = localizeForm(form, page.language);
  const shown =
    last === undefined
      ? localized
      : withRecall(
          localized,
          last,
          recallLookup({ data: response.data, meta: { ...response.meta, variables: walked.variables } }, { form, language: page.language, written: true }),
        );
  const step = last === undefined ? undefined : shown.steps[last];
  const chrome = { nonce, fontsCssUrl, carry: carried(page), embed: page.session.embed };
  const rendered = await renderFinalPage(shown, chrome, {
    state,
    responseId: response.id,
    step: last !== undefined && (step?.completion || step?.invalid) ? shown.steps[last] : undefined,
  });
  const csp = pageCsp(nonce, {
    fontsCssUrl,
    frameOrigins: step ? frameOrigins(step) : [],
    scriptOrigins: step ? scriptOrigins(step) : [],
  });
  return sendHtml(page.c, rendered.toString(), 200, csp);
}
