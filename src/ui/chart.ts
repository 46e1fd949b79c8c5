// A bar chart of hourly figures as SVG, drawn on the server (no script on the page): one bar
// per window, the maximum on the axis, every bar's value in its tooltip.
import { html, type Html } from './html.js';

const WIDTH = 720;
const HEIGHT = 180;
const LEFT = 64;
const BOTTOM = 22;
const TOP = 12;

export interface ChartPoint {
  /** Start of the window (ms since the epoch). */
  at: number;
  value: number;
}

const hourLabel = (ms: number) => `${String(new Date(ms).getUTCHours()).padStart(2, '0')}:00`;

/** `points` in time order; `format` renders a value (axis and tooltips). */
export function barChart(label: string, points: readonly ChartPoint[], format: (v: number) => string): Html {
  const max = Math.max(0, ...points.map((p) => p.value));
  const plotW = WIDTH - LEFT - 8;
  const plotH = HEIGHT - TOP - BOTTOM;
  const slot = points.length > 0 ? plotW / points.length : plotW;
  const bars = points.map((p, i) => {
    const h = max > 0 ? Math.max(p.value > 0 ? 1 : 0, (p.value / max) * plotH) : 0;
    const x = LEFT + i * slot + 1;
    const y = TOP + plotH - h;
    return html`<rect class="bar" x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${Math.max(1, slot - 2).toFixed(1)}" height="${h.toFixed(1)}"><title>${hourLabel(p.at)} UTC: ${format(p.value)}</title></rect>`;
  });
  // A label every 6 windows, so 24 hours carry 4.
  const ticks = points.flatMap((p, i) => (i % 6 === 0 ? [html`<text x="${(LEFT + i * slot).toFixed(1)}" y="${HEIGHT - 6}">${hourLabel(p.at)}</text>`] : []));
  return html`<svg class="chart" role="img" aria-label="${label}" viewBox="0 0 ${WIDTH} ${HEIGHT}" xmlns="http://www.w3.org/2000/svg">
<title>${label}</title>
<line class="axis" x1="${LEFT}" y1="${TOP + plotH}" x2="${WIDTH - 8}" y2="${TOP + plotH}"/>
<line class="axis" x1="${LEFT}" y1="${TOP}" x2="${WIDTH - 8}" y2="${TOP}"/>
<text x="4" y="${TOP + 10}">${format(max)}</text><text x="4" y="${TOP + plotH}">0</text>
${bars}${ticks}
</svg>`;
}
