import type { SearchServiceConfig } from '../../domain/schemas.js';
import { planQuery } from '../engine/query-plan.js';
import { DEFAULT_RANKING, type RankingParameters } from '../engine/ranking.js';
import { topByScore } from '../engine/top-k.js';
import { QueryHighlighter } from '../highlight/query-highlighter.js';
import type { SearchIndex } from '../search-index.js';
import type { Searcher } from '../searcher.js';
import type { HitTemplates } from '../template-blocks.js';
import { type QueryTree, queryTreeOf } from '../query-tree.js';
import { SynonymTable } from '../synonyms/synonym-table.js';
import { DOCTYPE_BITS, type IndexSnapshot } from '../search-index-types.js';
import { drilldownTree } from './drilldown-tree.js';
import { documentPaths, type FacetComputation, FacetIndex } from './facet-index.js';
import { FacetPool } from './facet-pool.js';
import type { HitPagePool } from './hit-page-pool.js';
import { bestHits, type SortedDocuments } from './hit-order.js';
import { narrowHits } from './hit-narrowing.js';
import { KeywordBackground } from './keyword-background.js';
import { organicDocsOf, type PageHit } from './organic-docs.js';
import { relatedKeywords } from './related-keywords.js';
import { runInSlices, whileSearching } from './work-slices.js';
import { facetRowsOf, segmentUrlsOf } from './kept-facets.js';
import { BUILD_AT_ONCE_DOCUMENTS, type SearchActivity, type SuggestIndexSources } from './search-activity.js';
import { ClickedDocuments } from './clicked-documents.js';
import type { OrganicDoc, SiteSearchRequest, SiteSearchResult } from './search-response.js';
import { didYouMean } from './spellcheck.js';
import type { Suggestion } from './suggester.js';
import {
  builtVocabularyOf,
  documentFrequencyOf,
  type Vocabulary,
  vocabularyOf,
  vocabularyWork,
} from './vocabulary.js';
import { indexWordForms } from '../word-forms/index-word-forms.js';
import { queryLanguageOf } from '../page-language.js';

/** A query finding fewer documents than this gets a did-you-mean when a correction finds more. */
const FEW_HITS = 3;
/** Best-ranked documents related keywords are drawn from. */
const RELATED_SAMPLE = 50;
/** Times a search waits for facets of segments loaded (or rules changed) while it waited. */
const MAX_FACET_WAITS = 3;
/**
 * Searches of one request at most: each runs again only when another process merged away a
 * segment it was reading, which a merge after every few batches makes rare; the last one answers
 * with what it read.
 */
const MAX_READ_ATTEMPTS = 3;

export interface SiteSearchOptions {
  /** Names the service in warnings ("search service 3"); its facet jobs run one at a time. */
  name?: string;
  /** Threads computing facets; default one pool shared by the process. */
  facetPool?: FacetPool;
  /** Threads cutting result pages (docs/design/search-engine.md, Search requests); default: this
   * thread.
   */
  hitPool?: HitPagePool;
  /** Told when a rule set's facets are unavailable (docs/reference/site-search.md, Search
   * services).
   */
  warn?: (message: string) => void;
  /**
   * Whether a large index's did-you-mean waits for its words, and its first result page for the
   * lengths of its template lines: a one-off search (`kumo search`), which nothing else shares
   * the process with, reads them at once; a service reads them in the background
   * (docs/design/search-engine.md, Did you mean; Template lines by length).
   */
  wordsAtOnce?: boolean;
}

let sharedPool: FacetPool | undefined;

/** The facet threads of a process whose site searches were given none. */
function sharedFacetPool(): FacetPool {
  sharedPool ??= new FacetPool();
  return sharedPool;
}

/**
 * The site search of one search service (docs/reference/site-search.md): search with filters,
 * facets, sorting, paging, highlights and did-you-mean; suggest; related keywords; clicks.
 */
export class SiteSearch {
  private facets: FacetIndex;
  private ranking: RankingParameters;
  private synonyms: SynonymTable;
  private configKey: string;
  private readonly computation: FacetComputation;
  private readonly hitPool: HitPagePool | undefined;
  private readonly sortedDocuments: SortedDocuments;
  private readonly wordsAtOnce: boolean;
  /** The lengths of template lines are being found in the background (hitTemplatesOf). */
  private findingLengths = false;
  /** The last vocabulary read, of whichever generation: what did-you-mean uses meanwhile. */
  private lastWords: Vocabulary | undefined;
  /** Whether a generation's vocabulary is being read in the background. */
  private readingWords = false;
  private searchesUnderWay = 0;

  constructor(
    readonly index: SearchIndex,
    config: SearchServiceConfig,
    readonly activity: SearchActivity,
    options: SiteSearchOptions = {},
  ) {
    const name = options.name ?? 'search service';
    const warn = options.warn ?? (() => undefined);
    this.computation = {
      pool: options.facetPool ?? sharedFacetPool(),
      owner: name,
      onUnavailable: (reason) =>
        warn(
          `${name}: categories and drill-down are unavailable until its rules change: ${reason} ` +
            '(its rules cost too much on its URLs; docs/reference/site-search.md, Search services)',
        ),
      stored: facetRowsOf(index),
      urlsOf: segmentUrlsOf(index),
    };
    this.hitPool = options.hitPool;
    this.wordsAtOnce = options.wordsAtOnce ?? false;
    const clicked = new ClickedDocuments(this.activity, (url) => index.store.documentIdOf(url));
    this.sortedDocuments = {
      clickCounts: (snapshot) => clicked.countsOf(snapshot),
      titlesOf: (loaded) => index.store.columns.titles(loaded.segment.id, loaded.segment.docIds),
    };
    this.configKey = JSON.stringify(config);
    this.facets = this.facetIndexOf(config);
    this.ranking = rankingOf(config);
    this.synonyms = SynonymTable.of(config.synonyms);
    const searcher = index.searcher();
    this.activity.prepare(searcher.snapshot, this.suggestSources(searcher));
  }

  /** Applies a changed configuration (rules, weights, synonyms); facet data is rebuilt on the next search. */
  configure(config: SearchServiceConfig): void {
    const key = JSON.stringify(config);
    if (key === this.configKey) return;
    this.configKey = key;
    this.facets.discard();
    this.facets = this.facetIndexOf(config);
    this.ranking = rankingOf(config);
    this.synonyms = SynonymTable.of(config.synonyms);
  }

  /**
   * Waits for the facets of the index's segments (computed in the facet threads, facet-pool.ts),
   * then searches; the rest runs on the calling thread. A search that read a generation whose
   * segments another process merged away meanwhile is run again (Searcher.stillReadable). Work
   * in slices (a suggester built in the background) gives way meanwhile.
   */
  async search(request: SiteSearchRequest): Promise<SiteSearchResult> {
    this.searchesUnderWay += 1;
    try {
      return await whileSearching(async () => {
        for (let attempt = 1; ; attempt += 1) {
          const result = await this.searchOnce(request, attempt === MAX_READ_ATTEMPTS);
          if (result !== undefined) return result;
        }
      });
    } finally {
      this.searchesUnderWay -= 1;
    }
  }

  /** Whether a search is under way (waiting for its facets or result page): its index must stay open. */
  get searching(): boolean {
    return this.searchesUnderWay > 0;
  }

  /** One search of the generation current after the facets are ready; undefined when it must run again. */
  private async searchOnce(
    request: SiteSearchRequest,
    lastAttempt: boolean,
  ): Promise<SiteSearchResult | undefined> {
    let facetIndex = this.facets;
    let searcher = this.index.searcher();
    for (let waits = 1; !facetIndex.covers(searcher.snapshot.segments); waits += 1) {
      await facetIndex.ready(searcher.snapshot.segments);
      // Segments loaded or rules changed meanwhile are waited for too, a few times at most.
      if (waits < MAX_FACET_WAITS) {
        facetIndex = this.facets;
        searcher = this.index.searcher();
      }
    }
    const { snapshot } = searcher;
    // Parsed once: matched, highlighted and corrected from this tree (query-tree.ts).
    const query = queryTreeOf(request.q, this.synonyms, indexWordForms(snapshot));
    const hits = searcher.match(planQuery(query), this.ranking);
    const facets = snapshot.segments.map((loaded) => facetIndex.facetsOf(loaded));
    const categoryNames = facetIndex.categoryNames;
    const drilldownNodes = facetIndex.nodes;
    const categoryIndex = categoryNames.indexOf(request.category);
    const wantedTypes = doctypeMask(request.doctype);
    const selectedNodes = request.drilldown
      .map((path) => facetIndex.nodeOf(path))
      .filter((node): node is number => node !== undefined);

    // Of pages with the same text, the one in the query's language is shown (same-text-copies.ts).
    const sameText = snapshot.sameText.forLanguage(queryLanguageOf(request.q));
    const { kept, categoryCounts, nodeCounts } = narrowHits(hits, snapshot.segments, facets, sameText, {
      wantedTypes,
      category: request.category === '' ? undefined : categoryIndex,
      selectedNodes: request.drilldown.length === 0 ? undefined : selectedNodes,
      categoryCount: categoryNames.length,
      nodeCount: drilldownNodes.length,
    });

    const first = (request.pageNumber - 1) * request.numberPerPage;
    const page = bestHits(
      snapshot,
      hits,
      kept,
      request.sortKeys,
      this.sortedDocuments,
      first + request.numberPerPage,
    ).slice(first);
    const pageHits = page.map((hit, offset) => {
      const segment = hits.segment[hit]!;
      const ordinal = hits.ordinal[hit]!;
      return {
        id: snapshot.segments[segment]!.segment.docIds[ordinal]!,
        ranking: first + offset + 1,
        drilldown: documentPaths(facets[segment]!, ordinal),
        copyUrls: sameText.otherUrls(sameText.placeOf(segment, ordinal)),
      };
    });
    // The page's texts are cut in a thread while this one builds the facet tree and the
    // did-you-mean.
    const cutting = this.organicDocs(pageHits, QueryHighlighter.of(query), searcher);
    const drilldownRoots = drilldownTree(drilldownNodes, nodeCounts, request.drilldown);
    // Compared unfiltered, as the corrected query is counted without the filters; with
    // synonyms and word forms on both sides, while corrections themselves come from the
    // index's words only.
    const mainPhrase = this.spellcheck(query, hits.count, searcher);
    if (!lastAttempt && !searcher.stillReadable()) {
      await cutting.catch(() => undefined);
      return undefined;
    }
    const docs = await cutting;
    if (kept.length > 0 && request.pageNumber === 1) this.activity.recordQuery(request.q, kept.length);
    if (request.pageNumber === 1) this.activity.recordSearch(request.q, kept.length);

    return {
      organic: {
        hits: kept.length,
        range_min: docs.length === 0 ? 0 : first + 1,
        range_max: docs.length === 0 ? 0 : first + docs.length,
        docs,
      },
      category: {
        items: categoryNames.filter((_, index) => categoryCounts[index]! > 0),
        selected: request.category === '' ? [] : [request.category],
      },
      facet_drilldown_roots: drilldownRoots,
      spellcheck: { main_phrase: mainPhrase },
    };
  }

  /** The result page's hits as the API returns them: cut in the hit threads when given some. */
  private async organicDocs(
    pageHits: readonly PageHit[],
    highlighter: QueryHighlighter,
    searcher: Searcher,
  ): Promise<OrganicDoc[]> {
    if (pageHits.length === 0) return [];
    const templates = this.hitTemplatesOf(searcher);
    const pool = this.hitPool;
    if (pool === undefined) return organicDocsOf(pageHits, searcher, highlighter, templates);
    // This thread cuts a share of the page too, the last hits, while the threads cut the rest:
    // its own part of the request is the smaller one, and so every core is busy.
    const sent = pageHits.slice(0, pageHits.length - Math.floor(pageHits.length / (pool.threads + 2)));
    const index = { openKey: this.index.openKey, file: this.index.store.file };
    const cutting = pool.render(index, sent, highlighter.terms, templates);
    const cutHere = organicDocsOf(pageHits.slice(sent.length), searcher, highlighter, templates);
    const cutThere = (await cutting) ?? organicDocsOf(sent, searcher, highlighter, templates);
    return [...cutThere, ...cutHere];
  }

  /**
   * The template lines hits are cut with. Their lengths spare hashing most lines of a hit
   * (docs/design/search-engine.md, Template lines by length), but finding them reads pages of
   * each host whose lines changed: a small index's, or a one-off search's, are found at once; a
   * larger one's in the background after its generation's first search, which meanwhile cuts its
   * hits by hashing their lines, the same cut.
   */
  private hitTemplatesOf(searcher: Searcher): HitTemplates {
    const { templates, found } = searcher.hitTemplatesIfFound();
    if (found) return templates;
    if (this.wordsAtOnce || searcher.snapshot.statistics.documentCount <= BUILD_AT_ONCE_DOCUMENTS)
      return searcher.hitTemplates();
    if (!this.findingLengths) {
      this.findingLengths = true;
      runInSlices(searcher.hitTemplatesWork(), () => !this.index.store.open)
        .catch(() => {
          // Stopped: the index closed. A failed read is tried again by the next search.
        })
        .finally(() => {
          this.findingLengths = false;
        });
    }
    return templates;
  }

  /**
   * Completions of what a visitor is typing, best first, from the suggester as last built: a
   * large index's suggester is built again in the background (docs/design/search-engine.md,
   * Suggest).
   */
  suggest(query: string, limit: number): Suggestion[] {
    return this.suggester().suggest(query, limit);
  }

  private suggester() {
    const searcher = this.index.searcher();
    return this.activity.suggester(searcher.snapshot, this.suggestSources(searcher));
  }

  private suggestSources(searcher: Searcher): SuggestIndexSources {
    return {
      vocabulary: () => vocabularyWork(searcher.snapshot),
      templateBlocks: () => searcher.templateBlocks(),
    };
  }

  /** Resolves when the suggester of the index as it stands is built (readings may still come). */
  async suggesterBuilt(): Promise<void> {
    this.suggester();
    await this.activity.built();
  }

  /**
   * Resolves when suggest knows the readings of every phrase of the index as it stands (they are
   * read in a child process, phrase-readings.ts) and the suggester with them is built; suggest
   * answers meanwhile, without them.
   */
  async suggestionsSettled(): Promise<void> {
    do this.suggester();
    while (await this.activity.waitForWork());
  }

  /** Words significant in the best matches of `query`, starting with `prefix`. */
  relatedKeywords(query: string, prefix: string): string[] {
    for (let attempt = 1; ; attempt += 1) {
      const searcher = this.index.searcher();
      const keywords = this.relatedKeywordsOf(searcher, query, prefix);
      if (attempt === MAX_READ_ATTEMPTS || searcher.stillReadable()) return keywords;
    }
  }

  private relatedKeywordsOf(searcher: Searcher, query: string, prefix: string): string[] {
    const { snapshot } = searcher;
    const tree = queryTreeOf(query, this.synonyms, indexWordForms(snapshot));
    const hits = searcher.match(planQuery(tree), this.ranking);
    const best = topByScore(hits.score, hits.count, RELATED_SAMPLE);
    const documents = best.flatMap(
      (hit) =>
        searcher.document(snapshot.segments[hits.segment[hit]!]!.segment.docIds[hits.ordinal[hit]!]!) ?? [],
    );
    return relatedKeywords(
      tree,
      prefix,
      documents,
      new KeywordBackground(snapshot),
      searcher.templateBlocks(),
    );
  }

  /** Records a click on an indexed URL; false when the URL is not in the index (no redirect then). */
  click(url: string, query: string): boolean {
    if (this.index.store.documentIdOf(url) === undefined) return false;
    this.activity.recordClick(url, query);
    return true;
  }

  /**
   * The words did-you-mean looks among (docs/design/search-engine.md, Did you mean): a small
   * index's, or a one-off search's, are read at once. A larger index's are read in the background
   * when its generation's are not read yet, and meanwhile the last generation's serve, so that no
   * search waits for every term of the index; a search finds them too if the suggester's build
   * read them first.
   */
  private spellingVocabulary(snapshot: IndexSnapshot): Vocabulary | undefined {
    const built = builtVocabularyOf(snapshot);
    if (built !== undefined) return (this.lastWords = built);
    if (this.wordsAtOnce || snapshot.statistics.documentCount <= BUILD_AT_ONCE_DOCUMENTS)
      return (this.lastWords = vocabularyOf(snapshot));
    this.readWordsOf(snapshot);
    return this.lastWords;
  }

  /**
   * Reads a generation's words in slices, one read at a time: one under way is let finish even
   * when a newer generation comes, so that an index written without pause still gets its words.
   */
  private readWordsOf(snapshot: IndexSnapshot): void {
    if (this.readingWords) return;
    this.readingWords = true;
    runInSlices(vocabularyWork(snapshot), () => !this.index.store.open)
      .then((words) => {
        this.lastWords = words;
      })
      .catch(() => {
        // Stopped: the index closed.
      })
      .finally(() => {
        this.readingWords = false;
      });
  }

  private facetIndexOf(config: SearchServiceConfig): FacetIndex {
    return new FacetIndex({ categories: config.categories, drilldowns: config.drilldowns }, this.computation);
  }

  private spellcheck(query: QueryTree, hitCount: number, searcher: Searcher): string {
    if (hitCount >= FEW_HITS || query.text.trim() === '') return '';
    const vocabulary = this.spellingVocabulary(searcher.snapshot);
    if (vocabulary === undefined) return '';
    const corrected = didYouMean(
      query,
      hitCount,
      { vocabulary, frequencyOf: (term) => documentFrequencyOf(searcher.snapshot, term) },
      (correction) => searcher.match(planQuery(correction), this.ranking).count,
    );
    return corrected?.text ?? '';
  }
}

function doctypeMask(doctypes: SiteSearchRequest['doctype']): number {
  if (doctypes.length === 0 || doctypes.includes('all')) return 0xff;
  return doctypes.reduce((mask, doctype) => mask | (doctype === 'all' ? 0xff : DOCTYPE_BITS[doctype]), 0);
}

function rankingOf(config: SearchServiceConfig): RankingParameters {
  if (config.weights === undefined) return DEFAULT_RANKING;
  const fieldWeights = { ...DEFAULT_RANKING.fieldWeights };
  for (const [field, weight] of Object.entries(config.weights)) {
    if (weight !== undefined) fieldWeights[field as keyof typeof fieldWeights] = weight;
  }
  return { ...DEFAULT_RANKING, fieldWeights };
}
