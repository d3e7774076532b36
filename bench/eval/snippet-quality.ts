import { comparableText, type TemplateMatcher } from './template-blocks.js';

/** One result of a judged query as the site search API shows it. */
export interface ShownResult {
  url: string;
  /** document_text_parts joined, without the '…' marks. */
  snippet: string;
  /** The shown description (the meta description, else the start of the body). */
  description: string;
  /** The other pages with the same main text the result stands for (`duplicate_urls`). */
  copies?: string[];
}

/** Shares over every shown result of every judged query (docs/search-evaluation.md, Figures). */
export interface SnippetFigures {
  /** Results measured: up to 10 per judged query. */
  snippets: number;
  /** Snippets holding template text of their page. */
  templateShare: number;
  /** Snippets holding at least one word of the query. */
  queryWordShare: number;
  /** Descriptions holding template text of their page. */
  descriptionTemplateShare: number;
}

/** The words of a query as the measure looks for them: comparableText, split on spaces, with a letter or digit. */
export function queryWordsOf(query: string): string[] {
  return comparableText(query)
    .split(' ')
    .map((word) => word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter((word) => word !== '');
}

/** Whether a shown text holds one of the words (as a substring: `trigger` counts in `triggers`). */
export function holdsQueryWord(text: string, words: readonly string[]): boolean {
  const comparable = comparableText(text);
  return words.some((word) => comparable.includes(word));
}

/** Counts shown results; `matcherOf` gives the template text of a result's page. */
export class SnippetTally {
  private snippets = 0;
  private withTemplate = 0;
  private withQueryWord = 0;
  private descriptionsWithTemplate = 0;

  constructor(private readonly matcherOf: (url: string) => TemplateMatcher) {}

  add(query: string, results: readonly ShownResult[]): void {
    const words = queryWordsOf(query);
    for (const { url, snippet, description } of results) {
      const matcher = this.matcherOf(url);
      this.snippets += 1;
      if (matcher.matches(comparableText(snippet))) this.withTemplate += 1;
      if (holdsQueryWord(snippet, words)) this.withQueryWord += 1;
      if (matcher.matches(comparableText(description))) this.descriptionsWithTemplate += 1;
    }
  }

  figures(): SnippetFigures {
    const share = (count: number) => (this.snippets === 0 ? 0 : count / this.snippets);
    return {
      snippets: this.snippets,
      templateShare: share(this.withTemplate),
      queryWordShare: share(this.withQueryWord),
      descriptionTemplateShare: share(this.descriptionsWithTemplate),
    };
  }
}
