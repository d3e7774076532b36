/**
 * Attack 1: a viewer of A asks for a facet preview of four category rules of the largest size
 * over A's pages under long paths (docs/api.md, Management API, facet_preview).
 */
import { type Attack, remainingMs } from './attack.js';
import { attackPattern } from './attack-sizes.js';
import { StatusTally } from './status-tally.js';

export const facetPreviewAttack: Attack = {
  name: '1 facet preview',
  describe: (sizes) =>
    `a viewer of A: facet_preview with ${sizes.facetRules} category rules ${attackPattern(0)} over ` +
    `${sizes.facetPages} pages with ${sizes.pathLength}-character paths`,
  async run({ tenants, sizes, deadline }) {
    const { attacker } = tenants;
    const categories = Array.from({ length: sizes.facetRules }, (_, index) => ({
      name: `rule ${index}`,
      url_pattern: attackPattern(index),
    }));
    const answer = await attacker.viewer.call(
      `${attacker.group}/search_services/${attacker.searchServiceId}/facet_preview`,
      { method: 'POST', body: { config: { categories } }, timeoutMs: remainingMs(deadline) },
    );
    const answers = new StatusTally();
    answers.add(answer.status);
    return { answers, notes: [`the preview answered after ${(answer.ms / 1000).toFixed(1)} s`] };
  },
};
