/** The results page's words in the languages forms are shown in (src/i18n/locales.ts), and its number formats. */
import { languageOf, type Language } from '../i18n/locales.ts';

export interface ResultsWords {
  results: string;
  readOnly: string;
  funnel: string;
  stage: string;
  views: string;
  starts: string;
  finishes: string;
  startRate: string;
  completionRate: string;
  timeToComplete: string;
  median: string;
  p90: string;
  dropOff: string;
  step: string;
  reached: string;
  leftHere: string;
  dropOffRate: string;
  overTime: string;
  period: string;
  questions: string;
  answers: string;
  option: string;
  count: string;
  share: string;
  mean: string;
  statistic: string;
  value: string;
  min: string;
  max: string;
  earliest: string;
  latest: string;
  promoters: string;
  passives: string;
  detractors: string;
  npsScore: string;
  row: string;
  meanPosition: string;
  textAnswers: string;
  noData: string;
  seconds: (n: string) => string;
  timesInUtc: string;
  notFoundTitle: string;
  notFoundText: string;
  tooManyTitle: string;
  tooManyText: string;
  errorTitle: string;
  errorText: string;
}

const EN: ResultsWords = {
  results: 'Results',
  readOnly: 'A read-only view of how this form is doing.',
  funnel: 'Views, starts and finishes',
  stage: 'Stage',
  views: 'Views',
  starts: 'Starts',
  finishes: 'Finishes',
  startRate: 'Start rate',
  completionRate: 'Completion rate',
  timeToComplete: 'Time to complete',
  median: 'Median',
  p90: '90th percentile',
  dropOff: 'Drop-off per step',
  step: 'Step',
  reached: 'Reached',
  leftHere: 'Left here',
  dropOffRate: 'Drop-off rate',
  overTime: 'Responses over time',
  period: 'Period',
  questions: 'Questions',
  answers: 'Answers',
  option: 'Option',
  count: 'Count',
  share: 'Share',
  mean: 'Mean',
  statistic: 'Statistic',
  value: 'Value',
  min: 'Minimum',
  max: 'Maximum',
  earliest: 'Earliest',
  latest: 'Latest',
  promoters: 'Promoters (9–10)',
  passives: 'Passives (7–8)',
  detractors: 'Detractors (0–6)',
  npsScore: 'Net Promoter Score',
  row: 'Row',
  meanPosition: 'Mean position',
  textAnswers: 'Latest answers',
  noData: 'No answers yet.',
  seconds: (n) => `${n} s`,
  timesInUtc: 'Periods are days, weeks or months in UTC.',
  notFoundTitle: 'Results not found',
  notFoundText: 'This link does not exist, has expired or was revoked.',
  tooManyTitle: 'Too many requests',
  tooManyText: 'Please wait a minute, then try again.',
  errorTitle: 'Something went wrong',
  errorText: 'Please try again in a moment.',
};

const DE: ResultsWords = {
  ...EN,
  results: 'Ergebnisse',
  readOnly: 'Eine schreibgeschützte Übersicht, wie dieses Formular läuft.',
  funnel: 'Aufrufe, Starts und Abschlüsse',
  stage: 'Stufe',
  views: 'Aufrufe',
  starts: 'Starts',
  finishes: 'Abschlüsse',
  startRate: 'Startrate',
  completionRate: 'Abschlussrate',
  timeToComplete: 'Dauer bis zum Abschluss',
  median: 'Median',
  p90: '90. Perzentil',
  dropOff: 'Abbrüche pro Schritt',
  step: 'Schritt',
  reached: 'Erreicht',
  leftHere: 'Hier verlassen',
  dropOffRate: 'Abbruchrate',
  overTime: 'Antworten im Zeitverlauf',
  period: 'Zeitraum',
  questions: 'Fragen',
  answers: 'Antworten',
  option: 'Option',
  count: 'Anzahl',
  share: 'Anteil',
  mean: 'Mittelwert',
  statistic: 'Kennzahl',
  value: 'Wert',
  min: 'Minimum',
  max: 'Maximum',
  earliest: 'Frühestes',
  latest: 'Spätestes',
  promoters: 'Promotoren (9–10)',
  passives: 'Passive (7–8)',
  detractors: 'Kritiker (0–6)',
  row: 'Zeile',
  meanPosition: 'Mittlere Position',
  textAnswers: 'Neueste Antworten',
  noData: 'Noch keine Antworten.',
  timesInUtc: 'Zeiträume sind Tage, Wochen oder Monate in UTC.',
  notFoundTitle: 'Ergebnisse nicht gefunden',
  notFoundText: 'Dieser Link existiert nicht, ist abgelaufen oder wurde widerrufen.',
  tooManyTitle: 'Zu viele Anfragen',
  tooManyText: 'Bitte warten Sie eine Minute und versuchen Sie es dann erneut.',
  errorTitle: 'Etwas ist schiefgelaufen',
  errorText: 'Bitte versuchen Sie es gleich noch einmal.',
};

const FR: ResultsWords = {
  ...EN,
  results: 'Résultats',
  readOnly: 'Une vue en lecture seule des résultats de ce formulaire.',
  funnel: 'Vues, débuts et fins',
  stage: 'Étape du parcours',
  views: 'Vues',
  starts: 'Débuts',
  finishes: 'Fins',
  startRate: 'Taux de début',
  completionRate: 'Taux de complétion',
  timeToComplete: 'Durée de complétion',
  median: 'Médiane',
  p90: '90e centile',
  dropOff: 'Abandons par étape',
  step: 'Étape',
  reached: 'Atteinte',
  leftHere: 'Quittée ici',
  dropOffRate: "Taux d'abandon",
  overTime: 'Réponses dans le temps',
  period: 'Période',
  questions: 'Questions',
  answers: 'Réponses',
  option: 'Option',
  count: 'Nombre',
  share: 'Part',
  mean: 'Moyenne',
  statistic: 'Indicateur',
  value: 'Valeur',
  min: 'Minimum',
  max: 'Maximum',
  earliest: 'Le plus tôt',
  latest: 'Le plus tard',
  promoters: 'Promoteurs (9–10)',
  passives: 'Passifs (7–8)',
  detractors: 'Détracteurs (0–6)',
  row: 'Ligne',
  meanPosition: 'Position moyenne',
  textAnswers: 'Dernières réponses',
  noData: 'Pas encore de réponses.',
  timesInUtc: 'Les périodes sont des jours, semaines ou mois en UTC.',
  notFoundTitle: 'Résultats introuvables',
  notFoundText: "Ce lien n'existe pas, a expiré ou a été révoqué.",
  tooManyTitle: 'Trop de requêtes',
  tooManyText: 'Veuillez patienter une minute, puis réessayer.',
  errorTitle: 'Une erreur est survenue',
  errorText: 'Veuillez réessayer dans un instant.',
};

const ES: ResultsWords = {
  ...EN,
  results: 'Resultados',
  readOnly: 'Una vista de solo lectura de cómo va este formulario.',
  funnel: 'Visitas, inicios y finalizaciones',
  stage: 'Etapa',
  views: 'Visitas',
  starts: 'Inicios',
  finishes: 'Finalizaciones',
  startRate: 'Tasa de inicio',
  completionRate: 'Tasa de finalización',
  timeToComplete: 'Tiempo para completar',
  median: 'Mediana',
  p90: 'Percentil 90',
  dropOff: 'Abandono por paso',
  step: 'Paso',
  reached: 'Alcanzado',
  leftHere: 'Abandonado aquí',
  dropOffRate: 'Tasa de abandono',
  overTime: 'Respuestas a lo largo del tiempo',
  period: 'Periodo',
  questions: 'Preguntas',
  answers: 'Respuestas',
  option: 'Opción',
  count: 'Cantidad',
  share: 'Porcentaje',
  mean: 'Media',
  statistic: 'Estadística',
  value: 'Valor',
  min: 'Mínimo',
  max: 'Máximo',
  earliest: 'Más antigua',
  latest: 'Más reciente',
  promoters: 'Promotores (9–10)',
  passives: 'Pasivos (7–8)',
  detractors: 'Detractores (0–6)',
  row: 'Fila',
  meanPosition: 'Posición media',
  textAnswers: 'Últimas respuestas',
  noData: 'Aún no hay respuestas.',
  timesInUtc: 'Los periodos son días, semanas o meses en UTC.',
  notFoundTitle: 'Resultados no encontrados',
  notFoundText: 'Este enlace no existe, ha caducado o fue revocado.',
  tooManyTitle: 'Demasiadas solicitudes',
  tooManyText: 'Espere un minuto y vuelva a intentarlo.',
  errorTitle: 'Algo salió mal',
  errorText: 'Vuelva a intentarlo en un momento.',
};

/** Written in these four; a form in another built-in language shows its results page in English for now. */
const WORDS: Partial<Record<Language, ResultsWords>> = { en: EN, de: DE, fr: FR, es: ES };

export const resultsWords = (locale: string | null | undefined): ResultsWords => WORDS[languageOf(locale)] ?? EN;

/** Numbers and percentages in the page's language. */
export function formatters(locale: string) {
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
  const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 });
  return {
    number: (n: number | null | undefined) => (n === null || n === undefined ? '–' : number.format(n)),
    percent: (n: number | null | undefined) => (n === null || n === undefined ? '–' : percent.format(n)),
  };
}
