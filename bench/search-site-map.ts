/**
 * The URL layout of the benchmark site, `https://bench.example/<section>/<subsection>/<topic>/<n>.html`,
 * and the search service configuration over it: eight categories by URL rules (two of them
 * across sections) and a drill-down rule giving three levels, section / subsection / topic.
 */
import type { SearchServiceConfig } from '../src/domain/schemas.js';
import { WeightedTable, zipfTable } from './weighted-table.js';

export const BENCH_ORIGIN = 'https://bench.example';

interface Section {
  slug: string;
  /** Share of the documents. */
  weight: number;
  subsections: string[];
}

const SECTIONS: Section[] = [
  {
    slug: 'products',
    weight: 18,
    subsections: ['cloud', 'storage', 'network', 'security', 'devices', 'software'],
  },
  {
    slug: 'solutions',
    weight: 8,
    subsections: ['retail', 'finance', 'manufacturing', 'public-sector', 'healthcare'],
  },
  { slug: 'support', weight: 20, subsections: ['faq', 'manuals', 'downloads', 'troubleshooting', 'contact'] },
  {
    slug: 'docs',
    weight: 22,
    subsections: ['guide', 'reference', 'tutorials', 'api', 'release-notes', 'faq'],
  },
  { slug: 'news', weight: 12, subsections: ['press', 'announcements', 'media', 'ir'] },
  { slug: 'blog', weight: 10, subsections: ['engineering', 'design', 'culture', 'events'] },
  { slug: 'events', weight: 5, subsections: ['seminars', 'conferences', 'webinars', 'workshops'] },
  { slug: 'company', weight: 5, subsections: ['about', 'careers', 'sustainability', 'offices', 'faq'] },
];

const TOPICS = [
  'overview',
  'getting-started',
  'pricing',
  'setup',
  'tokyo',
  'kyoto',
  'osaka',
  'tips',
  '2025',
  '2024',
  '2023',
  '2022',
  'comparison',
  'migration',
  'performance',
  'accessibility',
  'privacy',
  'spring',
];

/** The drill-down path (section, subsection, topic) the rule below gives a URL of the layout. */
export const DRILLDOWN_RULE = {
  url_pattern: String.raw`^https://bench\.example/([^/]+)/([^/]+)/([^/]+)/`,
  path: '$1\t$2\t$3',
};

export const BENCH_SEARCH_CONFIG: SearchServiceConfig = {
  categories: [
    { name: 'Products', url_pattern: String.raw`^https://bench\.example/(products|solutions)/` },
    { name: 'Support', url_pattern: String.raw`^https://bench\.example/support/` },
    { name: 'Documentation', url_pattern: String.raw`^https://bench\.example/docs/` },
    { name: 'News', url_pattern: String.raw`^https://bench\.example/news/` },
    { name: 'Blog', url_pattern: String.raw`^https://bench\.example/blog/` },
    { name: 'Events', url_pattern: String.raw`^https://bench\.example/(events/|blog/events/)` },
    { name: 'Company', url_pattern: String.raw`^https://bench\.example/company/` },
    { name: 'FAQ', url_pattern: String.raw`^https://bench\.example/[^/]+/faq/` },
  ],
  drilldowns: [DRILLDOWN_RULE],
};

const sections = new WeightedTable(
  SECTIONS,
  SECTIONS.map((section) => section.weight),
);
/** Each subsection has its own number of topics (6..17), drawn by Zipf. */
const topicsOf = new Map(
  SECTIONS.flatMap((section, sectionIndex) =>
    section.subsections.map((subsection, subIndex) => {
      const count = 6 + ((sectionIndex * 7 + subIndex * 5) % 12);
      return [`${section.slug}/${subsection}`, zipfTable(TOPICS.slice(0, count))] as const;
    }),
  ),
);

/** The URL of document `index`, the draws taken from `next`. */
export function documentUrl(index: number, next: () => number): string {
  const section = sections.pick(next());
  const subsection = section.subsections[Math.floor(next() * section.subsections.length)]!;
  const topic = topicsOf.get(`${section.slug}/${subsection}`)!.pick(next());
  return `${BENCH_ORIGIN}/${section.slug}/${subsection}/${topic}/${index}.html`;
}
