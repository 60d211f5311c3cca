/**
 * The languages of the public pages' own words: default button labels, the error summary, validation
 * messages, the thank-you and closed screens, `<html lang>`. A form's `locale` is a BCP 47 tag whose
 * language is one of SUPPORTED_LANGUAGES (a region or other subtags may follow: `de-CH`, `fr-CA`); the
 * form's own texts (questions, labels set in its content) are shown as written.
 *
 * Validation messages are written in English by the component modules (the public JSON API answers
 * them in English); the page translates the ones a respondent can meet with `localizeMessage`, and
 * shows any other as written.
 */
import { z } from 'zod';

export const SUPPORTED_LANGUAGES = ['en', 'de', 'fr', 'es'] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];
export const DEFAULT_LOCALE = 'en';

/** Longest locale tag accepted (BCP 47 tags in use are far shorter). */
const MAX_LOCALE_LENGTH = 35;
export const LOCALE_MESSAGE = `locale must be a BCP 47 language tag in one of the supported languages: ${SUPPORTED_LANGUAGES.join(', ')} (a region may follow, e.g. de-CH)`;

const isLanguage = (value: string): value is Language => (SUPPORTED_LANGUAGES as readonly string[]).includes(value);

/** The canonical form of a supported locale tag (`DE-ch` → `de-CH`), or undefined when it is malformed or its language is not supported. */
export function canonicalLocale(value: string): string | undefined {
  if (value.length === 0 || value.length > MAX_LOCALE_LENGTH || !/^[A-Za-z0-9-]+$/.test(value)) return undefined;
  let canonical: string;
  try {
    canonical = Intl.getCanonicalLocales(value)[0]!;
  } catch {
    return undefined;
  }
  return isLanguage(canonical.split('-')[0]!) ? canonical : undefined;
}

/** A form's `locale` in generate and update input: stored in its canonical form. */
export const localeSchema = z
  .string(LOCALE_MESSAGE)
  .transform((value, ctx) => {
    const canonical = canonicalLocale(value);
    if (canonical === undefined) {
      ctx.addIssue({ code: 'custom', message: LOCALE_MESSAGE });
      return z.NEVER;
    }
    return canonical;
  })
  .meta({ description: `The language of the page's own words (buttons, messages, screens): a BCP 47 tag in ${SUPPORTED_LANGUAGES.join(', ')}; default ${DEFAULT_LOCALE}.`, examples: ['de'] });

/** The language a stored locale speaks; English for anything unknown. */
export const languageOf = (locale: string | null | undefined): Language => {
  const language = (locale ?? DEFAULT_LOCALE).split('-')[0]!.toLowerCase();
  return isLanguage(language) ? language : 'en';
};

// ---------------------------------------------------------------- the page's words

export interface PageWords {
  next: string;
  submit: string;
  back: string;
  select: string;
  other: string;
  progress: string;
  stepOf: (index: number, total: number) => string;
  errorTitle: string;
  checkHighlighted: string;
  checkAnswers: (count: number) => string;
  unanswered: (stepName: string) => string;
  answerThem: string;
  goThere: string;
  thanksTitle: string;
  thanksText: string;
  anotherResponse: string;
  invalidTitle: string;
  invalidText: string;
  closedText: string;
  sessionExpiredTitle: string;
  sessionExpiredText: string;
  startAgain: string;
}

const WORDS: Record<Language, PageWords> = {
  en: {
    next: 'Next',
    submit: 'Submit',
    back: 'Back',
    select: 'Select…',
    other: 'Other',
    progress: 'Progress',
    stepOf: (index, total) => `step ${index} of ${total}`,
    errorTitle: 'Error',
    checkHighlighted: 'Please check the highlighted answers.',
    checkAnswers: (count) => (count === 1 ? 'Please check this answer:' : `Please check these ${count} answers:`),
    unanswered: (step) => `Some required questions in “${step}” are not answered yet.`,
    answerThem: 'Answer them',
    goThere: 'Go there',
    thanksTitle: 'Thank you!',
    thanksText: 'Your response has been recorded.',
    anotherResponse: 'Submit another response',
    invalidTitle: 'Thank you for your interest',
    invalidText: 'Your answers do not meet the requirements of this form.',
    closedText: 'This form is no longer accepting responses.',
    sessionExpiredTitle: 'Session expired',
    sessionExpiredText: 'This form session has expired or is not valid. Please start again.',
    startAgain: 'Start again',
  },
  de: {
    next: 'Weiter',
    submit: 'Absenden',
    back: 'Zurück',
    select: 'Bitte wählen…',
    other: 'Sonstiges',
    progress: 'Fortschritt',
    stepOf: (index, total) => `Schritt ${index} von ${total}`,
    errorTitle: 'Fehler',
    checkHighlighted: 'Bitte prüfen Sie die markierten Antworten.',
    checkAnswers: (count) => (count === 1 ? 'Bitte prüfen Sie diese Antwort:' : `Bitte prüfen Sie diese ${count} Antworten:`),
    unanswered: (step) => `Einige Pflichtfragen in „${step}“ sind noch nicht beantwortet.`,
    answerThem: 'Jetzt beantworten',
    goThere: 'Dorthin',
    thanksTitle: 'Vielen Dank!',
    thanksText: 'Ihre Antwort wurde gespeichert.',
    anotherResponse: 'Weitere Antwort senden',
    invalidTitle: 'Vielen Dank für Ihr Interesse',
    invalidText: 'Ihre Antworten erfüllen die Voraussetzungen dieses Formulars nicht.',
    closedText: 'Dieses Formular nimmt keine Antworten mehr entgegen.',
    sessionExpiredTitle: 'Sitzung abgelaufen',
    sessionExpiredText: 'Diese Formularsitzung ist abgelaufen oder ungültig. Bitte beginnen Sie neu.',
    startAgain: 'Neu beginnen',
  },
  fr: {
    next: 'Suivant',
    submit: 'Envoyer',
    back: 'Retour',
    select: 'Sélectionner…',
    other: 'Autre',
    progress: 'Progression',
    stepOf: (index, total) => `étape ${index} sur ${total}`,
    errorTitle: 'Erreur',
    checkHighlighted: 'Veuillez vérifier les réponses signalées.',
    checkAnswers: (count) => (count === 1 ? 'Veuillez vérifier cette réponse :' : `Veuillez vérifier ces ${count} réponses :`),
    unanswered: (step) => `Certaines questions obligatoires de « ${step} » n’ont pas encore de réponse.`,
    answerThem: 'Y répondre',
    goThere: 'Y aller',
    thanksTitle: 'Merci !',
    thanksText: 'Votre réponse a été enregistrée.',
    anotherResponse: 'Envoyer une autre réponse',
    invalidTitle: 'Merci de votre intérêt',
    invalidText: 'Vos réponses ne remplissent pas les conditions de ce formulaire.',
    closedText: 'Ce formulaire n’accepte plus de réponses.',
    sessionExpiredTitle: 'Session expirée',
    sessionExpiredText: 'Cette session du formulaire a expiré ou n’est pas valide. Veuillez recommencer.',
    startAgain: 'Recommencer',
  },
  es: {
    next: 'Siguiente',
    submit: 'Enviar',
    back: 'Atrás',
    select: 'Selecciona…',
    other: 'Otro',
    progress: 'Progreso',
    stepOf: (index, total) => `paso ${index} de ${total}`,
    errorTitle: 'Error',
    checkHighlighted: 'Revisa las respuestas señaladas.',
    checkAnswers: (count) => (count === 1 ? 'Revisa esta respuesta:' : `Revisa estas ${count} respuestas:`),
    unanswered: (step) => `Algunas preguntas obligatorias de «${step}» aún no tienen respuesta.`,
    answerThem: 'Responderlas',
    goThere: 'Ir allí',
    thanksTitle: '¡Gracias!',
    thanksText: 'Tu respuesta se ha registrado.',
    anotherResponse: 'Enviar otra respuesta',
    invalidTitle: 'Gracias por tu interés',
    invalidText: 'Tus respuestas no cumplen los requisitos de este formulario.',
    closedText: 'Este formulario ya no acepta respuestas.',
    sessionExpiredTitle: 'Sesión caducada',
    sessionExpiredText: 'Esta sesión del formulario ha caducado o no es válida. Vuelve a empezar.',
    startAgain: 'Empezar de nuevo',
  },
};

/** The page's own words in a form's locale. */
export const pageWords = (locale: string | null | undefined): PageWords => WORDS[languageOf(locale)];

// ---------------------------------------------------------------- validation messages

/** `$1`… stand for the pattern's groups. German, French and Spanish for each English message. */
type Translations = Record<Exclude<Language, 'en'>, string>;
const MESSAGES: [RegExp, Translations][] = [
  [/^This question requires an answer$/, { de: 'Bitte beantworten Sie diese Frage', fr: 'Cette question nécessite une réponse', es: 'Esta pregunta requiere una respuesta' }],
  [/^This question must be answered before the response can finish$/, { de: 'Diese Frage muss beantwortet werden, bevor die Antwort abgeschlossen werden kann', fr: 'Il faut répondre à cette question avant de terminer', es: 'Hay que responder a esta pregunta antes de terminar' }],
  [/^Enter a valid e-mail address$/, { de: 'Geben Sie eine gültige E-Mail-Adresse ein', fr: 'Saisissez une adresse e-mail valide', es: 'Introduce una dirección de correo electrónico válida' }],
  [/^Please use your work e-mail address$/, { de: 'Bitte verwenden Sie Ihre geschäftliche E-Mail-Adresse', fr: 'Veuillez utiliser votre adresse e-mail professionnelle', es: 'Usa tu dirección de correo electrónico del trabajo' }],
  [/^Enter a valid phone number$/, { de: 'Geben Sie eine gültige Telefonnummer ein', fr: 'Saisissez un numéro de téléphone valide', es: 'Introduce un número de teléfono válido' }],
  [/^Enter a valid website address$/, { de: 'Geben Sie eine gültige Website-Adresse ein', fr: 'Saisissez une adresse de site web valide', es: 'Introduce una dirección web válida' }],
  [/^Enter an http\(s\) link$/, { de: 'Geben Sie einen http(s)-Link ein', fr: 'Saisissez un lien http(s)', es: 'Introduce un enlace http(s)' }],
  [/^Choose one option$/, { de: 'Wählen Sie eine Option', fr: 'Choisissez une option', es: 'Elige una opción' }],
  [/^Choose one answer$/, { de: 'Wählen Sie eine Antwort', fr: 'Choisissez une réponse', es: 'Elige una respuesta' }],
  [/^Choose at most (\d+) options$/, { de: 'Wählen Sie höchstens $1 Optionen', fr: 'Choisissez au plus $1 options', es: 'Elige como máximo $1 opciones' }],
  [/^Choose at most (\d+) choices$/, { de: 'Wählen Sie höchstens $1 Antworten', fr: 'Choisissez au plus $1 réponses', es: 'Elige como máximo $1 respuestas' }],
  [/^"(.*)" is not one of the options$/s, { de: '„$1“ ist keine der Optionen', fr: '« $1 » ne fait pas partie des options', es: '«$1» no es una de las opciones' }],
  [/^"(.*)" is not one of the choices$/s, { de: '„$1“ ist keine der Antworten', fr: '« $1 » ne fait pas partie des réponses', es: '«$1» no es una de las respuestas' }],
  [/^Not one of the options$/, { de: 'Keine der Optionen', fr: 'Ne fait pas partie des options', es: 'No es una de las opciones' }],
  [/^Tell us what "Other" means for you$/, { de: 'Sagen Sie uns, was „Sonstiges“ für Sie bedeutet', fr: 'Précisez ce que « Autre » signifie pour vous', es: 'Cuéntanos qué significa «Otro» para ti' }],
  [/^Must be at most (\d+) characters$/, { de: 'Höchstens $1 Zeichen', fr: '$1 caractères au maximum', es: 'Como máximo $1 caracteres' }],
  [/^Must be at least (\d+) characters$/, { de: 'Mindestens $1 Zeichen', fr: '$1 caractères au minimum', es: 'Como mínimo $1 caracteres' }],
  [/^The passwords do not match$/, { de: 'Die Passwörter stimmen nicht überein', fr: 'Les mots de passe ne correspondent pas', es: 'Las contraseñas no coinciden' }],
  [/^Please tick the box to continue$/, { de: 'Bitte setzen Sie das Häkchen, um fortzufahren', fr: 'Veuillez cocher la case pour continuer', es: 'Marca la casilla para continuar' }],
  [/^Upload one file$/, { de: 'Laden Sie eine Datei hoch', fr: 'Téléversez un fichier', es: 'Sube un archivo' }],
  [/^Upload at most (\d+) files$/, { de: 'Laden Sie höchstens $1 Dateien hoch', fr: 'Téléversez au plus $1 fichiers', es: 'Sube como máximo $1 archivos' }],
  [/^This field was sent more than once$/, { de: 'Dieses Feld wurde mehrfach gesendet', fr: 'Ce champ a été envoyé plusieurs fois', es: 'Este campo se envió más de una vez' }],
  [/^Please complete the check that you are not a robot\.$/, { de: 'Bitte bestätigen Sie, dass Sie kein Roboter sind.', fr: 'Veuillez confirmer que vous n’êtes pas un robot.', es: 'Confirma que no eres un robot.' }],
  [/^The check that you are not a robot failed or expired\. Please try it again\.$/, { de: 'Die Prüfung, dass Sie kein Roboter sind, ist fehlgeschlagen oder abgelaufen. Bitte versuchen Sie es erneut.', fr: 'La vérification anti-robot a échoué ou expiré. Veuillez réessayer.', es: 'La comprobación de que no eres un robot ha fallado o caducado. Inténtalo de nuevo.' }],
  [/^The check that you are not a robot cannot be verified right now\. Please try again in a moment\.$/, { de: 'Die Prüfung, dass Sie kein Roboter sind, ist gerade nicht möglich. Bitte versuchen Sie es gleich noch einmal.', fr: 'La vérification anti-robot est impossible pour le moment. Veuillez réessayer dans un instant.', es: 'Ahora mismo no se puede verificar que no eres un robot. Inténtalo de nuevo en un momento.' }],
  // Last: "<label> is required" (IdentityInfo) would also match messages above.
  [/^(.+) is required$/s, { de: '$1 ist erforderlich', fr: '$1 est obligatoire', es: '$1 es obligatorio' }],
];

/** A validation message in the form's language; a message without a translation as written. */
export function localizeMessage(locale: string | null | undefined, message: string): string {
  const language = languageOf(locale);
  if (language === 'en') return message;
  for (const [pattern, translations] of MESSAGES) {
    const match = pattern.exec(message);
    if (match) return translations[language].replace(/\$(\d)/g, (_, group: string) => match[Number(group)] ?? '');
  }
  return message;
}
