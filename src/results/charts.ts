/**
 * Server-rendered SVG charts of the results page. Each is an `<svg role="img">` named by its `<title>`;
 * the table beside it (sections.ts) carries the same numbers as text, for screen readers and copying.
 * Colours come as presentation attributes (no style attributes: the page's CSP allows only its nonce'd
 * stylesheet), and series are told apart by dashes as well as colour.
 */
import { html } from 'hono/html';
import type { Palette } from './colors.ts';
import { mix, textOn } from './colors.ts';

export type Html = ReturnType<typeof html>;
export interface Bar {
  label: string;
  value: number;
  /** The value as the page writes it (`12 (40 %)`). */
  text: string;
}

const WIDTH = 600;
const ROW = 28;

/** `text` cut to `max` characters (the table beside the chart has it whole). */
const short = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const round = (n: number) => Math.round(n * 10) / 10;

function svg(id: string, title: string, height: number, body: Html | Html[]): Html {
  return html`<svg
    class="rs-chart"
    viewBox="0 0 ${WIDTH} ${height}"
    width="${WIDTH}"
    height="${height}"
    role="img"
    aria-labelledby="${id}-title"
    focusable="false"
  >
    <title id="${id}-title">${title}</title>
    ${body}
  </svg>`;
}

/** Horizontal bars, one row per bar: label, bar, value. */
export function barChart(id: string, title: string, bars: readonly Bar[], palette: Palette): Html {
  const labelWidth = 190;
  const valueWidth = 110;
  const span = WIDTH - labelWidth - valueWidth - 10;
  const max = Math.max(1, ...bars.map((bar) => bar.value));
  const rows = bars.map((bar, index) => {
    const y = index * ROW + 4;
    const width = round((bar.value / max) * span);
    return html`<text x="${labelWidth - 8}" y="${y + 15}" text-anchor="end" fill="${palette.text}"
        >${short(bar.label, 20)}</text
      ><rect
        x="${labelWidth}"
        y="${y + 2}"
        width="${Math.max(width, bar.value > 0 ? 2 : 0)}"
        height="${ROW - 10}"
        rx="3"
        fill="${palette.primary}"
      ></rect
      ><line x1="${labelWidth}" y1="${y}" x2="${labelWidth}" y2="${y + ROW - 4}" stroke="${palette.rule}"></line
      ><text x="${labelWidth + width + 6}" y="${y + 15}" fill="${palette.text}">${bar.text}</text>`;
  });
  return svg(id, title, Math.max(ROW, bars.length * ROW) + 8, rows);
}

/** Vertical columns over an axis (a scale's distribution): value above, label below. */
export function columnChart(id: string, title: string, bars: readonly Bar[], palette: Palette): Html {
  const height = 200;
  const base = height - 28;
  const slot = (WIDTH - 20) / Math.max(1, bars.length);
  const max = Math.max(1, ...bars.map((bar) => bar.value));
  const columns = bars.map((bar, index) => {
    const x = 10 + index * slot;
    const h = round((bar.value / max) * (base - 24));
    return html`<rect
        x="${round(x + slot * 0.15)}"
        y="${round(base - h)}"
        width="${round(slot * 0.7)}"
        height="${Math.max(h, bar.value > 0 ? 2 : 0)}"
        rx="2"
        fill="${palette.primary}"
      ></rect
      ><text x="${round(x + slot / 2)}" y="${round(base - h - 6)}" text-anchor="middle" fill="${palette.text}"
        >${bar.value}</text
      ><text x="${round(x + slot / 2)}" y="${height - 8}" text-anchor="middle" fill="${palette.text}"
        >${short(bar.label, Math.max(3, Math.floor(slot / 8)))}</text
      >`;
  });
  return svg(id, title, height, [html`<line x1="10" y1="${base}" x2="${WIDTH - 10}" y2="${base}" stroke="${palette.rule}"></line>`, ...columns]);
}

export interface Line {
  name: string;
  values: readonly number[];
  color: string;
  /** SVG stroke-dasharray; '' for a solid line. */
  dash: string;
}

/** Lines over periods (responses over time), with a legend, the first and last period and the top value. */
export function lineChart(id: string, title: string, periods: readonly string[], lines: readonly Line[], palette: Palette): Html {
  const height = 240;
  const [left, top, right, bottom] = [40, 36, WIDTH - 12, height - 30];
  const max = Math.max(1, ...lines.flatMap((line) => line.values));
  const x = (index: number) => round(periods.length <= 1 ? (left + right) / 2 : left + (index / (periods.length - 1)) * (right - left));
  const y = (value: number) => round(bottom - (value / max) * (bottom - top));
  const drawn = lines.map((line) => {
    const points = line.values.map((value, index) => `${x(index)},${y(value)}`).join(' ');
    const dots = line.values.map((value, index) => html`<circle cx="${x(index)}" cy="${y(value)}" r="3" fill="${line.color}"></circle>`);
    return html`<polyline
        points="${points}"
        fill="none"
        stroke="${line.color}"
        stroke-width="2.5"
        ${line.dash ? html` stroke-dasharray="${line.dash}"` : ''}
      ></polyline
      >${dots}`;
  });
  const legend = lines.map(
    (line, index) =>
      html`<line
          x1="${left + index * 150}"
          y1="12"
          x2="${left + index * 150 + 28}"
          y2="12"
          stroke="${line.color}"
          stroke-width="2.5"
          ${line.dash ? html` stroke-dasharray="${line.dash}"` : ''}
        ></line
        ><text x="${left + index * 150 + 34}" y="16" fill="${palette.text}">${line.name}</text>`,
  );
  const axes = html`<line x1="${left}" y1="${bottom}" x2="${right}" y2="${bottom}" stroke="${palette.rule}"></line
    ><line x1="${left}" y1="${top}" x2="${left}" y2="${bottom}" stroke="${palette.rule}"></line
    ><text x="${left - 6}" y="${top + 4}" text-anchor="end" fill="${palette.muted}">${max}</text
    ><text x="${left - 6}" y="${bottom}" text-anchor="end" fill="${palette.muted}">0</text
    ><text x="${left}" y="${height - 8}" fill="${palette.muted}">${periods[0] ?? ''}</text
    >${periods.length > 1 ? html`<text x="${right}" y="${height - 8}" text-anchor="end" fill="${palette.muted}">${periods.at(-1)}</text>` : ''}`;
  return svg(id, title, height, [axes, ...legend, ...drawn]);
}

export interface Segment {
  label: string;
  value: number;
  color: string;
}

/** One bar split into segments (an NPS question's detractors, passives, promoters), each labelled below. */
export function stackedBar(id: string, title: string, segments: readonly Segment[], palette: Palette): Html {
  const total = segments.reduce((sum, segment) => sum + segment.value, 0);
  let at = 10;
  const parts = segments.map((segment, index) => {
    const width = total === 0 ? 0 : round((segment.value / total) * (WIDTH - 20));
    const part = html`<rect x="${at}" y="8" width="${width}" height="32" fill="${segment.color}"></rect
      >${width >= 28 ? html`<text x="${round(at + width / 2)}" y="29" text-anchor="middle" fill="${textOn(segment.color)}">${segment.value}</text>` : ''}<rect
        x="${10 + index * 190}"
        y="54"
        width="14"
        height="14"
        fill="${segment.color}"
      ></rect
      ><text x="${30 + index * 190}" y="66" fill="${palette.text}">${short(segment.label, 22)}</text>`;
    at += width;
    return part;
  });
  return svg(id, title, 80, [html`<rect x="10" y="8" width="${WIDTH - 20}" height="32" fill="none" stroke="${palette.rule}"></rect>`, ...parts]);
}

/** A grid of counts (a matrix's rows × columns), each cell shaded by its count and labelled with it. */
export function gridChart(id: string, title: string, rows: readonly string[], columns: readonly string[], counts: readonly (readonly number[])[], palette: Palette): Html {
  const labelWidth = 160;
  const cell = Math.min(60, Math.floor((WIDTH - labelWidth - 10) / Math.max(1, columns.length)));
  const max = Math.max(1, ...counts.flat());
  const header = columns.map(
    (column, index) =>
      html`<text x="${labelWidth + index * cell + cell / 2}" y="16" text-anchor="middle" fill="${palette.text}"
        >${short(column, Math.max(3, Math.floor(cell / 8)))}</text
      >`,
  );
  const body = rows.map((row, r) => {
    const y = 26 + r * 32;
    const cells = columns.map((_, c) => {
      const n = counts[r]?.[c] ?? 0;
      const fill = mix(palette.background, palette.primary, n / max);
      return html`<rect
          x="${labelWidth + c * cell + 1}"
          y="${y}"
          width="${cell - 2}"
          height="30"
          fill="${fill}"
          stroke="${palette.rule}"
        ></rect
        ><text x="${labelWidth + c * cell + cell / 2}" y="${y + 20}" text-anchor="middle" fill="${textOn(fill)}"
          >${n}</text
        >`;
    });
    return html`<text x="${labelWidth - 8}" y="${y + 20}" text-anchor="end" fill="${palette.text}"
        >${short(row, 20)}</text
      >${cells}`;
  });
  return svg(id, title, 30 + rows.length * 32, [...header, ...body]);
}

/** Where a number question's answers lie: minimum to maximum on an axis, median and mean marked. */
export function rangeStrip(
  id: string,
  title: string,
  stats: { min: number; max: number; median: number; mean: number },
  labels: { median: string; mean: string },
  palette: Palette,
): Html {
  const [left, right] = [40, WIDTH - 40];
  const span = stats.max - stats.min;
  const x = (value: number) => round(span === 0 ? (left + right) / 2 : left + ((value - stats.min) / span) * (right - left));
  return svg(
    id,
    title,
    90,
    html`<line
        x1="${x(stats.min)}"
        y1="40"
        x2="${x(stats.max)}"
        y2="40"
        stroke="${palette.primary}"
        stroke-width="6"
      ></line
      ><text x="${x(stats.min)}" y="70" text-anchor="middle" fill="${palette.text}">${stats.min}</text
      >${span === 0 ? '' : html`<text x="${x(stats.max)}" y="70" text-anchor="middle" fill="${palette.text}">${stats.max}</text>`}<line
        x1="${x(stats.median)}"
        y1="26"
        x2="${x(stats.median)}"
        y2="54"
        stroke="${palette.text}"
        stroke-width="3"
      ></line
      ><text x="${x(stats.median)}" y="18" text-anchor="middle" fill="${palette.text}">${labels.median}</text
      ><circle
        cx="${x(stats.mean)}"
        cy="40"
        r="6"
        fill="${palette.background}"
        stroke="${palette.text}"
        stroke-width="2"
      ></circle
      ><text x="${x(stats.mean)}" y="86" text-anchor="middle" fill="${palette.text}">${labels.mean}</text>`,
  );
}
