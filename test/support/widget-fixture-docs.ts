/**
 * The pages of the widget tests' fixture site, in English and Japanese, as the indexer hands them
 * to a search index: a common word on more than one page of results (tomato), a typo of it on one
 * page (did-you-mean), a PDF and a Word file (badges), a page whose title and text are markup
 * (the hostile page), a page whose address and title are one overlong word each, and pages of a second site (the bakery) for a second search service.
 * Their URLs are paths of the local fixture site, so opening a result lands on a real page.
 */
import type { IndexedDocument } from '../../src/search/index.js';

/** The word most pages hold: more hits than one page of results. */
export const COMMON_QUERY = 'tomato';
/** One edit from the common word, on no page: no hits, so the correction is searched at once. */
export const MISSPELLED_QUERY = 'tomatto';
/** A rare spelling that one page holds: hits, and a "did you mean" to the common word. */
export const RARE_SPELLING = 'tomatoe';
export const HOSTILE_TITLE = '<img src=x onerror=window.__pwned=1>';
export const HOSTILE_SCRIPT = '<script>window.__pwned=2</script>';
/** A word only the hostile page holds. */
export const HOSTILE_QUERY = 'onerror';
/** The address of a page that is a script: shown, never a link a click could run. */
export const SCRIPT_URL = 'javascript:window.__pwned=3//';
/** A word only that page holds. */
export const SCRIPT_URL_QUERY = 'scriptaddress';
/** A word only the page with an overlong unbroken address and title holds. */
export const OVERLONG_QUERY = 'zeppelin';
/** That page's title: one word far wider than a phone screen. */
export const OVERLONG_TITLE = `Zeppelinhangar${'records'.repeat(24)}`;
const OVERLONG_PATH = `/news/zeppelin-${'hangarrecords'.repeat(16)}.html`;
/** The second service's word. */
export const BAKERY_QUERY = 'sourdough';

/** Category rules of the main service, in display order (docs/reference/site-search.md, Search services). */
export const CATEGORIES = [
  { name: 'Guides', url_pattern: '/guides/' },
  { name: 'News', url_pattern: '/news/' },
  { name: 'Files', url_pattern: '/files/' },
  { name: '日本語', url_pattern: '/ja/' },
];

/** Drill-down rules: section, then topic (`guides` › `garden`); news and files are one level. */
export const DRILLDOWNS = [
  { url_pattern: '^https?://[^/]+/(guides|ja)/([a-z]+)/', path: '$1\t$2' },
  { url_pattern: '^https?://[^/]+/(news|files)/', path: '$1' },
];

interface PageSpec {
  /** Under the fixture site; an absolute address (`javascript:`) is taken as it is. */
  path: string;
  title: string;
  body: string;
  description?: string;
  doctype?: IndexedDocument['doctype'];
}

const GARDEN_TITLES = [
  'Growing tomatoes on a balcony',
  'Tomato varieties for beginners',
  'Staking and trellis for tomato plants',
  'Watering tomato plants in summer',
  'Compost for a tomato bed',
  'Pruning tomato suckers',
  'Saving tomato seeds',
];
const KITCHEN_TITLES = [
  'Fresh tomato sauce with basil',
  'Roasted tomato soup',
  'Tomato salad with mozzarella',
  'Green tomato chutney',
];

const english: PageSpec[] = [
  ...GARDEN_TITLES.map((title, index) => ({
    path: `/guides/garden/tomato-${index + 1}.html`,
    title,
    body:
      `${title}. A tomato plant needs sun, compost and a trellis; pinch the suckers and water ` +
      `the tomato at the roots. Basil grows well beside it. Garden note ${index + 1}.`,
  })),
  ...KITCHEN_TITLES.map((title, index) => ({
    path: `/guides/kitchen/recipe-${index + 1}.html`,
    title,
    body: `${title}. Ripe tomato, olive oil, garlic and basil make the base of this recipe ${index + 1}.`,
  })),
  {
    path: '/news/harvest-festival.html',
    title: 'Harvest festival this weekend',
    body: 'The garden club shows its tomato harvest at the festival on Saturday.',
  },
  {
    path: '/news/seed-swap.html',
    title: 'Seed swap in the library',
    body: 'Bring tomatoe seeds and herbs to the seed swap; a typo on the poster is ours.',
  },
  {
    path: '/files/tomato-handbook.pdf',
    title: 'The tomato growing handbook',
    body: 'A printable handbook: tomato sowing, planting out, feeding and harvest.',
    doctype: 'pdf',
  },
  {
    path: '/files/garden-plan.docx',
    title: 'Community garden plan',
    body: 'Beds for tomato, bean and squash, drawn up by the garden committee.',
    doctype: 'doc',
  },
  {
    path: '/news/hostile.html',
    title: HOSTILE_TITLE,
    body: `Markup as text: ${HOSTILE_SCRIPT} and onerror attributes must never run.`,
  },
  {
    path: SCRIPT_URL,
    title: 'A scriptaddress page',
    body: 'Its address is a script: the scriptaddress result must not link to it.',
  },
  {
    path: OVERLONG_PATH,
    title: OVERLONG_TITLE,
    body: `An overlong address and title that a narrow screen must wrap: ${'zeppelinhangar'.repeat(12)} zeppelin records.`,
  },
];

const japanese: PageSpec[] = [
  {
    path: '/ja/garden/sodatekata.html',
    title: 'トマトの育て方',
    body: 'トマトは日当たりと水はけのよい場所で育てます。支柱を立てて脇芽をかきます。',
  },
  {
    path: '/ja/garden/hinshu.html',
    title: 'ミニトマトの品種',
    body: 'ミニトマトは家庭菜園で育てやすいトマトです。',
  },
  {
    path: '/ja/garden/kyoto.html',
    title: '京都の庭園を歩く',
    body: '京都の古い庭園を巡ります。苔と石の庭が有名です。',
  },
  {
    path: '/ja/kitchen/sauce.html',
    title: 'トマトソースの作り方',
    body: '完熟トマトとバジルでトマトソースを作ります。',
  },
  {
    path: '/ja/kitchen/salad.html',
    title: '夏野菜のサラダ',
    body: 'トマトときゅうりのサラダ。京都の野菜を使います。',
  },
];

const bakery: PageSpec[] = [
  {
    path: '/bakery/sourdough.html',
    title: 'Sourdough starter from scratch',
    body: 'Feed the sourdough starter daily with flour and water.',
  },
  { path: '/bakery/rye.html', title: 'Rye sourdough loaf', body: 'A dense rye loaf raised with sourdough.' },
  {
    path: '/bakery/baguette.html',
    title: 'Baguettes at home',
    body: 'Long loaves with a crisp crust; no sourdough needed.',
  },
];

/** Last-modified times one day apart, so the newest-first sort has one answer. */
function documentsOf(siteUrl: string, specs: readonly PageSpec[], firstDay: number): IndexedDocument[] {
  return specs.map((spec, index) => ({
    url: spec.path.startsWith('/') ? `${siteUrl}${spec.path}` : spec.path,
    title: spec.title,
    description: spec.description ?? '',
    body: spec.body,
    contentSize: 2_000 + index,
    lastModified: 1_720_000_000 + (firstDay + index) * 86_400,
    doctype: spec.doctype ?? 'html',
  }));
}

/** The main service's pages: English and Japanese. */
export function mainSiteDocuments(siteUrl: string): IndexedDocument[] {
  return [...documentsOf(siteUrl, english, 0), ...documentsOf(siteUrl, japanese, 100)];
}

/** The second service's pages. */
export function bakeryDocuments(siteUrl: string): IndexedDocument[] {
  return documentsOf(siteUrl, bakery, 200);
}
