/**
 * The facets a draft configuration gives the indexed pages, asked of the service as the person
 * edits (POST …/facet_preview, docs/api.md): the same checks as saving, so its field errors are
 * the inline validation of the form too.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type FieldProblem, problemOf } from '../api.js';
import type { SearchServiceConfig } from './config-form.js';

export interface DrilldownNode {
  label: string;
  count: number;
  children: DrilldownNode[];
}

export interface FacetPreview {
  documents: number;
  of_documents: number;
  categories: { name: string; count: number }[];
  uncategorized: number;
  drilldown: DrilldownNode[];
}

const PAUSE_MS = 400;

export function useFacetPreview(
  path: string,
  config: SearchServiceConfig | undefined,
): { preview: FacetPreview | undefined; errors: readonly FieldProblem[] } {
  const [state, setState] = useState<{ preview: FacetPreview | undefined; errors: readonly FieldProblem[] }>({
    preview: undefined,
    errors: [],
  });
  const latest = useRef(0);
  const key = config === undefined ? '' : JSON.stringify(config);
  useEffect(() => {
    if (config === undefined) return;
    const ticket = ++latest.current;
    const timer = setTimeout(() => {
      api
        .post<FacetPreview>(path, { config })
        .then((preview) => {
          if (ticket === latest.current) setState({ preview, errors: [] });
        })
        .catch((error: unknown) => {
          if (ticket !== latest.current) return;
          const problem = problemOf(error);
          setState((previous) => ({ preview: previous.preview, errors: problem.errors }));
        });
    }, PAUSE_MS);
    return () => clearTimeout(timer);
    // `key` stands for the configuration, a new object on every render.
  }, [path, key]);
  return state;
}
