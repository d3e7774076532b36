/**
 * Reads a management API resource for a view: loading, the answer or the problem, and `reload`
 * after a change. A newer read (or leaving the view) aborts the older one, so a slow answer never
 * overwrites a newer one.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiProblem, api, problemOf } from './api.js';

export interface Resource<T> {
  data: T | undefined;
  problem: ApiProblem | undefined;
  loading: boolean;
  reload(): void;
}

/** GET `path` under /admin/v1 (null: nothing to read yet). */
export function useResource<T>(path: string | null): Resource<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [problem, setProblem] = useState<ApiProblem | undefined>(undefined);
  const [loading, setLoading] = useState(path !== null);
  const [generation, setGeneration] = useState(0);
  const lastPath = useRef<string | null>(null);

  useEffect(() => {
    if (path === null) return;
    const controller = new AbortController();
    // A new address shows no stale data of the old one; a reload keeps it until the answer.
    if (lastPath.current !== path) setData(undefined);
    lastPath.current = path;
    setLoading(true);
    api
      .get<T>(path, controller.signal)
      .then((answer) => {
        setData(answer);
        setProblem(undefined);
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setProblem(problemOf(error));
      })
      .finally(() => {
        if (!controller.signal.aborted) setLoading(false);
      });
    return () => controller.abort();
  }, [path, generation]);

  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  return { data, problem, loading, reload };
}
