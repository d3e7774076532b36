/**
 * The categories and drill-down tree a draft configuration gives the indexed pages
 * (docs/console.md, Site search). The tree starts collapsed, each branch opened on its
 * own, so a deep hierarchy does not stretch the page.
 */
import { Section } from '../components/page.js';
import { count } from '../format.js';
import { searchTexts } from './search-texts.js';
import type { DrilldownNode, FacetPreview } from './use-facet-preview.js';

export function FacetPreviewPanel(props: { preview: FacetPreview | undefined }) {
  const t = searchTexts();
  const { preview } = props;
  return (
    <Section title={t.preview}>
      {preview === undefined ? null : preview.of_documents === 0 ? (
        <p>{t.previewEmpty}</p>
      ) : (
        <>
          <p class="hint">{t.previewHint(count(preview.documents), count(preview.of_documents))}</p>
          <div class="form-columns">
            <div>
              <h3>{t.categoryCounts}</h3>
              <ul class="facet-counts" aria-label={t.categoryCounts}>
                {preview.categories.map((category) => (
                  <li key={category.name}>
                    <span class="facet-label">{category.name}</span> <PageCount pages={category.count} />
                  </li>
                ))}
                <li>
                  <span class="facet-label">{t.uncategorized}</span>{' '}
                  <PageCount pages={preview.uncategorized} />
                </li>
              </ul>
            </div>
            <div>
              <h3>{t.drilldownTree}</h3>
              <Tree nodes={preview.drilldown} label={t.drilldownTree} />
            </div>
          </div>
        </>
      )}
    </Section>
  );
}

function PageCount(props: { pages: number }) {
  const t = searchTexts();
  return <span class="facet-count">{t.pages(props.pages, count(props.pages))}</span>;
}

/** At most this many children of a node are shown: a preview, not the whole index. */
const SHOWN_CHILDREN = 20;

function Tree(props: { nodes: DrilldownNode[]; label?: string }) {
  return (
    <ul class="facet-tree" aria-label={props.label}>
      {props.nodes.slice(0, SHOWN_CHILDREN).map((node) => (
        <li key={node.label}>
          {node.children.length === 0 ? (
            <span class="facet-leaf">
              <span class="facet-label">{node.label}</span> <PageCount pages={node.count} />
            </span>
          ) : (
            <details class="facet-branch">
              <summary>
                <span class="facet-label">{node.label}</span> <PageCount pages={node.count} />
              </summary>
              <Tree nodes={node.children} />
            </details>
          )}
        </li>
      ))}
      {props.nodes.length > SHOWN_CHILDREN && <li class="hint">…</li>}
    </ul>
  );
}
