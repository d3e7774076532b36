/**
 * The widget's UI texts in English and Japanese (docs/reference/widget.md, What a visitor gets).
 * Every key can be overridden with `data-texts`; `{q}`, `{count}`, `{n}` and `{reason}` are filled
 * in by code.
 */
import { append, type Child } from './dom.js';

const EN = {
  label: 'Search this site',
  placeholder: 'Search…',
  submit: 'Search',
  clear: 'Clear the search box',
  suggestions: 'Suggestions',
  results: 'Search results',
  loading: 'Searching…',
  status: '{count} results for “{q}”',
  status1: '1 result for “{q}”',
  showingFor: 'Showing results for {q}.',
  searchInstead: 'Search instead for {q}',
  didYouMean: 'Did you mean {q}?',
  related: 'Related searches',
  all: 'All',
  categories: 'Categories',
  refine: 'Refine',
  sort: 'Sort by',
  sortRelevance: 'Relevance',
  sortNewest: 'Newest',
  sortTitle: 'Title',
  sortPopular: 'Popular',
  pager: 'Pages',
  prev: 'Previous',
  next: 'Next',
  page: 'Page {n}',
  empty: 'No results for “{q}”',
  tipsTitle: 'Suggestions:',
  tipSpelling: 'Check the spelling of your words.',
  tipGeneral: 'Try more general words.',
  tipFewer: 'Try fewer words.',
  errorOrigin: 'This site is not allowed to use this search.',
  errorNotFound: 'This search is not available: the search service does not exist.',
  errorInvalid: 'The search could not be made: {reason}',
  errorUnavailable: 'Search is busy right now. Please try again in a moment.',
  errorServer: 'Search failed because of a problem on the search service.',
  errorNetwork: 'The search service could not be reached. Check your connection.',
  errorConfig: 'The search box is set up wrongly: {reason}',
  retry: 'Try again',
};

export type TextKey = keyof typeof EN;
export type Texts = Record<TextKey, string>;

const JA: Texts = {
  label: 'サイト内検索',
  placeholder: 'キーワードを入力',
  submit: '検索',
  clear: '検索ボックスをクリア',
  suggestions: '検索候補',
  results: '検索結果',
  loading: '検索しています…',
  status: '「{q}」の検索結果 {count} 件',
  status1: '「{q}」の検索結果 1 件',
  showingFor: '{q} の検索結果を表示しています。',
  searchInstead: '{q} で検索する',
  didYouMean: 'もしかして: {q}',
  related: '関連キーワード',
  all: 'すべて',
  categories: 'カテゴリ',
  refine: '絞り込み',
  sort: '並べ替え',
  sortRelevance: '関連度順',
  sortNewest: '新しい順',
  sortTitle: 'タイトル順',
  sortPopular: '人気順',
  pager: 'ページ',
  prev: '前へ',
  next: '次へ',
  page: '{n} ページ目',
  empty: '「{q}」に一致するページは見つかりませんでした',
  tipsTitle: '検索のヒント:',
  tipSpelling: 'キーワードに誤字・脱字がないか確認してください。',
  tipGeneral: 'より一般的な言葉で検索してみてください。',
  tipFewer: 'キーワードの数を減らしてみてください。',
  errorOrigin: 'このサイトではこの検索を利用できません。',
  errorNotFound: 'この検索は利用できません（検索サービスが存在しません）。',
  errorInvalid: '検索できませんでした: {reason}',
  errorUnavailable: '検索が混み合っています。しばらくしてからもう一度お試しください。',
  errorServer: '検索サービスの問題により検索できませんでした。',
  errorNetwork: '検索サービスに接続できません。通信環境を確認してください。',
  errorConfig: '検索ボックスの設定に誤りがあります: {reason}',
  retry: '再試行',
};

export type Language = 'en' | 'ja';

/** The texts of `language` with the page's overrides; unknown keys and non-strings are ignored. */
export function textsFor(language: Language, overrides: Record<string, unknown> = {}): Texts {
  const texts: Texts = { ...(language === 'ja' ? JA : EN) };
  for (const key of Object.keys(EN) as TextKey[]) {
    const value = overrides[key];
    if (typeof value === 'string') texts[key] = value;
  }
  return texts;
}

/** `template` with `{name}` filled from `values` (strings or nodes), as a fragment of text nodes. */
export function format(template: string, values: Record<string, Child>): DocumentFragment {
  const fragment = document.createDocumentFragment();
  const pieces = template.split(/\{(\w+)\}/);
  pieces.forEach((piece, index) => {
    if (index % 2 === 0) append(fragment, [piece]);
    else append(fragment, [piece in values ? values[piece] : `{${piece}}`]);
  });
  return fragment;
}

/** `template` with `{name}` filled, as a plain string (labels, attributes). */
export function formatText(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}
