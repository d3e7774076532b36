/**
 * Ways to narrow and order the results (docs/reference/widget.md, What a visitor gets): category
 * tabs, the drill-down tree with its counts, and the sort choice.
 */
import type { FacetDrillDown, SearchResponse } from '../client/index.js';
import { el } from './dom.js';
import { SORTS, type SortKey } from './search-state.js';
import type { Texts } from './texts.js';

const SORT_TEXTS: Record<SortKey, keyof Texts> = {
  relevance: 'sortRelevance',
  newest: 'sortNewest',
  title: 'sortTitle',
  popular: 'sortPopular',
};

/** "All" and one tab per category with hits; arrow keys move between tabs (WAI-ARIA tabs). */
export function categoryTabs(
  items: readonly string[],
  selected: string,
  texts: Texts,
  choose: (category: string) => void,
): HTMLButtonElement[] {
  const tabs = ['', ...items].map((category) => {
    const current = category === selected;
    const tab = el(
      'button',
      'tab',
      {
        type: 'button',
        role: 'tab',
        'aria-selected': String(current),
        'aria-controls': 'kumo-results',
        tabindex: current ? '0' : '-1',
      },
      category === '' ? texts.all : category,
    );
    tab.addEventListener('click', () => {
      if (!current) choose(category);
    });
    return tab;
  });
  tabs.forEach((tab, index) =>
    tab.addEventListener('keydown', (event) => {
      const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
      const target =
        step !== undefined
          ? tabs[(index + step + tabs.length) % tabs.length]
          : event.key === 'Home'
            ? tabs[0]
            : event.key === 'End'
              ? tabs[tabs.length - 1]
              : undefined;
      if (target === undefined) return;
      event.preventDefault();
      target.focus();
    }),
  );
  return tabs;
}

/**
 * The drill-down tree: a button per level with its count; a click narrows to it, a click on the
 * narrowed level goes back up one level. The levels below an opened one are shown.
 */
export function facetTree(
  roots: SearchResponse['facet_drilldown_roots'],
  choose: (path: string | null) => void,
): HTMLUListElement | null {
  const nodes = roots.flatMap((root) => root.facet_drilldowns);
  return nodes.length === 0 ? null : facetList(nodes, null, choose);
}

function facetList(
  nodes: readonly FacetDrillDown[],
  parent: string | null,
  choose: (path: string | null) => void,
): HTMLUListElement {
  const list = el('ul', null, { role: 'list' });
  for (const node of nodes) {
    const button = el(
      'button',
      'facet',
      { type: 'button', 'aria-pressed': String(node.is_selected), 'data-path': node.path },
      el('span', null, { class: 'facet-title' }, node.title),
      el('span', 'facet-count', {}, node.count.toLocaleString()),
    );
    button.addEventListener('click', () => choose(node.is_selected ? parent : node.path));
    const children = node.is_opened && node.children !== undefined && node.children.length > 0;
    list.appendChild(
      el('li', null, {}, button, children ? facetList(node.children ?? [], node.path, choose) : null),
    );
  }
  return list;
}

export function sortSelect(
  current: SortKey,
  texts: Texts,
  choose: (sort: SortKey) => void,
): HTMLLabelElement {
  const select = el('select', 'sort', {});
  for (const key of Object.keys(SORTS) as SortKey[]) {
    const option = el('option', null, { value: key }, texts[SORT_TEXTS[key]]);
    option.selected = key === current;
    select.appendChild(option);
  }
  select.addEventListener('change', () => choose(select.value as SortKey));
  return el('label', null, { class: 'sort' }, el('span', null, {}, texts.sort), select);
}
