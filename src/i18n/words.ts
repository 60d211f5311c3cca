/** The words the page says itself, in one language (src/i18n/locales.ts holds them for every built-in language). */

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
  /** The screen of a form before its `limits.opensAt`, and when it opens (a date and time, formatted). */
  notYetOpenText: string;
  opensOn: (when: string) => string;
  sessionExpiredTitle: string;
  sessionExpiredText: string;
  startAgain: string;
  /** The accessible name of the language switcher. */
  language: string;
  /** The accessible name of the embed popup's close button. */
  close: string;

  // ---- the components' own words (the form's texts, when it has them, come first)
  /** The accessible name of a text field with neither a question nor a placeholder. */
  yourAnswer: string;
  /** A Disclaimer's check box without a `checkboxLabel`. */
  agree: string;
  /** The accessible name of a PasswordCreatorInput without a question, and its second field's label. */
  password: string;
  repeatPassword: string;
  /** IdentityInfo: the dial code list of a phone field. */
  dialCode: string;
  /** FileUploader: the accessible name of an uploader without a question, and what it takes. */
  file: string;
  accepted: (types: string, size: string, files: number) => string;
  /** Below the files a revisited step keeps. */
  replaceFiles: (count: number) => string;
  /** A kept file known only by its id. */
  uploadedEarlier: string;
  /** The page's script, while and after a file goes up (`{n}`: how many files). */
  uploadProgress: string;
  uploadedOne: string;
  uploadedMany: string;
  uploadFailed: string;
  uploadOffline: string;
  uploadTooLarge: string;
  uploadBusy: string;
  /** Schedulers: the calendar picker's name (and a calendar's without one), the frame's title, the link, the notes. */
  calendar: string;
  calendarTitle: (provider: string | undefined) => string;
  openCalendar: string;
  calendarUnavailable: string;
  meetingBooked: string;
  /** The same note with the booked meeting's time (`when`: a date and time in the language's format). */
  meetingBookedAt: (when: string) => string;
  /** Date: the hint under a field with limits (the days in the language's format). */
  dateBetween: (min: string, max: string) => string;
  dateFrom: (min: string) => string;
  dateUntil: (max: string) => string;
  /** Captchas without JavaScript. */
  captchaNeedsScript: string;
  /** Rating: the accessible name of one star. */
  ratingValue: (value: number, scale: number) => string;
  /** NPS: the labels under 0 and 10 when the content gives none. */
  npsLow: string;
  npsHigh: string;
  /** Ranking: the label of the select of one position (1 is first). */
  rankingPosition: (position: number) => string;
  /** Ranking with JavaScript: the buttons that move an option one place up or down (its name follows). */
  rankingMoveUp: string;
  rankingMoveDown: string;

  // ---- message pages of a form's posts
  unsupportedTitle: string;
  unsupportedText: string;
  unreadableTitle: string;
  unreadableText: string;
  tooMuchTitle: string;
  tooMuchText: (size: string) => string;
}

/** The words of a form's read-only results page (src/results/), in one language (src/results/words.ts holds them for en, de, fr and es). */
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

/** A built-in language beyond the first four: its page words, its results page's, and its validation messages in MESSAGES' and REFUSALS' order (locales.ts). */
export interface LanguagePack {
  words: PageWords;
  results: ResultsWords;
  messages: readonly string[];
  refusals: readonly string[];
  sizeUnits: { MB: string; KB: string; bytes: string };
}
