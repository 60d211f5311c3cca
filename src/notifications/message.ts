/**
 * The e-mail a delivery sends: multipart text and HTML, in the response's language. Only the team's own
 * text (the form's name, a rule's subject) and fixed words go into headers; whatever a respondent
 * typed goes only into the bodies, HTML-escaped in the HTML part. Answers only when the rule says so,
 * as the respondent saw them (in their language), passwords never, files as signed links.
 */
import type Mail from 'nodemailer/lib/mailer';
import type { ResponseAnswer, ResponseMeta } from '../db/json-columns.ts';
import { recall } from '../forms/recall.ts';
import { answersAsShown, recallLookup, type RecallShown } from '../responses/recall-values.ts';
import type { NotificationKind } from '../db/schema.ts';
import { languageOf, localizeInstant, type Language } from '../i18n/locales.ts';
import { answerCell } from '../responses/export.ts';

interface Words {
  teamSubject: (form: string) => string;
  invalidSubject: (form: string) => string;
  teamIntro: (form: string, at: string) => string;
  invalidIntro: (form: string, at: string) => string;
  link: string;
  answers: string;
  noAnswers: string;
  automatic: string;
}

const WORDS: Record<Language, Words> = {
  en: {
    teamSubject: (form) => `New response: ${form}`,
    invalidSubject: (form) => `Response ended at an invalid step: ${form}`,
    teamIntro: (form, at) => `A response to “${form}” arrived at ${at}.`,
    invalidIntro: (form, at) => `A response to “${form}” ended at an invalid step at ${at}.`,
    link: 'The response in the API',
    answers: 'Answers',
    noAnswers: 'This message leaves the answers out; read them in the API.',
    automatic: 'This message was sent automatically.',
  },
  de: {
    teamSubject: (form) => `Neue Antwort: ${form}`,
    invalidSubject: (form) => `Antwort an einem ungültigen Schritt beendet: ${form}`,
    teamIntro: (form, at) => `Eine Antwort auf „${form}“ ist am ${at} eingegangen.`,
    invalidIntro: (form, at) => `Eine Antwort auf „${form}“ endete am ${at} an einem ungültigen Schritt.`,
    link: 'Die Antwort in der API',
    answers: 'Antworten',
    noAnswers: 'Diese Nachricht enthält die Antworten nicht; sie stehen in der API.',
    automatic: 'Diese Nachricht wurde automatisch versandt.',
  },
  fr: {
    teamSubject: (form) => `Nouvelle réponse : ${form}`,
    invalidSubject: (form) => `Réponse terminée à une étape non valide : ${form}`,
    teamIntro: (form, at) => `Une réponse à « ${form} » est arrivée le ${at}.`,
    invalidIntro: (form, at) => `Une réponse à « ${form} » s’est terminée à une étape non valide le ${at}.`,
    link: 'La réponse dans l’API',
    answers: 'Réponses',
    noAnswers: 'Ce message ne contient pas les réponses ; elles sont dans l’API.',
    automatic: 'Ce message a été envoyé automatiquement.',
  },
  es: {
    teamSubject: (form) => `Nueva respuesta: ${form}`,
    invalidSubject: (form) => `Respuesta terminada en un paso no válido: ${form}`,
    teamIntro: (form, at) => `Ha llegado una respuesta a «${form}» el ${at}.`,
    invalidIntro: (form, at) => `Una respuesta a «${form}» terminó en un paso no válido el ${at}.`,
    link: 'La respuesta en la API',
    answers: 'Respuestas',
    noAnswers: 'Este mensaje no incluye las respuestas; están en la API.',
    automatic: 'Este mensaje se envió automáticamente.',
  },
  it: {
    teamSubject: (form) => `Nuova risposta: ${form}`,
    invalidSubject: (form) => `Risposta terminata a un passo non valido: ${form}`,
    teamIntro: (form, at) => `Una risposta a «${form}» è arrivata il ${at}.`,
    invalidIntro: (form, at) => `Una risposta a «${form}» è terminata a un passo non valido il ${at}.`,
    link: 'La risposta nell’API',
    answers: 'Risposte',
    noAnswers: 'Questo messaggio non contiene le risposte; si trovano nell’API.',
    automatic: 'Questo messaggio è stato inviato automaticamente.',
  },
  nl: {
    teamSubject: (form) => `Nieuw antwoord: ${form}`,
    invalidSubject: (form) => `Antwoord beëindigd bij een ongeldige stap: ${form}`,
    teamIntro: (form, at) => `Er is op ${at} een antwoord op ‘${form}’ binnengekomen.`,
    invalidIntro: (form, at) => `Een antwoord op ‘${form}’ eindigde op ${at} bij een ongeldige stap.`,
    link: 'Het antwoord in de API',
    answers: 'Antwoorden',
    noAnswers: 'Dit bericht bevat de antwoorden niet; ze staan in de API.',
    automatic: 'Dit bericht is automatisch verstuurd.',
  },
  pt: {
    teamSubject: (form) => `Nova resposta: ${form}`,
    invalidSubject: (form) => `Resposta terminada num passo inválido: ${form}`,
    teamIntro: (form, at) => `Chegou uma resposta a «${form}» em ${at}.`,
    invalidIntro: (form, at) => `Uma resposta a «${form}» terminou num passo inválido em ${at}.`,
    link: 'A resposta na API',
    answers: 'Respostas',
    noAnswers: 'Esta mensagem não inclui as respostas; estão na API.',
    automatic: 'Esta mensagem foi enviada automaticamente.',
  },
  pl: {
    teamSubject: (form) => `Nowa odpowiedź: ${form}`,
    invalidSubject: (form) => `Odpowiedź zakończona na nieprawidłowym kroku: ${form}`,
    teamIntro: (form, at) => `Odpowiedź na „${form}” nadeszła ${at}.`,
    invalidIntro: (form, at) => `Odpowiedź na „${form}” zakończyła się na nieprawidłowym kroku ${at}.`,
    link: 'Odpowiedź w API',
    answers: 'Odpowiedzi',
    noAnswers: 'Ta wiadomość nie zawiera odpowiedzi; są w API.',
    automatic: 'Ta wiadomość została wysłana automatycznie.',
  },
  ja: {
    teamSubject: (form) => `新しい回答: ${form}`,
    invalidSubject: (form) => `無効なステップで終了した回答: ${form}`,
    teamIntro: (form, at) => `「${form}」への回答が ${at} に届きました。`,
    invalidIntro: (form, at) => `「${form}」への回答が ${at} に無効なステップで終了しました。`,
    link: 'API での回答',
    answers: '回答',
    noAnswers: 'このメッセージには回答が含まれていません。API で確認してください。',
    automatic: 'このメッセージは自動的に送信されました。',
  },
  ar: {
    teamSubject: (form) => `رد جديد: ${form}`,
    invalidSubject: (form) => `انتهى رد عند خطوة غير صالحة: ${form}`,
    teamIntro: (form, at) => `وصل رد على «${form}» في ${at}.`,
    invalidIntro: (form, at) => `انتهى رد على «${form}» عند خطوة غير صالحة في ${at}.`,
    link: 'الرد في واجهة API',
    answers: 'الإجابات',
    noAnswers: 'لا تتضمن هذه الرسالة الإجابات؛ اقرأها في واجهة API.',
    automatic: 'تم إرسال هذه الرسالة تلقائيًا.',
  },
};

export interface MessageInput {
  deliveryId: string;
  kind: NotificationKind;
  trigger: string;
  to: string;
  from: string;
  publicUrl: string;
  form: { id: string; name: string; locale: string };
  /** The form as its respondent read it and their language: a recalled choice shows its text in that language. */
  shown?: RecallShown | undefined;
  response: { id: string; updatedAt: Date; data: readonly ResponseAnswer[]; meta?: ResponseMeta | undefined };
  rule: { includeAnswers: boolean; subject?: string | undefined; body?: string | undefined };
  /** A file's signed path (`/api/v1/files/…?expires=…&signature=…`). */
  signFileUrl?: ((uploadId: string) => string) | undefined;
}

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

type AsShown = ReturnType<typeof answersAsShown>;

/** One answer as lines of text: `question: value`, both as the respondent saw them when the form is known; files one link each. */
function answerLines(answer: ResponseAnswer, input: MessageInput, asShown: AsShown | undefined): { label: string; value: string }[] {
  const { response } = answer;
  const seen = asShown?.(answer);
  const label = seen?.question ?? (typeof response.headline === 'string' && response.headline !== '' ? response.headline : (answer.key ?? answer.questionId));
  const files = Array.isArray(response.files) ? (response.files as { id?: unknown; name?: unknown }[]) : undefined;
  if (files && input.signFileUrl) {
    return files
      .filter((file) => typeof file.id === 'string')
      .map((file) => ({
        label,
        value: `${String(file.name ?? file.id)}: ${input.publicUrl}${input.signFileUrl!(String(file.id))}`,
      }));
  }
  // A module whose answers export as nothing (passwords) has nothing to show here either.
  const value = seen?.value ?? answerCell(response.type, response);
  return value === '' ? [] : [{ label, value }];
}

/** The message for one delivery (nodemailer's options; it writes the MIME). */
export function composeMessage(input: MessageInput): Mail.Options {
  const words = WORDS[languageOf(input.form.locale)];
  const at = localizeInstant(input.form.locale, input.response.updatedAt);
  const invalid = input.trigger === 'response.invalid';
  const team = input.kind === 'team';
  // Recall: the respondent's values into the body only; a header shows the placeholders' fallbacks.
  const values = recallLookup({ data: input.response.data, meta: input.response.meta ?? {} }, input.shown);
  // A rule's subject made only of placeholders without fallbacks comes out empty: the default subject then.
  const ruleSubject = input.rule.subject === undefined ? '' : recall(input.rule.subject, () => undefined).trim();
  const subject = ruleSubject !== '' ? ruleSubject : invalid ? words.invalidSubject(input.form.name) : words.teamSubject(input.form.name);
  const intro = team ? (invalid ? words.invalidIntro : words.teamIntro)(input.form.name, at) : recall(input.rule.body ?? '', values);
  const asShown = input.rule.includeAnswers && input.shown ? answersAsShown(input.shown) : undefined;
  const answers = input.rule.includeAnswers ? input.response.data.flatMap((answer) => answerLines(answer, input, asShown)) : [];
  const link = `${input.publicUrl}/api/v1/responses/${encodeURIComponent(input.response.id)}`;
  const text = [
    intro,
    ...(answers.length > 0 ? ['', `${words.answers}:`, ...answers.map(({ label, value }) => `${label}: ${value}`)] : []),
    ...(team && !input.rule.includeAnswers ? ['', words.noAnswers] : []),
    ...(team ? ['', `${words.link}: ${link}`] : []),
    '',
    '-- ',
    words.automatic,
  ].join('\n');
  const paragraphs = (value: string) =>
    value
      .split(/\n{2,}/)
      .map((part) => `<p>${escapeHtml(part).replaceAll('\n', '<br>')}</p>`)
      .join('');
  const html = [
    `<!doctype html><html lang="${escapeHtml(input.form.locale)}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body>`,
    paragraphs(intro),
    answers.length > 0
      ? `<h2>${escapeHtml(words.answers)}</h2><dl>${answers.map(({ label, value }) => `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd>`).join('')}</dl>`
      : '',
    team && !input.rule.includeAnswers ? `<p>${escapeHtml(words.noAnswers)}</p>` : '',
    team ? `<p><a href="${escapeHtml(link)}">${escapeHtml(words.link)}</a></p>` : '',
    `<p><small>${escapeHtml(words.automatic)}</small></p></body></html>`,
  ].join('');
  const host = new URL(input.publicUrl).hostname.replace(/^\[|\]$/g, '') || 'formloom.invalid';
  return {
    from: input.from,
    to: input.to,
    subject,
    text,
    html,
    messageId: `<${input.deliveryId}@${host}>`,
    date: new Date(),
    headers: { 'Auto-Submitted': 'auto-generated', 'X-Auto-Response-Suppress': 'All' },
    // Never a header from the respondent: no Reply-To, no display names from answers.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}
