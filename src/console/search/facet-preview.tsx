/** The categories and drill-down tree a draft configuration gives the indexed pages. */
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
                    <span>{category.name}</span> <span class="hint">{t.pages(count(category.count))}</span>
                  </li>
                ))}
                <li>
                  <span>{t.uncategorized}</span>{' '}
                  <span class="hint">{t.pages(count(preview.uncategorized))}</span>
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

/** At most this many children of a node are shown: a preview, not the whole index. */
const SHOWN_CHILDREN = 20;

function Tree(props: { nodes: DrilldownNode[]; label?: string }) {
  const t = searchTexts();
  return (
    <ul class="facet-tree" aria-label={props.label}>
      {props.nodes.slice(0, SHOWN_CHILDREN).map((node) => (
        <li key={node.label}>
          <span>{node.label}</span> <span class="hint">{t.pages(count(node.count))}</span>
          {node.children.length > 0 && <Tree nodes={node.children} />}
        </li>
      ))}
      {props.nodes.length > SHOWN_CHILDREN && <li class="hint">…</li>}
    </ul>
  );
}
