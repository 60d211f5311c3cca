/**
 * Every question's summary on the results page, drawn by what its summary holds (responses/summary.service.ts):
 * bars for choices, a distribution for scales, a range for numbers, the NPS score and its three
 * segments, a grid for matrices and rankings; each with its table. Free-text answers only when given.
 */
import { html } from 'hono/html';
import type { QuestionSummary } from '../responses/summary.service.ts';
import { barChart, columnChart, gridChart, rangeStrip, stackedBar, type Html } from './charts.ts';
import { figure, keyFigures, table, type SectionContext } from './sections.ts';

const titleOf = (q: QuestionSummary) => q.headline ?? q.type;
const chartId = (q: QuestionSummary, part: string) => `rs-q-${q.questionId}-${part}`;

/** Choices (and a scale's values when it has no statistics): bars, or columns for a scale. */
function optionsPart(q: QuestionSummary, ctx: SectionContext): Html | string {
  if (!q.options || q.options.length === 0) return '';
  const { words, format, palette } = ctx;
  const share = (n: number) => (q.answers === 0 ? '–' : format.percent(n / q.answers));
  const bars = q.options.map((o) => ({
    label: o.option,
    value: o.count,
    text: `${format.number(o.count)} (${share(o.count)})`,
  }));
  const chart = q.numbers
    ? columnChart(chartId(q, 'options'), `${titleOf(q)}: ${words.count}`, bars, palette)
    : barChart(chartId(q, 'options'), `${titleOf(q)}: ${words.count}`, bars, palette);
  return figure(
    chart,
    table(
      titleOf(q),
      [words.option, words.count, words.share],
      q.options.map((o) => [o.option, format.number(o.count), share(o.count)]),
    ),
  );
}

/** A number's (or scale's) statistics; a number without options also gets its range drawn. */
function numbersPart(q: QuestionSummary, ctx: SectionContext): Html | string {
  const n = q.numbers;
  if (!n || n.count === 0) return '';
  const { words, format, palette } = ctx;
  const figures: [string, string][] = [
    [words.mean, format.number(n.mean)],
    [words.median, format.number(n.median)],
    [words.min, format.number(n.min)],
    [words.max, format.number(n.max)],
  ];
  if (q.options || n.min === null || n.max === null || n.median === null || n.mean === null) return keyFigures(figures);
  const stats = { min: n.min, max: n.max, median: n.median, mean: n.mean };
  const chart = rangeStrip(
    chartId(q, 'range'),
    `${titleOf(q)}: ${words.min}–${words.max}`,
    stats,
    { median: `${words.median} ${format.number(n.median)}`, mean: `${words.mean} ${format.number(n.mean)}` },
    palette,
  );
  return figure(chart, table(titleOf(q), [words.statistic, words.value], figures));
}

function promoterPart(q: QuestionSummary, ctx: SectionContext): Html | string {
  const p = q.promoterScore;
  if (!p) return '';
  const { words, format, palette } = ctx;
  const segments = [
    { label: words.detractors, value: p.detractors, color: palette.third },
    { label: words.passives, value: p.passives, color: palette.second },
    { label: words.promoters, value: p.promoters, color: palette.primary },
  ];
  const total = p.detractors + p.passives + p.promoters;
  const share = (n: number) => (total === 0 ? '–' : format.percent(n / total));
  return html`${keyFigures([[words.npsScore, format.number(p.score)]])}${figure(
    stackedBar(chartId(q, 'nps'), `${titleOf(q)}: ${words.npsScore}`, segments, palette),
    table(
      `${titleOf(q)}: ${words.npsScore}`,
      [words.option, words.count, words.share],
      segments.map((s) => [s.label, format.number(s.value), share(s.value)]),
    ),
  )}`;
}

/** A matrix's rows × columns, or a ranking's options × positions (with the mean position). */
function rowsPart(q: QuestionSummary, ctx: SectionContext): Html | string {
  const rows = q.rows;
  if (!rows || rows.length === 0) return '';
  const { words, format, palette } = ctx;
  const columns = rows[0]!.options.map((o) => o.option);
  const counts = rows.map((row) => row.options.map((o) => o.count));
  const withMean = rows.some((row) => row.mean !== null);
  const head = [words.row, ...columns, ...(withMean ? [words.meanPosition] : [])];
  const body = rows.map((row) => [row.row, ...row.options.map((o) => format.number(o.count)), ...(withMean ? [format.number(row.mean)] : [])]);
  return figure(
    gridChart(
      chartId(q, 'grid'),
      titleOf(q),
      rows.map((row) => row.row),
      columns,
      counts,
      palette,
    ),
    table(titleOf(q), head, body),
  );
}

function textPart(answers: readonly string[] | undefined, ctx: SectionContext): Html | string {
  if (!answers || answers.length === 0) return '';
  return html`<h4>${ctx.words.textAnswers}</h4>
    <ul class="rs-texts">
      ${answers.map((answer) => html`<li>${answer}</li>`)}
    </ul>`;
}

function questionSection(q: QuestionSummary, textAnswers: readonly string[] | undefined, ctx: SectionContext): Html {
  const { words, format } = ctx;
  const dates =
    q.dates && q.dates.earliest
      ? keyFigures([
          [words.earliest, format.date(q.dates.earliest)],
          [words.latest, q.dates.latest ? format.date(q.dates.latest) : '–'],
        ])
      : '';
  const parts =
    q.answers === 0
      ? html`<p>${words.noData}</p>`
      : html`${promoterPart(q, ctx)}${q.rows ? rowsPart(q, ctx) : optionsPart(q, ctx)}${numbersPart(q, ctx)}${dates}${textPart(textAnswers, ctx)}`;
  return html`<section class="rs-question" aria-labelledby="${chartId(q, 'h')}">
    <h3 id="${chartId(q, 'h')}">${titleOf(q)}</h3>
    <p class="rs-note">${words.answers}: ${format.number(q.answers)}</p>
    ${parts}
  </section>`;
}

export function questionsSection(questions: readonly QuestionSummary[], textAnswers: ReadonlyMap<string, string[]>, ctx: SectionContext): Html | string {
  if (questions.length === 0) return '';
  return html`<section aria-labelledby="rs-questions">
    <h2 id="rs-questions">${ctx.words.questions}</h2>
    ${questions.map((q) => questionSection(q, textAnswers.get(q.questionId), ctx))}
  </section>`;
}
