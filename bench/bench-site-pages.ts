/**
 * A deterministic synthetic site for the crawl benchmark: page i is `/p/<i>.html` (page 0 is `/`),
 * about `pageBytes` of realistic HTML (head, nav, article text in English and Japanese, footer)
 * with `linksPerPage` links. Page i links to 2i+1 and 2i+2, so every page is reachable from `/`.
 */
export interface BenchSiteOptions {
  pages: number;
  linksPerPage: number;
  pageBytes: number;
}

const WORDS = (
  'crawler index search result page content site service document link query engine archive network ' +
  'request response server client browser render market report product support customer news update ' +
  'library research science travel weather culture health finance energy design system history'
).split(' ');
const JAPANESE = [
  '検索エンジンは大量のページを収集して索引を作ります。',
  '東京都の天気予報と週間の気温をお知らせします。',
  'サイト内検索で目的の情報をすばやく見つけられます。',
  '新しい製品の発表会は来月開催される予定です。',
];

/** mulberry32: a small seeded PRNG so every run serves the same site. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pagePath(index: number): string {
  return index === 0 ? '/' : `/p/${index}.html`;
}

function linkTargets(index: number, options: BenchSiteOptions, next: () => number): number[] {
  const targets: number[] = [];
  for (const child of [2 * index + 1, 2 * index + 2]) if (child < options.pages) targets.push(child);
  while (targets.length < options.linksPerPage) targets.push(Math.floor(next() * options.pages));
  return targets;
}

/** A mix of link forms; the home page (at `/`) uses absolute paths, which resolve the same from there. */
function href(target: number, position: number, fromHome: boolean): string {
  if (target === 0) return '/';
  if (fromHome) return `/p/${target}.html`;
  if (position % 3 === 0) return `${target}.html`;
  if (position % 3 === 1) return `../p/${target}.html`;
  return `/p/${target}.html`;
}

export function renderBenchPage(index: number, options: BenchSiteOptions): Buffer {
  const next = random(index * 7919 + 17);
  const targets = linkTargets(index, options, next);
  const anchors = targets.map(
    (target, position) =>
      `<a href="${href(target, position, index === 0)}">${WORDS[target % WORDS.length]} ${target}</a>`,
  );
  const nav = anchors.slice(0, 10).join(' ');
  const footer = anchors.slice(10, 20).join(' ');
  const inline = anchors.slice(20);
  const head =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Page ${index} ${WORDS[index % WORDS.length]}</title>` +
    `<meta name="description" content="Synthetic page ${index} of the benchmark site">` +
    '<link rel="stylesheet" href="/assets/site.css"><script src="/assets/site.js" defer></script></head>' +
    `<body><header><nav>${nav}</nav></header><main><article><h1>Page ${index}</h1>`;
  const tail = `</article></main><footer>${footer}</footer></body></html>`;
  const paragraphs: string[] = [];
  let size = head.length + tail.length;
  let paragraph = 0;
  while (size < options.pageBytes) {
    const words: string[] = [];
    for (let w = 0; w < 60; w++) words.push(WORDS[Math.floor(next() * WORDS.length)]!);
    const link = inline[paragraph] ?? '';
    const text = `<p>${words.join(' ')} ${link} ${JAPANESE[paragraph % JAPANESE.length]}</p>`;
    paragraphs.push(text);
    size += Buffer.byteLength(text);
    paragraph += 1;
  }
  const rest = inline.slice(paragraph).join(' ');
  return Buffer.from(`${head}${paragraphs.join('')}<p>${rest}</p>${tail}`);
}

export function pageIndexOf(path: string, pages: number): number | undefined {
  if (path === '/') return 0;
  const match = /^\/p\/(\d+)\.html$/.exec(path);
  if (!match) return undefined;
  const index = Number(match[1]);
  return index < pages ? index : undefined;
}

export { pagePath };
