/**
 * Thread of the FacetPool: matches the URLs of a segment against a search service's category and
 * drill-down rules (facet-job.ts), off the thread that answers the API, since tenant-written
 * patterns can cost tens of milliseconds per long URL (docs/design/url-patterns.md, URL patterns).
 */
import { serveTenantWork } from '../../util/index.js';
import { facetsOfUrls, type FacetJobRequest, type FacetJobResult } from './facet-job.js';
import { compileFacetRules, type FacetRules } from './facet-rules.js';

/** Rule sets kept compiled: a few services' rules, each compiled once per thread. */
const COMPILED_RULE_SETS = 16;

const compiled = new Map<string, FacetRules>();

function rulesOf(request: FacetJobRequest): FacetRules {
  let rules = compiled.get(request.rulesKey);
  if (rules === undefined) {
    rules = compileFacetRules(request.rules);
    if (compiled.size >= COMPILED_RULE_SETS) compiled.delete(compiled.keys().next().value!);
  } else {
    compiled.delete(request.rulesKey);
  }
  // Inserted again: the map's order is the order of last use, its first key the one to drop.
  compiled.set(request.rulesKey, rules);
  return rules;
}

serveTenantWork<FacetJobRequest, FacetJobResult>((request) => facetsOfUrls(request.urls, rulesOf(request)));
