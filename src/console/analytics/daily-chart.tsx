/**
 * Searches, searches without results and clicks per day as a uPlot line chart, sized to its
 * box, with the same numbers as a table for screen readers and for reading exact values.
 */
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { count } from '../format.js';
import { analyticsTexts } from './analytics-texts.js';

export interface DayRow {
  day: string;
  searches: number;
  no_results: number;
  clicks: number;
}

export function DailyChart(props: { days: readonly DayRow[] }) {
  const t = analyticsTexts();
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (element === null) return;
    const x = props.days.map((day) => Date.parse(`${day.day}T12:00:00Z`) / 1000);
    const data: uPlot.AlignedData = [
      x,
      props.days.map((day) => day.searches),
      props.days.map((day) => day.no_results),
      props.days.map((day) => day.clicks),
    ];
    const chart = new uPlot(
      {
        width: Math.max(element.clientWidth, 280),
        height: 240,
        scales: { x: { time: true } },
        axes: [{}, { values: (_, ticks) => ticks.map((tick) => count(tick)) }],
        series: [
          // uPlot names the x series "Time" in its legend unless told: the page's language names it.
          { label: t.day },
          { label: t.searches, stroke: '#1a56c4', width: 2 },
          { label: t.noResults, stroke: '#b3261e', width: 2 },
          { label: t.clicks, stroke: '#1b6e35', width: 2 },
        ],
      },
      data,
      element,
    );
    const observer = new ResizeObserver(() =>
      chart.setSize({ width: Math.max(element.clientWidth, 280), height: 240 }),
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
      chart.destroy();
    };
  }, [props.days, t]);
  return (
    <figure class="chart" aria-label={t.perDay}>
      <div ref={box} class="chart-box" aria-hidden="true" />
      <details>
        <summary>{t.asTable}</summary>
        <table class="table">
          <thead>
            <tr>
              <th scope="col">{t.day}</th>
              <th scope="col" class="number">
                {t.searches}
              </th>
              <th scope="col" class="number">
                {t.noResults}
              </th>
              <th scope="col" class="number">
                {t.clicks}
              </th>
            </tr>
          </thead>
          <tbody>
            {props.days.map((day) => (
              <tr key={day.day}>
                <td>{day.day}</td>
                <td class="number">{count(day.searches)}</td>
                <td class="number">{count(day.no_results)}</td>
                <td class="number">{count(day.clicks)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
