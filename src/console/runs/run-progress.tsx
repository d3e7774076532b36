/**
 * A run's progress (docs/console.md, Run page): pages fetched, queued, errors (by kind while it
 * runs), pages per second and the elapsed time, with a bar of fetched against known URLs; a run
 * that ended with pages still queued says why.
 */
import { useEffect, useState } from 'preact/hooks';
import { Stat } from '../components/stat.js';
import { Section } from '../components/page.js';
import { count, duration } from '../format.js';
import { isActive, type RunView } from './run-types.js';
import { runsTexts } from './runs-texts.js';

export function RunProgress(props: { run: RunView }) {
  const t = runsTexts();
  const { run } = props;
  const running = isActive(run);
  const [nowMs, setNowMs] = useState(Date.now());
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNowMs(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [running]);
  const crawled = run.live?.crawled ?? run.crawled_count;
  const total = Math.max(run.live?.total ?? run.total_count, crawled);
  const queued = Math.max(total - crawled, 0);
  const kinds = Object.entries(run.live?.error_kinds ?? {}).sort((a, b) => b[1] - a[1]);
  const errors = kinds.reduce((sum, [, n]) => sum + n, 0);
  const startMs = run.start_datetime === null ? null : Date.parse(run.start_datetime);
  const endMs = run.end_datetime === null ? nowMs : Date.parse(run.end_datetime);
  const elapsed = startMs === null ? null : (endMs - startMs) / 1000;
  const rate =
    run.live?.pages_per_second ?? (elapsed !== null && elapsed > 0 && !running ? crawled / elapsed : null);
  return (
    <Section
      title={t.progress}
      actions={running && run.live !== null ? <span class="badge badge-running">{t.live}</span> : undefined}
    >
      <div class="cards" aria-live="polite">
        <Stat label={t.fetched} value={count(crawled)} />
        <Stat label={t.queued} value={count(queued)} />
        {running && <Stat label={t.errors} value={count(errors)} />}
        <Stat label={t.rate} value={rate === null ? '—' : rate.toFixed(1)} />
        <Stat label={t.elapsed} value={elapsed === null ? '—' : duration(elapsed)} />
      </div>
      <progress class="run-bar" max={Math.max(total, 1)} value={crawled} aria-label={t.progress} />
      {!running && queued > 0 && run.end_reason !== null && run.end_reason !== 'completed' && (
        <p class="notice" role="status">
          {t.stillQueued(queued, count(queued), t.endReason(run.end_reason))}
        </p>
      )}
      {running && kinds.length > 0 && (
        <ul class="kinds">
          {kinds.map(([kind, n]) => (
            <li key={kind}>
              {kind}: {count(n)}
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
