/**
 * The results page's form-wide sections: the funnel (views → starts → finishes), drop-off per step and
 * responses over time. Each is a chart (charts.ts) with a table of the same numbers beside it.
 */
import { html } from 'hono/html';
import type { Insights } from '../insights/insights.service.ts';
import { barChart, lineChart, type Bar, type Html } from './charts.ts';
import type { Palette } from './colors.ts';
import type { ResultsWords } from './words.ts';
import type { formatters } from './words.ts';

export interface SectionContext {
  words: ResultsWords;
  format: ReturnType<typeof formatters>;
  palette: Palette;
}

/** A table: caption, header cells, rows of cells (the first of each row a row header). */
export function table(caption: string, head: readonly string[], rows: readonly (readonly (string | number)[])[]): Html {
  return html`<table>
    <caption>
      ${caption}
    </caption>
    <thead>
      <tr>
        ${head.map((cell) => html`<th scope="col">${cell}</th>`)}
      </tr>
    </thead>
    <tbody>
      ${rows.map(
        ([first, ...rest]) =>
          html`<tr>
            <th scope="row">${first}</th>
            ${rest.map((cell) => html`<td>${cell}</td>`)}
          </tr>`,
      )}
    </tbody>
  </table>`;
}

/** A chart and its table side by side (stacked on narrow screens). */
export const figure = (chart: Html, data: Html) =>
  html`<div class="rs-figure">
    <div class="rs-chart-box">${chart}</div>
    <div class="rs-table-box">${data}</div>
  </div>`;

/** Key figures as a description list. */
export const keyFigures = (figures: readonly [string, string][]) =>
  html`<dl class="rs-figures">
    ${figures.map(
      ([term, value]) =>
        html`<div>
          <dt>${term}</dt>
          <dd>${value}</dd>
        </div>`,
    )}
  </dl>`;

export function funnelSection(insights: Insights, { words, format, palette }: SectionContext): Html {
  const share = (n: number) => (insights.views === 0 ? format.number(n) : `${format.number(n)} (${format.percent(n / insights.views)})`);
  const bars: Bar[] = [
    { label: words.views, value: insights.views, text: format.number(insights.views) },
    { label: words.starts, value: insights.starts, text: share(insights.starts) },
    { label: words.finishes, value: insights.finishes, text: share(insights.finishes) },
  ];
  const time = insights.timeToComplete;
  return html`<section aria-labelledby="rs-funnel">
    <h2 id="rs-funnel">${words.funnel}</h2>
    ${keyFigures([
      [words.startRate, format.percent(insights.startRate)],
      [words.completionRate, format.percent(insights.completionRate)],
      [`${words.timeToComplete} (${words.median})`, time ? words.seconds(format.number(time.median)) : '–'],
      [`${words.timeToComplete} (${words.p90})`, time ? words.seconds(format.number(time.p90)) : '–'],
    ])}
    ${figure(
      barChart('rs-funnel-chart', words.funnel, bars, palette),
      table(
        words.funnel,
        [words.stage, words.count],
        bars.map((bar) => [bar.label, bar.text]),
      ),
    )}
  </section>`;
}

export function dropOffSection(insights: Insights, { words, format, palette }: SectionContext): Html | string {
  if (insights.steps.length === 0) return '';
  const bars = insights.steps.map((step) => ({
    label: step.name,
    value: step.reached,
    text: format.number(step.reached),
  }));
  const rows = insights.steps.map((step) => [step.name, format.number(step.reached), format.number(step.leftHere), format.percent(step.dropOffRate)]);
  return html`<section aria-labelledby="rs-steps">
    <h2 id="rs-steps">${words.dropOff}</h2>
    ${figure(
      barChart('rs-steps-chart', `${words.dropOff}: ${words.reached}`, bars, palette),
      table(words.dropOff, [words.step, words.reached, words.leftHere, words.dropOffRate], rows),
    )}
  </section>`;
}

export function seriesSection(insights: Insights, { words, format, palette }: SectionContext): Html {
  const { series } = insights;
  // A period is named by its first day: a month by its month (`Dezember 2026`), a day or week by the date.
  const periods = series.map((point) => (insights.groupBy === 'month' ? format.month : format.date)(point.period));
  const chart =
    series.length === 0
      ? html`<p>${words.noData}</p>`
      : lineChart(
          'rs-series-chart',
          words.overTime,
          periods,
          [
            { name: words.views, values: series.map((p) => p.views), color: palette.primary, dash: '' },
            { name: words.starts, values: series.map((p) => p.starts), color: palette.second, dash: '7 4' },
            { name: words.finishes, values: series.map((p) => p.finishes), color: palette.third, dash: '2 3' },
          ],
          palette,
        );
  const rows = series.map((p, index) => [periods[index]!, format.number(p.views), format.number(p.starts), format.number(p.finishes)]);
  return html`<section aria-labelledby="rs-series">
    <h2 id="rs-series">${words.overTime}</h2>
    <p class="rs-note">${words.timesInUtc}</p>
    ${figure(chart, table(words.overTime, [words.period, words.views, words.starts, words.finishes], rows))}
  </section>`;
}
