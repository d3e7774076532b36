/**
 * The template lines a search cuts hits with, and their lengths (SearchIndex.hitTemplates,
 * docs/design/search-engine.md, Template lines by length): found in the index's pages for each host
 * whose lines are all there, the length of every template line and of no other; kept from one
 * generation to the next for a host whose lines did not change, found again for one whose did;
 * found the same in slices, as a large index finds them in the background.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { countedBlocksOf } from '../../src/domain/index.js';
import type { SearchIndex } from '../../src/search/search-index.js';
import { blockHashOf } from '../../src/search/template-blocks.js';
import { templateSiteIndex } from '../support/template-site-index.js';

const folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-hit-templates-'));
let index: SearchIndex;

before(async () => {
  index = await templateSiteIndex(folder);
});

after(() => {
  index.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('template lines with their lengths', () => {
  test('every template line of a host has its length there, and the lengths are of template lines', () => {
    const templates = index.searcher().hitTemplates();
    const hosts = [...templates.blocks].filter(([, lines]) => lines.size > 0);
    assert.ok(hosts.length >= 2, `hosts with template lines: ${hosts.length}`);
    for (const [host, lines] of hosts) {
      const lengths = templates.lineLengths.get(host);
      assert.ok(lengths !== undefined, `lengths of ${host}`);
      // Each template line found in the host's pages has its length in the set.
      const found = new Map<number, number>();
      const snapshot = index.searcher().snapshot;
      for (const segment of snapshot.segments)
        for (const id of segment.segment.docIds) {
          const document = index.searcher().document(id);
          if (document === undefined || new URL(document.url).host !== host) continue;
          for (const block of countedBlocksOf(document.title, document.body, document.template ?? ''))
            if (lines.has(blockHashOf(block))) found.set(blockHashOf(block), block.length);
        }
      assert.equal(found.size, lines.size, `every template line of ${host} is in its pages`);
      assert.deepEqual(
        [...lengths].sort((a, b) => a - b),
        [...new Set(found.values())].sort((a, b) => a - b),
      );
    }
  });

  test('a host whose lines did not change keeps its lengths; a changed one is looked at again', () => {
    const templates = index.searcher().hitTemplates();
    const [host, lines] = [...templates.blocks].find(([, set]) => set.size > 0)!;
    // Lengths no page could give: kept, they show that no page was read for the host.
    const marker = new Set([100_000]);
    const previous = {
      blocks: templates.blocks,
      lineLengths: new Map([[host, marker]]),
      examined: new Set([host]),
    };
    const kept = index.store.templates.lineLengths(templates.blocks, previous);
    assert.equal(kept.lineLengths.get(host), marker);
    assert.ok(kept.examined.has(host));
    const changed = new Map(templates.blocks);
    changed.set(host, new Set([...lines].slice(1)));
    const again = index.store.templates.lineLengths(changed, previous).lineLengths.get(host);
    assert.ok(again !== undefined && !again.has(100_000), 'lengths found again for the changed host');
    // A host the previous generation did not look at (its page budget ran out) is looked at now.
    const skipped = { ...previous, lineLengths: new Map(), examined: new Set<string>() };
    const now = index.store.templates.lineLengths(templates.blocks, skipped);
    assert.deepEqual(now.lineLengths.get(host), templates.lineLengths.get(host));
    assert.ok(now.examined.has(host));
  });

  test('found as work in slices, they pause after each read of pages and are the lengths found at once', () => {
    const { blocks } = index.searcher().hitTemplates();
    const atOnce = index.store.templates.lineLengths(blocks);
    const work = index.store.templates.lineLengthsWork(blocks);
    let pauses = 0;
    let step = work.next();
    for (; step.done !== true; step = work.next()) pauses += 1;
    assert.deepEqual(step.value, atOnce);
    const hosts = [...blocks.values()].filter((lines) => lines.size > 0).length;
    assert.ok(pauses >= hosts, `${pauses} pauses for ${hosts} hosts with template lines`);
  });
});
