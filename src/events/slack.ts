/**
 * The `slack` webhook format: `{text, blocks}` that Slack's and Mattermost's incoming webhooks show (the
 * form's name, the lead's e-mail, the answers when the endpoint asks for them). Everything taken from a
 * response or a form is escaped as Slack asks (`&`, `<`, `>`), so an answer's `<!channel>`, `<@U…>` or
 * `<https://…|link>` is shown as typed and never notifies anyone or becomes a link.
 */
import type { EventPayload } from './outbox.ts';
import type { ResponseAnswer } from '../db/json-columns.ts';
import { answerCell } from '../responses/export.ts';
import { emailOf } from '../responses/shapes.ts';

/** Slack's control characters in text (its "escaping text" rules). */
export const escapeSlack = (text: string): string => text.replace(/[&<>]/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[char]!);

/** A section's text is at most 3000 characters; answers past that are cut. */
const MAX_SECTION_TEXT = 3_000;
const MAX_ANSWER_TEXT = 500;

const TITLES: Record<string, string> = {
  'response.created': 'New response',
  'response.updated': 'Response updated',
  'response.finished': 'Response finished',
  'form.generated': 'Form generated',
  'form.updated': 'Form updated',
  'webhook.test': 'Test message from formloom',
};

interface ResponseData {
  id?: unknown;
  data?: {
    questionId?: unknown;
    response?: { type?: unknown; headline?: unknown; emailAddress?: unknown; [field: string]: unknown };
  }[];
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * The lead's e-mail, picked as everywhere else in the product (`emailOf`: the component modules' ranking,
 * so an IdentityInfo's `emailAddress` before its `workEmailAddress` before an EmailForm's address).
 */
function leadEmailOf(data: ResponseData): string | undefined {
  const answers = (data.data ?? []).filter((answer): answer is ResponseAnswer => typeof answer.response?.type === 'string');
  return emailOf(answers);
}

function answerLines(data: ResponseData): string[] {
  return (data.data ?? []).flatMap((answer) => {
    const response = answer.response;
    if (!response || typeof response.type !== 'string') return [];
    const value = answerCell(response.type, response);
    // Modules whose answers export as nothing (passwords) show nothing.
    if (value === '') return [];
    const label = typeof response.headline === 'string' && response.headline !== '' ? response.headline : String(answer.questionId);
    return [`*${escapeSlack(clip(label, 200))}*: ${escapeSlack(clip(value, MAX_ANSWER_TEXT))}`];
  });
}

export function slackBody(payload: EventPayload, context: { formName: string | null; includeAnswers: boolean }): { text: string; blocks: unknown[] } {
  const title = TITLES[payload.type] ?? payload.type;
  const form = context.formName === null ? '' : `: ${context.formName}`;
  const data = (payload.data ?? {}) as ResponseData;
  const email = payload.type.startsWith('response.') ? leadEmailOf(data) : undefined;
  const text = escapeSlack(`${title}${form}${email ? ` (${email})` : ''}`);
  const fields = [
    ...(context.formName === null ? [] : [`*Form*: ${escapeSlack(context.formName)}`]),
    ...(email ? [`*E-mail*: ${escapeSlack(email)}`] : []),
    `*When*: ${escapeSlack(payload.timestamp)}`,
  ];
  const answers = context.includeAnswers && payload.type.startsWith('response.') ? answerLines(data) : [];
  const blocks: unknown[] = [
    { type: 'header', text: { type: 'plain_text', text: clip(`${title}${form}`, 150), emoji: false } },
    { type: 'section', text: { type: 'mrkdwn', text: clip(fields.join('\n'), MAX_SECTION_TEXT) } },
    ...(answers.length > 0 ? [{ type: 'section', text: { type: 'mrkdwn', text: clip(answers.join('\n'), MAX_SECTION_TEXT) } }] : []),
  ];
  return { text, blocks };
}
