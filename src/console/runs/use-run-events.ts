/**
 * A run kept up to date by its server-sent events (GET …/runs/{id}/events, docs/api.md): the
 * service pushes each progress report and each change of state; the page does not poll. The
 * stream ends with the run; the browser's EventSource reconnects by itself after a network drop.
 */
import { useEffect, useState } from 'preact/hooks';
import { API_BASE } from '../api.js';
import type { RunView } from './run-types.js';

export function useRunEvents(path: string, initial: RunView | undefined): RunView | undefined {
  const [run, setRun] = useState<RunView | undefined>(initial);
  useEffect(() => {
    if (initial !== undefined) setRun((current) => current ?? initial);
  }, [initial]);
  const ended =
    run !== undefined &&
    run.crawl_execution_status_dtype_id !== 2010 &&
    run.crawl_execution_status_dtype_id !== 2020;
  useEffect(() => {
    if (initial === undefined || ended) return;
    const source = new EventSource(`${API_BASE}${path}/events`);
    source.addEventListener('run', (event) =>
      setRun(JSON.parse((event as MessageEvent<string>).data) as RunView),
    );
    source.addEventListener('end', () => source.close());
    return () => source.close();
    // Opened once the first read says the run is still going; closed when it ends.
  }, [path, initial === undefined, ended]);
  return run;
}
