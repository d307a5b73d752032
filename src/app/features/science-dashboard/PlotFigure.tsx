// One chart of the dashboard: a figure named by its caption (a heading of the page), the chart
// Observable Plot draws into it, and the data behind the chart as a table for screen readers
// (visually hidden). The drawing is hidden from assistive technology, which reads the table
// instead: Plot names its own parts in English (aria-label="x-axis tick") whatever the page's
// language, and a chart of lines is no way to read thirty numbers aloud.
import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export function PlotFigure({
  caption,
  draw,
  table,
}: {
  caption: string;
  /** Makes the chart (Plot.plot(…)); a new function draws it again; null: no data yet. */
  draw: (() => Element) | null;
  /** The chart's data as a <table>. */
  table: ReactNode;
}) {
  const { t } = useTranslation();
  const holder = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!draw) return;
    const chart = draw();
    chart.setAttribute('aria-hidden', 'true');
    for (const part of chart.querySelectorAll('[aria-label], [aria-description]')) {
      part.removeAttribute('aria-label');
      part.removeAttribute('aria-description');
    }
    holder.current?.replaceChildren(chart);
    return () => chart.remove();
  }, [draw]);
  return (
    <figure className="science-figure">
      <figcaption>
        <h2>{caption}</h2>
      </figcaption>
      {draw ? (
        <>
          <div ref={holder} className="science-chart" />
          <div className="science-visually-hidden">{table}</div>
        </>
      ) : (
        <p>{t('science.none')}</p>
      )}
    </figure>
  );
}
