/**
 * Pages shaped like a database manual's (the PostgreSQL documentation): a chapter page titled with
 * its subject and a table of contents, section pages with long bodies that repeat the subject's
 * words, and pages about other subjects. Bodies are filler words with the given phrases spread
 * evenly, so the field lengths and occurrence counts match the real pages.
 */
import type { IndexedDocument } from '../../src/search/index.js';

/** A phrase and how many times a body holds it. */
export interface Mention {
  text: string;
  times: number;
}

export interface ManualPage {
  slug: string;
  title: string;
  headings: string;
  /** Words of the body, mentions included. */
  bodyWords: number;
  mentions: Mention[];
}

/** Filler words the queries of the tests never use. */
const FILLER = (
  'table column server client option value default setting system command function parameter ' +
  'returns example section described following see also when which must can be the of a to in is ' +
  'this that with for are on by if not as data type user row index query transaction lock file ' +
  'directory configuration statement'
).split(' ');

/** Deterministic body: `bodyWords` words of filler with each mention spread evenly over it. */
export function manualBody(page: Pick<ManualPage, 'bodyWords' | 'mentions' | 'slug' | 'title'>): string {
  const inserts: { at: number; text: string }[] = [];
  let mentionWords = 0;
  for (const mention of page.mentions) {
    const length = mention.text.split(' ').length;
    mentionWords += length * mention.times;
    for (let index = 0; index < mention.times; index += 1) {
      inserts.push({ at: (index + 0.5) / mention.times + inserts.length * 1e-6, text: mention.text });
    }
  }
  inserts.sort((a, b) => a.at - b.at);
  const fillerCount = Math.max(inserts.length + 1, page.bodyWords - mentionWords);
  let seed = [...page.slug].reduce((sum, character) => sum * 31 + character.charCodeAt(0), 7) >>> 0;
  const filler = () => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return FILLER[(seed >>> 8) % FILLER.length]!;
  };
  const words: string[] = [];
  let next = 0;
  for (let index = 0; index < fillerCount; index += 1) {
    while (next < inserts.length && inserts[next]!.at * fillerCount <= index) {
      words.push(inserts[next]!.text);
      next += 1;
    }
    words.push(filler());
  }
  for (; next < inserts.length; next += 1) words.push(inserts[next]!.text);
  return `${page.title} Prev Up Home Next ${words.join(' ')}.`;
}

export function manualDocument(page: ManualPage): IndexedDocument {
  return {
    url: `https://manual.example/docs/${page.slug}.html`,
    title: page.title,
    description: '',
    headings: page.headings,
    body: manualBody(page),
  };
}

/** Pages about other subjects, so that the subjects' words are not in every page. */
export function otherManualPages(count: number): ManualPage[] {
  return Array.from({ length: count }, (_, n) => ({
    slug: `other-${n}`,
    title: `${n + 1}.2. Topic number${n}`,
    headings: `${n + 1}.2. Topic number${n} ${n + 1}.2.1. Usage ${n + 1}.2.2. Notes`,
    bodyWords: 600 + ((n * 137) % 900),
    mentions: [{ text: `number${n}`, times: 3 }],
  }));
}
