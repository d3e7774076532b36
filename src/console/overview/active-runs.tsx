/**
 * The service group's runs in progress, each kept up to date by its server-sent events; when one
 * ends, the overview reads its lists again.
 */
import { useEffect } from 'preact/hooks';
import { count } from '../format.js';
import { href } from '../router.js';
import { RunStateBadge } from '../runs/run-state-badge.js';
import { isActive, type RunView } from '../runs/run-types.js';
import { runsTexts } from '../runs/runs-texts.js';
import { useRunEvents } from '../runs/use-run-events.js';
import { overviewTexts } from './overview-texts.js';

export function ActiveRun(props: { runsPath: string; runHref: string; run: RunView; onEnded(): void }) {
  const t = overviewTexts();
  const r = runsTexts();
  const run = useRunEvents(`${props.runsPath}/${props.run.id}`, props.run) ?? props.run;
  const ended = !isActive(run);
  useEffect(() => {
    if (ended) props.onEnded();
  }, [ended]);
  const crawled = run.live?.crawled ?? run.crawled_count;
  const total = Math.max(run.live?.total ?? run.total_count, crawled);
  return (
    <li class="active-run">
      <div class="active-run-head">
        <a href={href(props.runHref)}>{r.runTitle(run.id)}</a>
        <span>{run.kind === 'instant' ? r.instant : (run.service_setting_name ?? r.scheduled)}</span>
        <RunStateBadge state={run.crawl_execution_status_dtype_id} />
        <span class="hint">
          {t.pagesOf(count(crawled), count(total))}
          {run.live?.pages_per_second != null && ` · ${t.perSecond(run.live.pages_per_second.toFixed(1))}`}
        </span>
      </div>
      <progress class="run-bar" max={Math.max(total, 1)} value={crawled} aria-label={r.runTitle(run.id)} />
    </li>
  );
}
