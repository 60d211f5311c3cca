/**
 * `GET /s/:formId[?step=N]`: shows a step. Without `?step`, a returning browser continues its unfinished
 * response at its next step; a step neither on the response's path nor its next step redirects there;
 * steps on the path show the stored answers (not passwords). `?done=1` shows an ended response's final
 * screen; visiting the form again after it ended (or `?new=1`) starts a new response.
 */
import { isInvalidResponse } from '../responses/model.ts';
import { answerOf } from '../responses/shapes.ts';
import { currentPath, findSessionResponse } from '../responses/submissions.service.ts';
import { formForResponse } from './context.ts';
import { sendFinalScreen } from './final-screen.ts';
import { currentStep, formPath, hiddenQuery, hiddenValues, mayShow, parseStep, type PageRequest } from './page-request.ts';
import { sendStep } from './step-view.ts';
import { countPageView } from './views.ts';

export async function showStepPage(page: PageRequest): Promise<Response> {
  const { c, deps, current, session } = page;
  session.lead();
  const query = c.req.query();
  if (query.new !== undefined) {
    session.start();
    return c.redirect(formPath(page, hiddenQuery(current, c).replace(/^&/, '')), 303);
  }
  const known = session.sessionId ? await findSessionResponse(deps.db, current.id, session.sessionId) : undefined;
  const ended = known !== undefined && (known.finished || isInvalidResponse(known.meta));
  if (query.done !== undefined) {
    if (!known || !ended) return c.redirect(formPath(page), 303);
    return sendFinalScreen(page, await formForResponse(deps.db, deps.config, current, known), known);
  }
  // An ended response stays as it is; coming back starts a new one.
  if (!session.sessionId || ended) session.start();
  const response = ended ? undefined : known;
  // An unfinished response is shown the version it started on; a new one the current version.
  const form = await formForResponse(deps.db, deps.config, current, response);
  const walked = currentPath(form, response);
  const at = currentStep(walked);
  const requested = parseStep(query.step, form);
  if (query.step !== undefined && (requested === undefined || !mayShow(form, walked, requested))) {
    return c.redirect(formPath(page, `step=${at}${response ? '' : hiddenQuery(form, c)}`), 303);
  }
  const stepIndex = requested ?? at;
  const stored = new Map((response?.data ?? []).map((a) => [a.questionId, a.response] as const));
  const values = new Map(form.steps[stepIndex]!.components.map((component) => [component.id, answerOf(component, stored.get(component.id))] as const));
  // A new respondent shown where the form starts: a view (src/public/views.ts).
  if (!response && stepIndex === at) await countPageView(deps, c, form, hiddenValues(form, c), page.language);
  return sendStep(page, form, stepIndex, { values, data: response?.data ?? [], walked, starting: !response, hiddenFields: response?.meta.hiddenFields });
}
