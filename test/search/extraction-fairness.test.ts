/**
 * The extraction threads are shared fairly between owners (docs/design/search-engine.md, Document
 * extraction): while one contract's large PDFs are extracted, another contract's small PDF is
 * extracted at once instead of after them; each owner's documents still come out whole.
 */
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { test } from 'node:test';
import { extractDocumentText } from '../../src/search/extract/document-text.js';
import { textPdf } from '../support/text-pdf.js';

/** How long the small PDF may take: starting a thread (about 1 s on a busy machine) and reading a page. */
const PROMPT_EXTRACTION_MS = 4000;

test("another contract's small PDF is extracted while one contract's large PDFs are", async () => {
  // About 0.7 MB and 12,000 lines each: seconds apiece, so four of them in a row take far longer
  // than the bound.
  const large = textPdf(150, 80);
  const started = performance.now();
  const largeOnes = Array.from({ length: 4 }, () =>
    extractDocumentText(large, 'pdf', { owner: 'contract 1' }).then((text) => ({
      text,
      doneMs: performance.now() - started,
    })),
  );
  // The large ones have taken the threads they may.
  await new Promise((resolve) => setTimeout(resolve, 100));

  const smallStarted = performance.now();
  const small = await extractDocumentText(textPdf(1, 2), 'pdf', { owner: 'contract 2' });
  const smallMs = performance.now() - smallStarted;
  assert.equal(
    small.body,
    'page 0 line 0 lorem ipsum dolor sit amet\npage 0 line 1 lorem ipsum dolor sit amet',
  );

  const done = await Promise.all(largeOnes);
  console.log(
    `small PDF of another contract: ${Math.round(smallMs)} ms; the large ones done after ` +
      done.map((one) => `${Math.round(one.doneMs)} ms`).join(', '),
  );
  for (const { text } of done) assert.ok(text.body.startsWith('page 0 line 0 lorem ipsum'));
  assert.ok(smallMs < PROMPT_EXTRACTION_MS, `the small PDF took ${Math.round(smallMs)} ms`);
  // It did not wait for the large ones: most of them were still being read when it was done.
  assert.ok(
    done.filter((one) => one.doneMs > smallStarted - started + smallMs).length >= 3,
    'the small PDF finished before most large ones',
  );
});
