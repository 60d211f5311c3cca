/**
 * Who a submission notifies: the team rules of the form that take the event (one delivery per
 * address), and the respondent's confirmation when the response finished with an address at
 * `emailFrom`. Addresses are compared without case, so an address listed twice gets one message.
 */
import { isEmail } from '../components/answers.ts';
import type { FormNotifications, ResponseAnswer, StoredStep } from '../db/json-columns.ts';
import type { NewNotification } from '../events/outbox.ts';
import { emailSource } from './settings.ts';

export interface NotifiedResponse {
  id: string;
  data: readonly ResponseAnswer[];
}

/** `finished` and `invalid`: whether this change finished the response, or ended it at an invalid step. */
export function notificationsOf(
  form: { notifications: FormNotifications | null; steps: readonly StoredStep[] },
  response: NotifiedResponse,
  ended: { finished: boolean; invalid: boolean },
): NewNotification[] {
  const settings = form.notifications;
  if (!settings) return [];
  const trigger = ended.finished ? 'response.finished' : ended.invalid ? 'response.invalid' : undefined;
  if (!trigger) return [];
  const list: NewNotification[] = [];
  settings.team.forEach((rule, index) => {
    if (!rule.on.includes(trigger)) return;
    for (const address of new Set(rule.to.map((to) => to.toLowerCase()))) {
      list.push({
        kind: 'team',
        trigger,
        responseId: response.id,
        recipient: address,
        rule: { includeAnswers: rule.includeAnswers, subject: rule.subject },
        dedupeKey: `team:${trigger}:${index}:${address}`,
      });
    }
  });
  const respondent = settings.respondent;
  const address = respondent?.enabled && ended.finished ? respondentAddress(form.steps, response.data, respondent.emailFrom) : undefined;
  if (respondent && address) {
    list.push({
      kind: 'respondent',
      trigger,
      responseId: response.id,
      recipient: address,
      rule: { includeAnswers: respondent.includeAnswers, subject: respondent.subject, body: respondent.body },
      dedupeKey: 'respondent',
    });
  }
  return list;
}

/** The address the respondent gave at `emailFrom`, if it is one (lower case). */
function respondentAddress(steps: readonly StoredStep[], data: readonly ResponseAnswer[], emailFrom: string): string | undefined {
  const components = steps.flatMap((step) => step.components);
  const source = emailSource(components, emailFrom);
  const component = source && components.find((c) => c.key === source.key);
  if (!source || !component) return undefined;
  const answer = data.find((entry) => entry.questionId === component.id);
  const value = answer?.response[source.field];
  return typeof value === 'string' && isEmail(value.trim()) ? value.trim().toLowerCase() : undefined;
}
