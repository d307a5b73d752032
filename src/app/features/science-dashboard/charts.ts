// The dashboard's charts, drawn by Observable Plot: classifications and active volunteers per
// day, the consensus confidence histogram per course, and crowd against single-volunteer
// accuracy per course. Every text on them (labels, ticks, facet names, legend) comes in the
// page's language from the caller; the colours read on the dark panel (UI.md: contrast 4.5:1).
import * as Plot from '@observablehq/plot';
import type { DashboardFormats } from './format';
import type { AccuracyRow, ConfidenceRow, DailyRow } from './shape';

const TEXT = '#f3eedc';
const BAR = '#9cc3ff';
const SECOND = '#ffc27a';
const WIDTH = 640;

const style = { background: 'transparent', color: TEXT, fontSize: '12px', overflow: 'visible' };

export function dailyChart(
  rows: readonly DailyRow[],
  field: 'answers' | 'volunteers',
  labels: { day: string; value: string },
  formats: DashboardFormats,
): Element {
  const mark =
    field === 'answers'
      ? Plot.rectY(rows, { x: 'date', y: field, interval: 'day', fill: BAR, inset: 1 })
      : Plot.lineY(rows, { x: 'date', y: field, stroke: SECOND, strokeWidth: 2, marker: 'circle' });
  return Plot.plot({
    width: WIDTH,
    height: 200,
    style,
    marginLeft: 50,
    x: { type: 'time', label: labels.day, tickFormat: formats.shortDay, ticks: 6 },
    y: { label: labels.value, grid: true, tickFormat: formats.count, nice: true, zero: true },
    marks: [mark, Plot.ruleY([0])],
  });
}

export function confidenceChart(
  rows: readonly ConfidenceRow[],
  labels: { confidence: string; targets: string },
  formats: DashboardFormats,
): Element {
  const courses = new Set(rows.map((row) => row.course)).size;
  return Plot.plot({
    width: WIDTH,
    height: 60 + 110 * courses,
    style,
    marginLeft: 50,
    marginRight: 120,
    x: { domain: [0.5, 1], label: labels.confidence, tickFormat: formats.probability },
    y: { label: labels.targets, grid: true, tickFormat: formats.count, nice: true },
    fy: { label: null },
    marks: [
      Plot.rectY(rows, { x1: 'from', x2: 'to', y: 'targets', fy: 'course', fill: BAR, inset: 1 }),
      Plot.ruleY([0]),
    ],
  });
}

export function accuracyChart(
  rows: readonly AccuracyRow[],
  labels: { votes: string; accuracy: string; crowd: string; volunteer: string },
  formats: DashboardFormats,
): Element {
  const courses = new Set(rows.map((row) => row.course)).size;
  const named = rows.map((row) => ({ ...row, name: row.series === 'crowd' ? labels.crowd : labels.volunteer }));
  return Plot.plot({
    width: WIDTH,
    height: 60 + 130 * courses,
    style,
    marginLeft: 50,
    marginRight: 120,
    x: { label: labels.votes, tickFormat: formats.count, ticks: 8 },
    y: { domain: [0, 1], label: labels.accuracy, grid: true, tickFormat: formats.percent },
    fy: { label: null },
    color: { domain: [labels.crowd, labels.volunteer], range: [BAR, SECOND], legend: true },
    marks: [
      // z names the series: with a point or two per line Plot would take the colour for a quantity.
      Plot.lineY(named, {
        x: 'votes',
        y: 'accuracy',
        z: 'name',
        stroke: 'name',
        fy: 'course',
        strokeWidth: 2,
        marker: 'circle',
      }),
    ],
  });
}
