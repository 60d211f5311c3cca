/**
 * The languages of the public pages' own words: default button labels, the error summary, validation
 * messages, the thank-you and closed screens, `<html lang>`, and the components' own words (defaults
 * and accessible names, the uploader's note and its script's words, the schedulers' links and titles,
 * captcha notes). A form's `locale` is a BCP 47 tag whose language is one of SUPPORTED_LANGUAGES (a
 * region or other subtags may follow: `de-CH`, `fr-CA`); the form's own texts (questions, labels set in
 * its content) are shown as written. Component modules take their words from here (`pageWords`) and
 * hold no table of their own.
 *
 * Validation messages, the file checks' included, are written in English by the component modules and
 * the uploads domain (the public JSON API answers them in English); the page translates the ones a
 * respondent can meet with `localizeMessage`, and shows any other as written.
 */
import { z } from 'zod';
import type { LanguagePack, PageWords } from './words.ts';
import { ar } from './languages/ar.ts';
import { it } from './languages/it.ts';
import { ja } from './languages/ja.ts';
import { nl } from './languages/nl.ts';
import { pl } from './languages/pl.ts';
import { pt } from './languages/pt.ts';

export type { PageWords } from './words.ts';

export const SUPPORTED_LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt', 'pl', 'ja', 'ar'] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];
/** The languages whose words and messages are written in this file; the others' are in languages/ (one module each). */
type TableLanguage = 'en' | 'de' | 'fr' | 'es';
type PackLanguage = Exclude<Language, TableLanguage>;
const PACKS: Record<PackLanguage, LanguagePack> = { it, nl, pt, pl, ja, ar };
const isPackLanguage = (language: Language): language is PackLanguage => Object.hasOwn(PACKS, language);

/** The languages written right to left (`<html dir="rtl">`). */
export const RIGHT_TO_LEFT_LANGUAGES: readonly Language[] = ['ar'];
/** The direction a locale's text runs in. */
export const directionOf = (locale: string | null | undefined): 'rtl' | 'ltr' => (RIGHT_TO_LEFT_LANGUAGES.includes(languageOf(locale)) ? 'rtl' : 'ltr');
/** A language's name in that language (`Deutsch`, `العربية`), for the language switcher. */
export const languageName = (language: string): string => {
  const name = new Intl.DisplayNames([language], { type: 'language' }).of(language) ?? language;
  return name.charAt(0).toLocaleUpperCase(language) + name.slice(1);
};
export const DEFAULT_LOCALE = 'en';

/** Longest locale tag accepted (BCP 47 tags in use are far shorter). */
const MAX_LOCALE_LENGTH = 35;
export const LOCALE_MESSAGE = `locale must be a BCP 47 language tag in one of the supported languages: ${SUPPORTED_LANGUAGES.join(', ')} (a region may follow, e.g. de-CH)`;

const isLanguage = (value: string): value is Language => (SUPPORTED_LANGUAGES as readonly string[]).includes(value);

/** The canonical form of a supported locale tag (`DE-ch` → `de-CH`), or undefined when it is malformed or its language is not supported. */
export function canonicalLocale(value: string): string | undefined {
  if (value.length === 0 || value.length > MAX_LOCALE_LENGTH || !/^[A-Z0-9-]+$/i.test(value)) return undefined;
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
  .meta({
    description: `The language of the page's own words (buttons, messages, screens): a BCP 47 tag in ${SUPPORTED_LANGUAGES.join(', ')}; default ${DEFAULT_LOCALE}.`,
    examples: ['de'],
  });

/** The language a stored locale speaks; English for anything unknown. */
export const languageOf = (locale: string | null | undefined): Language => {
  const language = (locale ?? DEFAULT_LOCALE).split('-')[0]!.toLowerCase();
  return isLanguage(language) ? language : 'en';
};

// ---------------------------------------------------------------- the page's words

const WORDS: Record<TableLanguage, PageWords> = {
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
    notYetOpenText: 'This form is not open yet.',
    opensOn: (when) => `It opens on ${when}.`,
    sessionExpiredTitle: 'Session expired',
    sessionExpiredText: 'This form session has expired or is not valid. Please start again.',
    startAgain: 'Start again',
    language: 'Language',
    close: 'Close',
    yourAnswer: 'Your answer',
    agree: 'I agree',
    password: 'Password',
    repeatPassword: 'Repeat the password',
    dialCode: 'Country dial code',
    file: 'File',
    accepted: (types, size, files) => `Accepted: ${types}; up to ${size}${files > 1 ? `, ${files} files` : ''}.`,
    replaceFiles: (count) => `Choose another file to replace ${count === 1 ? 'it' : 'them'}.`,
    uploadedEarlier: 'a file uploaded earlier',
    uploadProgress: 'Upload progress',
    uploadedOne: 'Uploaded.',
    uploadedMany: '{n} files uploaded.',
    uploadFailed: 'The upload failed.',
    uploadOffline: 'The upload failed. Check your connection and try again.',
    uploadTooLarge: 'That is more than can be uploaded at once. Choose smaller or fewer files.',
    uploadBusy: 'Too many uploads just now. Please wait a minute, then try again.',
    calendar: 'Calendar',
    calendarTitle: (provider) => `${provider ?? 'Scheduling'} calendar`,
    openCalendar: 'Open the calendar in a new tab',
    calendarUnavailable: "This calendar can't be shown.",
    meetingBooked: 'Your meeting is booked.',
    meetingBookedAt: (when) => `Your meeting is booked for ${when}.`,
    dateBetween: (min, max) => `Between ${min} and ${max}`,
    dateFrom: (min) => `On or after ${min}`,
    dateUntil: (max) => `On or before ${max}`,
    captchaNeedsScript: 'This step needs JavaScript for a check that you are not a robot.',
    ratingValue: (value, scale) => `${value} of ${scale}`,
    npsLow: 'Not at all likely',
    npsHigh: 'Extremely likely',
    rankingPosition: (position) => `Position ${position}`,
    rankingMoveUp: 'Move up',
    rankingMoveDown: 'Move down',
    unsupportedTitle: 'Unsupported form data',
    unsupportedText: 'This page takes form posts (application/x-www-form-urlencoded or multipart/form-data).',
    unreadableTitle: 'Invalid form data',
    unreadableText: 'The form data could not be read. Please go back and try again.',
    tooMuchTitle: 'Too much data',
    tooMuchText: (size) => `More was sent than this form takes at once (at most ${size}). Please go back and send less, such as smaller files.`,
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
    notYetOpenText: 'Dieses Formular ist noch nicht geöffnet.',
    opensOn: (when) => `Es öffnet am ${when}.`,
    sessionExpiredTitle: 'Sitzung abgelaufen',
    sessionExpiredText: 'Diese Formularsitzung ist abgelaufen oder ungültig. Bitte beginnen Sie neu.',
    startAgain: 'Neu beginnen',
    language: 'Sprache',
    close: 'Schließen',
    yourAnswer: 'Ihre Antwort',
    agree: 'Ich stimme zu',
    password: 'Passwort',
    repeatPassword: 'Passwort wiederholen',
    dialCode: 'Landesvorwahl',
    file: 'Datei',
    accepted: (types, size, files) => `Erlaubt: ${types}; bis zu ${size}${files > 1 ? `, höchstens ${files} Dateien` : ''}.`,
    replaceFiles: (count) => (count === 1 ? 'Wählen Sie eine andere Datei, um diese zu ersetzen.' : 'Wählen Sie eine andere Datei, um diese Dateien zu ersetzen.'),
    uploadedEarlier: 'eine früher hochgeladene Datei',
    uploadProgress: 'Fortschritt des Hochladens',
    uploadedOne: 'Hochgeladen.',
    uploadedMany: '{n} Dateien hochgeladen.',
    uploadFailed: 'Das Hochladen ist fehlgeschlagen.',
    uploadOffline: 'Das Hochladen ist fehlgeschlagen. Prüfen Sie Ihre Verbindung und versuchen Sie es erneut.',
    uploadTooLarge: 'Das ist mehr, als auf einmal hochgeladen werden kann. Wählen Sie kleinere oder weniger Dateien.',
    uploadBusy: 'Gerade werden zu viele Dateien hochgeladen. Bitte warten Sie eine Minute und versuchen Sie es dann erneut.',
    calendar: 'Kalender',
    calendarTitle: (provider) => (provider ? `${provider}-Kalender` : 'Terminkalender'),
    openCalendar: 'Kalender in einem neuen Tab öffnen',
    calendarUnavailable: 'Dieser Kalender kann nicht angezeigt werden.',
    meetingBooked: 'Ihr Termin ist gebucht.',
    meetingBookedAt: (when) => `Ihr Termin ist gebucht: ${when}.`,
    dateBetween: (min, max) => `Zwischen dem ${min} und dem ${max}`,
    dateFrom: (min) => `Am ${min} oder später`,
    dateUntil: (max) => `Am ${max} oder früher`,
    captchaNeedsScript: 'Dieser Schritt braucht JavaScript für die Prüfung, dass Sie kein Roboter sind.',
    ratingValue: (value, scale) => `${value} von ${scale}`,
    npsLow: 'Überhaupt nicht wahrscheinlich',
    npsHigh: 'Äußerst wahrscheinlich',
    rankingPosition: (position) => `Platz ${position}`,
    rankingMoveUp: 'Nach oben',
    rankingMoveDown: 'Nach unten',
    unsupportedTitle: 'Nicht unterstützte Formulardaten',
    unsupportedText: 'Diese Seite nimmt nur Formulardaten an (application/x-www-form-urlencoded oder multipart/form-data).',
    unreadableTitle: 'Ungültige Formulardaten',
    unreadableText: 'Die Formulardaten konnten nicht gelesen werden. Bitte gehen Sie zurück und versuchen Sie es erneut.',
    tooMuchTitle: 'Zu viele Daten',
    tooMuchText: (size) =>
      `Es wurde mehr gesendet, als dieses Formular auf einmal annimmt (höchstens ${size}). Bitte gehen Sie zurück und senden Sie weniger, zum Beispiel kleinere Dateien.`,
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
    notYetOpenText: 'Ce formulaire n’est pas encore ouvert.',
    opensOn: (when) => `Il ouvrira le ${when}.`,
    sessionExpiredTitle: 'Session expirée',
    sessionExpiredText: 'Cette session du formulaire a expiré ou n’est pas valide. Veuillez recommencer.',
    startAgain: 'Recommencer',
    language: 'Langue',
    close: 'Fermer',
    yourAnswer: 'Votre réponse',
    agree: 'J’accepte',
    password: 'Mot de passe',
    repeatPassword: 'Répétez le mot de passe',
    dialCode: 'Indicatif du pays',
    file: 'Fichier',
    accepted: (types, size, files) => `Formats acceptés : ${types} ; jusqu’à ${size}${files > 1 ? `, ${files} fichiers au maximum` : ''}.`,
    replaceFiles: (count) => `Choisissez un autre fichier pour ${count === 1 ? 'le' : 'les'} remplacer.`,
    uploadedEarlier: 'un fichier téléversé précédemment',
    uploadProgress: 'Progression du téléversement',
    uploadedOne: 'Fichier téléversé.',
    uploadedMany: '{n} fichiers téléversés.',
    uploadFailed: 'Le téléversement a échoué.',
    uploadOffline: 'Le téléversement a échoué. Vérifiez votre connexion et réessayez.',
    uploadTooLarge: 'C’est plus que ce qui peut être téléversé en une fois. Choisissez des fichiers plus petits ou moins nombreux.',
    uploadBusy: 'Trop de téléversements en ce moment. Veuillez patienter une minute, puis réessayer.',
    calendar: 'Calendrier',
    calendarTitle: (provider) => (provider ? `Calendrier ${provider}` : 'Calendrier de réservation'),
    openCalendar: 'Ouvrir le calendrier dans un nouvel onglet',
    calendarUnavailable: 'Ce calendrier ne peut pas être affiché.',
    meetingBooked: 'Votre rendez-vous est réservé.',
    meetingBookedAt: (when) => `Votre rendez-vous est réservé : ${when}.`,
    dateBetween: (min, max) => `Entre le ${min} et le ${max}`,
    dateFrom: (min) => `Le ${min} ou après`,
    dateUntil: (max) => `Le ${max} ou avant`,
    captchaNeedsScript: 'Cette étape nécessite JavaScript pour vérifier que vous n’êtes pas un robot.',
    ratingValue: (value, scale) => `${value} sur ${scale}`,
    npsLow: 'Pas du tout probable',
    npsHigh: 'Extrêmement probable',
    rankingPosition: (position) => `Rang ${position}`,
    rankingMoveUp: 'Monter',
    rankingMoveDown: 'Descendre',
    unsupportedTitle: 'Données de formulaire non prises en charge',
    unsupportedText: 'Cette page n’accepte que des envois de formulaire (application/x-www-form-urlencoded ou multipart/form-data).',
    unreadableTitle: 'Données de formulaire non valides',
    unreadableText: 'Les données du formulaire n’ont pas pu être lues. Veuillez revenir en arrière et réessayer.',
    tooMuchTitle: 'Trop de données',
    tooMuchText: (size) =>
      `L’envoi dépasse ce que ce formulaire accepte en une fois (${size} au maximum). Veuillez revenir en arrière et envoyer moins de données, par exemple des fichiers plus petits.`,
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
    notYetOpenText: 'Este formulario aún no está abierto.',
    opensOn: (when) => `Se abrirá el ${when}.`,
    sessionExpiredTitle: 'Sesión caducada',
    sessionExpiredText: 'Esta sesión del formulario ha caducado o no es válida. Vuelve a empezar.',
    startAgain: 'Empezar de nuevo',
    language: 'Idioma',
    close: 'Cerrar',
    yourAnswer: 'Tu respuesta',
    agree: 'Acepto',
    password: 'Contraseña',
    repeatPassword: 'Repite la contraseña',
    dialCode: 'Prefijo del país',
    file: 'Archivo',
    accepted: (types, size, files) => `Se aceptan: ${types}; hasta ${size}${files > 1 ? `, como máximo ${files} archivos` : ''}.`,
    replaceFiles: (count) => `Elige otro archivo para ${count === 1 ? 'reemplazarlo' : 'reemplazarlos'}.`,
    uploadedEarlier: 'un archivo subido anteriormente',
    uploadProgress: 'Progreso de la subida',
    uploadedOne: 'Archivo subido.',
    uploadedMany: '{n} archivos subidos.',
    uploadFailed: 'No se ha podido subir el archivo.',
    uploadOffline: 'No se ha podido subir el archivo. Comprueba tu conexión e inténtalo de nuevo.',
    uploadTooLarge: 'Es más de lo que se puede subir de una vez. Elige archivos más pequeños o menos archivos.',
    uploadBusy: 'Hay demasiadas subidas en este momento. Espera un minuto y vuelve a intentarlo.',
    calendar: 'Calendario',
    calendarTitle: (provider) => (provider ? `Calendario de ${provider}` : 'Calendario de citas'),
    openCalendar: 'Abrir el calendario en una pestaña nueva',
    calendarUnavailable: 'Este calendario no se puede mostrar.',
    meetingBooked: 'Tu cita está reservada.',
    meetingBookedAt: (when) => `Tu cita está reservada: ${when}.`,
    dateBetween: (min, max) => `Entre el ${min} y el ${max}`,
    dateFrom: (min) => `El ${min} o después`,
    dateUntil: (max) => `El ${max} o antes`,
    captchaNeedsScript: 'Este paso necesita JavaScript para comprobar que no eres un robot.',
    ratingValue: (value, scale) => `${value} de ${scale}`,
    npsLow: 'Nada probable',
    npsHigh: 'Extremadamente probable',
    rankingPosition: (position) => `Posición ${position}`,
    rankingMoveUp: 'Subir',
    rankingMoveDown: 'Bajar',
    unsupportedTitle: 'Datos de formulario no admitidos',
    unsupportedText: 'Esta página solo admite envíos de formulario (application/x-www-form-urlencoded o multipart/form-data).',
    unreadableTitle: 'Datos de formulario no válidos',
    unreadableText: 'No se han podido leer los datos del formulario. Vuelve atrás e inténtalo de nuevo.',
    tooMuchTitle: 'Demasiados datos',
    tooMuchText: (size) =>
      `Se ha enviado más de lo que este formulario admite de una vez (como máximo ${size}). Vuelve atrás y envía menos datos, por ejemplo archivos más pequeños.`,
  },
};

/** The page's own words in a form's locale. */
export const pageWords = (locale: string | null | undefined): PageWords => {
  const language = languageOf(locale);
  return isPackLanguage(language) ? PACKS[language].words : WORDS[language];
};

// ---------------------------------------------------------------- sizes

type SizeUnit = 'MB' | 'KB' | 'bytes';
const SIZE_UNITS: Record<TableLanguage, Record<SizeUnit, string>> = {
  en: { MB: 'MB', KB: 'KB', bytes: 'bytes' },
  de: { MB: 'MB', KB: 'KB', bytes: 'Byte' },
  fr: { MB: 'Mo', KB: 'Ko', bytes: 'octets' },
  es: { MB: 'MB', KB: 'KB', bytes: 'bytes' },
};
const sizeUnits = (language: Language) => (isPackLanguage(language) ? PACKS[language].sizeUnits : SIZE_UNITS[language]);
/** The decimal separator a language writes (`.` in English, `,` in German). */
const decimalSeparator = (language: Language) => new Intl.NumberFormat(language).formatToParts(1.5).find((part) => part.type === 'decimal')?.value ?? '.';
const sizeIn = (language: Language, whole: string, fraction: string | undefined, unit: SizeUnit) =>
  `${whole}${fraction ? `${decimalSeparator(language)}${fraction}` : ''} ${sizeUnits(language)[unit]}`;

/** A file size as a form's language writes it: `2.5 MB` (English, as every API message has it), `2,5 Mo`. */
export function formatSize(bytes: number, locale: string | null | undefined = DEFAULT_LOCALE): string {
  const language = languageOf(locale);
  const [value, unit]: [number, SizeUnit] =
    bytes >= 1024 * 1024 ? [Math.round((bytes / (1024 * 1024)) * 10) / 10, 'MB'] : bytes >= 1024 ? [Math.round(bytes / 1024), 'KB'] : [bytes, 'bytes'];
  const [whole, fraction] = String(value).split('.');
  return sizeIn(language, whole!, fraction, unit);
}

/** A size in an English message (`formatSize`'s `2.5 MB`) in another language; anything else as written. */
function localizeSize(language: Language, text: string): string {
  const match = /^(\d+)(?:\.(\d+))? (MB|KB|bytes)$/.exec(text);
  return match ? sizeIn(language, match[1]!, match[2], match[3] as SizeUnit) : text;
}

// ---------------------------------------------------------------- validation messages

/** `$1`… stand for the pattern's groups. German, French and Spanish for each English message. */
type Translations = Record<Exclude<TableLanguage, 'en'>, string>;
/** Groups that are themselves translated: a file size (`formatSize`), why an upload was refused (REFUSALS), a day or a number (in the language's format). */
type GroupKinds = Record<number, 'size' | 'refusal' | 'date' | 'number'>;

/** Why a file "cannot be accepted" (uploads/archives.ts). */
const REFUSALS: [RegExp, Translations][] = [
  [
    /^its zip structure is damaged or inconsistent$/,
    { de: 'Die ZIP-Struktur ist beschädigt oder widersprüchlich', fr: 'la structure zip est endommagée ou incohérente', es: 'la estructura zip está dañada o es incoherente' },
  ],
  [
    /^its contents would expand to more than (\d+) times its size$/,
    {
      de: 'Der Inhalt würde entpackt mehr als das $1-Fache der Dateigröße einnehmen',
      fr: 'une fois décompressé, le contenu dépasserait $1 fois la taille du fichier',
      es: 'al descomprimirlo, el contenido ocuparía más de $1 veces el tamaño del archivo',
    },
  ],
  [
    /^the archives inside it hold more than (\d+) MB, too much to check$/,
    {
      de: 'Die enthaltenen Archive umfassen mehr als $1 MB, zu viel für eine Prüfung',
      fr: 'les archives qu’il contient dépassent $1 Mo, trop pour être vérifiées',
      es: 'los archivos comprimidos que contiene superan los $1 MB, demasiado para comprobarlos',
    },
  ],
  [
    /^it holds more than (\d+) files$/,
    { de: 'Das Archiv enthält mehr als $1 Dateien', fr: 'l’archive contient plus de $1 fichiers', es: 'el archivo comprimido contiene más de $1 archivos' },
  ],
  [
    /^it holds a file with an absolute or "\.\." path$/,
    {
      de: 'Das Archiv enthält eine Datei mit absolutem oder „..“-Pfad',
      fr: 'l’archive contient un fichier au chemin absolu ou « .. »',
      es: 'el archivo comprimido contiene un archivo con una ruta absoluta o «..»',
    },
  ],
  [
    /^it holds archives nested more than (\d+) deep$/,
    {
      de: 'Das Archiv enthält Archive, die mehr als $1 Ebenen tief verschachtelt sind',
      fr: 'l’archive contient des archives imbriquées sur plus de $1 niveaux',
      es: 'el archivo comprimido contiene archivos comprimidos anidados en más de $1 niveles',
    },
  ],
];

const MESSAGES: [RegExp, Translations, GroupKinds?][] = [
  [/^This question requires an answer$/, { de: 'Bitte beantworten Sie diese Frage', fr: 'Cette question nécessite une réponse', es: 'Esta pregunta requiere una respuesta' }],
  [
    /^This question must be answered before the response can finish$/,
    {
      de: 'Diese Frage muss beantwortet werden, bevor die Antwort abgeschlossen werden kann',
      fr: 'Il faut répondre à cette question avant de terminer',
      es: 'Hay que responder a esta pregunta antes de terminar',
    },
  ],
  [
    /^Enter a valid e-mail address$/,
    { de: 'Geben Sie eine gültige E-Mail-Adresse ein', fr: 'Saisissez une adresse e-mail valide', es: 'Introduce una dirección de correo electrónico válida' },
  ],
  [
    /^Please use your work e-mail address$/,
    {
      de: 'Bitte verwenden Sie Ihre geschäftliche E-Mail-Adresse',
      fr: 'Veuillez utiliser votre adresse e-mail professionnelle',
      es: 'Usa tu dirección de correo electrónico del trabajo',
    },
  ],
  [/^Enter a valid phone number$/, { de: 'Geben Sie eine gültige Telefonnummer ein', fr: 'Saisissez un numéro de téléphone valide', es: 'Introduce un número de teléfono válido' }],
  [
    /^Enter a valid website address$/,
    { de: 'Geben Sie eine gültige Website-Adresse ein', fr: 'Saisissez une adresse de site web valide', es: 'Introduce una dirección web válida' },
  ],
  [/^Enter an http\(s\) link$/, { de: 'Geben Sie einen http(s)-Link ein', fr: 'Saisissez un lien http(s)', es: 'Introduce un enlace http(s)' }],
  [/^Choose one option$/, { de: 'Wählen Sie eine Option', fr: 'Choisissez une option', es: 'Elige una opción' }],
  [/^Choose one answer$/, { de: 'Wählen Sie eine Antwort', fr: 'Choisissez une réponse', es: 'Elige una respuesta' }],
  [/^Choose at most (\d+) options$/, { de: 'Wählen Sie höchstens $1 Optionen', fr: 'Choisissez au plus $1 options', es: 'Elige como máximo $1 opciones' }],
  [/^Choose at most (\d+) choices$/, { de: 'Wählen Sie höchstens $1 Antworten', fr: 'Choisissez au plus $1 réponses', es: 'Elige como máximo $1 respuestas' }],
  [/^"(.*)" is not one of the options$/s, { de: '„$1“ ist keine der Optionen', fr: '« $1 » ne fait pas partie des options', es: '«$1» no es una de las opciones' }],
  [/^"(.*)" is not one of the choices$/s, { de: '„$1“ ist keine der Antworten', fr: '« $1 » ne fait pas partie des réponses', es: '«$1» no es una de las respuestas' }],
  [/^Not one of the options$/, { de: 'Keine der Optionen', fr: 'Ne fait pas partie des options', es: 'No es una de las opciones' }],
  [
    /^Tell us what "Other" means for you$/,
    { de: 'Sagen Sie uns, was „Sonstiges“ für Sie bedeutet', fr: 'Précisez ce que « Autre » signifie pour vous', es: 'Cuéntanos qué significa «Otro» para ti' },
  ],
  [/^Must be a whole number from (-?\d+) to (-?\d+)$/, { de: 'Eine ganze Zahl von $1 bis $2', fr: 'Un nombre entier de $1 à $2', es: 'Un número entero del $1 al $2' }],
  [/^Must be a number$/, { de: 'Geben Sie eine Zahl ein', fr: 'Saisissez un nombre', es: 'Introduce un número' }],
  [/^Must be a whole number$/, { de: 'Geben Sie eine ganze Zahl ein', fr: 'Saisissez un nombre entier', es: 'Introduce un número entero' }],
  [/^Must have at most (\d) decimal places$/, { de: 'Höchstens $1 Nachkommastellen', fr: '$1 décimales au maximum', es: 'Como máximo $1 decimales' }],
  [/^Must be at least (-?[\d.e+]+)$/, { de: 'Mindestens $1', fr: 'Au moins $1', es: 'Como mínimo $1' }, { 1: 'number' }],
  [/^Must be at most (-?[\d.e+]+)$/, { de: 'Höchstens $1', fr: 'Au plus $1', es: 'Como máximo $1' }, { 1: 'number' }],
  [
    /^Must be a date written YYYY-MM-DD$/,
    { de: 'Geben Sie ein Datum im Format JJJJ-MM-TT ein', fr: 'Saisissez une date au format AAAA-MM-JJ', es: 'Introduce una fecha con el formato AAAA-MM-DD' },
  ],
  [/^Must be on or after (\d{4}-\d{2}-\d{2})$/, { de: 'Frühestens am $1', fr: 'Au plus tôt le $1', es: 'Como pronto el $1' }, { 1: 'date' }],
  [/^Must be on or before (\d{4}-\d{2}-\d{2})$/, { de: 'Spätestens am $1', fr: 'Au plus tard le $1', es: 'Como tarde el $1' }, { 1: 'date' }],
  [/^"(.*)" is not one of the columns$/s, { de: '„$1“ ist keine der Spalten', fr: '« $1 » ne fait pas partie des colonnes', es: '«$1» no es una de las columnas' }],
  [/^This row requires an answer$/, { de: 'Bitte beantworten Sie diese Zeile', fr: 'Cette ligne nécessite une réponse', es: 'Esta fila requiere una respuesta' }],
  [/^"(.*)" is ranked twice$/s, { de: '„$1“ steht zweimal in der Reihenfolge', fr: '« $1 » est classé deux fois', es: '«$1» aparece dos veces' }],
  [
    /^Rank every option; missing: (.*)$/s,
    { de: 'Ordnen Sie jede Option ein; es fehlt: $1', fr: 'Classez chaque option ; il manque : $1', es: 'Ordena todas las opciones; faltan: $1' },
  ],
  [/^Must be at most (\d+) characters$/, { de: 'Höchstens $1 Zeichen', fr: '$1 caractères au maximum', es: 'Como máximo $1 caracteres' }],
  [/^Must be at least (\d+) characters$/, { de: 'Mindestens $1 Zeichen', fr: '$1 caractères au minimum', es: 'Como mínimo $1 caracteres' }],
  [/^The passwords do not match$/, { de: 'Die Passwörter stimmen nicht überein', fr: 'Les mots de passe ne correspondent pas', es: 'Las contraseñas no coinciden' }],
  [
    /^Please tick the box to continue$/,
    { de: 'Bitte setzen Sie das Häkchen, um fortzufahren', fr: 'Veuillez cocher la case pour continuer', es: 'Marca la casilla para continuar' },
  ],
  [/^Upload one file$/, { de: 'Laden Sie eine Datei hoch', fr: 'Téléversez un fichier', es: 'Sube un archivo' }],
  [/^Upload at most (\d+) files$/, { de: 'Laden Sie höchstens $1 Dateien hoch', fr: 'Téléversez au plus $1 fichiers', es: 'Sube como máximo $1 archivos' }],
  [/^This field was sent more than once$/, { de: 'Dieses Feld wurde mehrfach gesendet', fr: 'Ce champ a été envoyé plusieurs fois', es: 'Este campo se envió más de una vez' }],
  [
    /^Please complete the check that you are not a robot\.$/,
    { de: 'Bitte bestätigen Sie, dass Sie kein Roboter sind.', fr: 'Veuillez confirmer que vous n’êtes pas un robot.', es: 'Confirma que no eres un robot.' },
  ],
  [
    /^The check that you are not a robot failed or expired\. Please try it again\.$/,
    {
      de: 'Die Prüfung, dass Sie kein Roboter sind, ist fehlgeschlagen oder abgelaufen. Bitte versuchen Sie es erneut.',
      fr: 'La vérification anti-robot a échoué ou expiré. Veuillez réessayer.',
      es: 'La comprobación de que no eres un robot ha fallado o caducado. Inténtalo de nuevo.',
    },
  ],
  [
    /^The check that you are not a robot cannot be verified right now\. Please try again in a moment\.$/,
    {
      de: 'Die Prüfung, dass Sie kein Roboter sind, ist gerade nicht möglich. Bitte versuchen Sie es gleich noch einmal.',
      fr: 'La vérification anti-robot est impossible pour le moment. Veuillez réessayer dans un instant.',
      es: 'Ahora mismo no se puede verificar que no eres un robot. Inténtalo de nuevo en un momento.',
    },
  ],
  [
    /^Must be the id of a file uploaded to this question \(POST \/s\/\{formId\}\/uploads\), or an http\(s\) link$/,
    { de: 'Laden Sie die Datei zu dieser Frage erneut hoch', fr: 'Téléversez de nouveau le fichier pour cette question', es: 'Vuelve a subir el archivo para esta pregunta' },
  ],
  // The checks of an uploaded file (uploads/file-types.ts, uploads.service.ts): shown at the field after a post without JavaScript, and by the page's script.
  [/^Choose a file to upload$/, { de: 'Wählen Sie eine Datei zum Hochladen', fr: 'Choisissez un fichier à téléverser', es: 'Elige un archivo para subir' }],
  [
    /^(.+) is too large \(at most (.+)\)$/s,
    { de: '$1 ist zu groß (höchstens $2)', fr: '$1 est trop volumineux ($2 au maximum)', es: '$1 es demasiado grande (como máximo $2)' },
    { 2: 'size' },
  ],
  [/^(.+) is empty$/s, { de: '$1 ist leer', fr: '$1 est vide', es: '$1 está vacío' }],
  [
    /^(.+): this type of file is not accepted \(accepted: (.+)\)$/s,
    {
      de: '$1: Dieser Dateityp wird nicht angenommen (erlaubt: $2)',
      fr: '$1 : ce type de fichier n’est pas accepté (formats acceptés : $2)',
      es: '$1: no se acepta este tipo de archivo (se aceptan: $2)',
    },
  ],
  [
    /^(.+) is not a valid \.(\w+) file \(accepted: (.+)\)$/s,
    { de: '$1 ist keine gültige .$2-Datei (erlaubt: $3)', fr: '$1 n’est pas un fichier .$2 valide (formats acceptés : $3)', es: '$1 no es un archivo .$2 válido (se aceptan: $3)' },
  ],
  [/^(.+) cannot be accepted: (.+)$/s, { de: '$1 kann nicht angenommen werden: $2', fr: '$1 ne peut pas être accepté : $2', es: '$1 no se puede aceptar: $2' }, { 2: 'refusal' }],
  // A page post's fields that can't be taken as sent (public/form-body.ts).
  [
    /^This field is not valid UTF-8 text$/,
    { de: 'Dieses Feld enthält keinen gültigen UTF-8-Text', fr: 'Ce champ ne contient pas de texte UTF-8 valide', es: 'Este campo no contiene texto UTF-8 válido' },
  ],
  [
    /^This field takes text, not a file$/,
    { de: 'Dieses Feld nimmt Text an, keine Datei', fr: 'Ce champ attend du texte, pas un fichier', es: 'Este campo admite texto, no archivos' },
  ],
  [
    /^This field contains characters that cannot be stored \(NUL\)$/,
    {
      de: 'Dieses Feld enthält Zeichen, die nicht gespeichert werden können (NUL)',
      fr: 'Ce champ contient des caractères impossibles à enregistrer (NUL)',
      es: 'Este campo contiene caracteres que no se pueden guardar (NUL)',
    },
  ],
  // Last: "<label> is required" (IdentityInfo) would also match messages above.
  [/^(.+) is required$/s, { de: '$1 ist erforderlich', fr: '$1 est obligatoire', es: '$1 es obligatorio' }],
];

/** A row's translation into `language`: the row's own (German, French, Spanish) or the language module's at the row's index. */
type RowText = (translations: Translations, index: number) => string;

/** `message` by the first of `table`'s patterns it matches, its groups put in (translated where `kinds` says); undefined when none matches. */
function translate(language: Exclude<Language, 'en'>, message: string, table: readonly [RegExp, Translations, GroupKinds?][], textOf: RowText): string | undefined {
  for (const [index, [pattern, translations, kinds]] of table.entries()) {
    const match = pattern.exec(message);
    if (!match) continue;
    return textOf(translations, index).replace(/\$(\d)/g, (_, at: string) => {
      const group = match[Number(at)] ?? '';
      const kind = kinds?.[Number(at)];
      if (kind === 'size') return localizeSize(language, group);
      if (kind === 'refusal') return translate(language, group, REFUSALS, rowText(language, 'refusals')) ?? group;
      if (kind === 'date') return localizeDate(language, group);
      if (kind === 'number') return localizeNumber(language, group);
      return group;
    });
  }
  return undefined;
}

const rowText =
  (language: Exclude<Language, 'en'>, list: 'messages' | 'refusals'): RowText =>
  (translations, index) =>
    isPackLanguage(language) ? PACKS[language][list][index]! : translations[language];

/** How many messages and refusals a language module must translate, in order (a test holds each module to them). */
export const MESSAGE_PATTERNS = { messages: MESSAGES.map(([pattern]) => pattern), refusals: REFUSALS.map(([pattern]) => pattern) };
export const languagePack = (language: string): LanguagePack | undefined => (Object.hasOwn(PACKS, language) ? PACKS[language as PackLanguage] : undefined);

/** A calendar day (`YYYY-MM-DD`) in the language's format (`5. März 2026`); anything else as written. */
export function localizeDate(locale: string, date: string): string {
  const at = /^\d{4}-\d{2}-\d{2}$/.test(date) ? Date.parse(`${date}T00:00:00Z`) : Number.NaN;
  return Number.isNaN(at) ? date : new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(at);
}

/** An instant (ISO 8601 or a Date) as the language writes a date and time, in UTC, which it names; anything unreadable as written. */
export function localizeInstant(locale: string, instant: string | Date): string {
  const at = typeof instant === 'string' ? Date.parse(instant) : instant.getTime();
  return Number.isNaN(at) ? String(instant) : `${new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(at)} UTC`;
}

/** A number as the locale's language writes it (`1.234,5`), every decimal place kept. */
export const formatNumber = (locale: string, value: number): string => new Intl.NumberFormat(languageOf(locale), { maximumFractionDigits: 20 }).format(value);

/** A number written as JavaScript writes it (`1234.5`) in the language's format (`1.234,5`); anything else as written. */
function localizeNumber(language: Language, text: string): string {
  const value = Number(text);
  return text.trim() === '' || !Number.isFinite(value) ? text : formatNumber(language, value);
}

/** An English message with its days and numbers in English's format (`Must be on or after March 5, 2026`). */
function englishFormats(message: string): string {
  for (const [pattern, , kinds] of MESSAGES) {
    const match = pattern.exec(message);
    if (!match) continue;
    const [at, kind] = Object.entries(kinds ?? {})[0] ?? [];
    const group = at === undefined ? undefined : match[Number(at)];
    // The rows with a day or a number end with it.
    if (group === undefined || !message.endsWith(group) || (kind !== 'date' && kind !== 'number')) return message;
    return message.slice(0, message.length - group.length) + (kind === 'date' ? localizeDate('en', group) : localizeNumber('en', group));
  }
  return message;
}

/** A validation message in the form's language; a message without a translation as written. */
export function localizeMessage(locale: string | null | undefined, message: string): string {
  const language = languageOf(locale);
  if (language === 'en') return englishFormats(message);
  return translate(language, message, MESSAGES, rowText(language, 'messages')) ?? message;
}
