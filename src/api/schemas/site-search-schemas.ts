import { Type } from '@sinclair/typebox';
import { FAILURE_RESPONSES, IdParam } from './common-schemas.js';

/** Path of every site search endpoint, `<doc_path>` (docs/reference/site-search.md, Site search API). */
export const SearchServiceParams = Type.Object({
  contract_id: IdParam('contract id'),
  servicegroup_id: IdParam('service group id'),
  service_id: IdParam('search service id'),
});

const Text = (description: string) => Type.Optional(Type.String({ description }));
const InputEncoding = Type.Optional(
  Type.Union(
    ['utf8', 'sjis', 'jis', 'euc-jp', 'euc-kr', 'iso-8859-1'].map((value) => Type.Literal(value)),
    { description: 'encoding of the percent-encoded bytes of text parameters; default utf8' },
  ),
);
const Callback = Text(
  'JSONP: answer `callback(...)` as application/javascript; a JavaScript identifier path',
);

/*
 * The answers below are the one description of the site search API's bodies: the routes declare
 * them, and the typed client's types (src/client) and its published declaration file are derived
 * from them (docs/reference/widget.md, Typed client).
 */
export const HighlightPartSchema = Type.Object({ is_highlighted: Type.Boolean(), text: Type.String() });
export const DrillDownInfoSchema = Type.Recursive(
  (self) =>
    Type.Object({
      depth: Type.Integer(),
      title: Type.String(),
      path: Type.String({ description: 'labels from the top joined by a tab' }),
      count: Type.Integer(),
      is_selected: Type.Boolean(),
      is_opened: Type.Boolean(),
      children: Type.Optional(Type.Array(self)),
    }),
  { $id: 'FacetDrillDownInfo' },
);

export const SearchResponseSchema = Type.Object({
  parameter: Type.Object({
    q: Type.String(),
    input_encoding: Type.String(),
    page_number: Type.Integer(),
    number_per_page: Type.Integer(),
    sort_by: Type.Array(Type.String()),
    category: Type.String(),
    drilldown: Type.Array(Type.String()),
    doctype: Type.Array(Type.String()),
  }),
  organic: Type.Object({
    hits: Type.Integer(),
    range_min: Type.Integer(),
    range_max: Type.Integer(),
    docs: Type.Array(
      Type.Object({
        ranking: Type.Integer(),
        url: Type.String(),
        title: Type.String(),
        description: Type.String(),
        start_text: Type.String(),
        highlight: Type.Object({
          url_parts: Type.Array(HighlightPartSchema),
          title_parts: Type.Array(HighlightPartSchema),
          description_parts: Type.Array(HighlightPartSchema),
          document_text_parts: Type.Array(HighlightPartSchema),
        }),
        content_size: Type.Integer(),
        last_modified: Type.Integer({ description: 'unix seconds' }),
        drilldown: Type.Array(Type.String()),
        doctype: Type.String(),
        duplicate_urls: Type.Optional(Type.Array(Type.String())),
      }),
    ),
  }),
  category: Type.Object({ items: Type.Array(Type.String()), selected: Type.Array(Type.String()) }),
  facet_drilldown_roots: Type.Array(
    Type.Object({
      is_selected: Type.Boolean(),
      is_opened: Type.Boolean(),
      facet_drilldowns: Type.Array(DrillDownInfoSchema),
    }),
  ),
  spellcheck: Type.Object({ main_phrase: Type.String() }),
});

export const SuggestResponseSchema = Type.Object({
  suggestions: Type.Array(
    Type.Object({ word: Type.String(), point: Type.Number({ minimum: 0, maximum: 1 }) }),
  ),
});

export const RelatedKeywordsResponseSchema = Type.Object({
  related_keywords: Type.Array(Type.Object({ word: Type.String() })),
});

const SITE_SEARCH_FAILURES = {
  400: FAILURE_RESPONSES[400],
  403: FAILURE_RESPONSES[403],
  404: FAILURE_RESPONSES[404],
};

export const SearchSchema = {
  summary: 'Full-text search',
  tags: ['site search'],
  params: SearchServiceParams,
  querystring: Type.Object({
    q: Text('query: words (AND), "phrase", -exclude, OR'),
    input_encoding: InputEncoding,
    page_number: Type.Optional(Type.Integer({ minimum: 1, maximum: 10000, default: 1 })),
    number_per_page: Type.Optional(Type.Integer({ minimum: 0, maximum: 100, default: 10 })),
    sort_by: Text(
      '`field order`, several separated by commas: score, last_modified, title, click; asc or desc',
    ),
    category: Text('category to narrow to'),
    drilldown: Text('a drill-down path (labels joined by a tab); repeat the parameter for several (OR)'),
    doctype: Text('all, html, pdf, doc, xls, ppt; several separated by commas (OR)'),
    callback: Callback,
  }),
  response: { 200: SearchResponseSchema, ...SITE_SEARCH_FAILURES },
};

export const SuggestSchema = {
  summary: 'Query suggestions',
  tags: ['site search'],
  params: SearchServiceParams,
  querystring: Type.Object({
    q: Text('what the visitor has typed so far'),
    input_encoding: InputEncoding,
    number_per_suggestion: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
    callback: Callback,
  }),
  response: { 200: SuggestResponseSchema, ...SITE_SEARCH_FAILURES },
};

export const RelatedKeywordsSchema = {
  summary: 'Related keywords',
  tags: ['site search'],
  params: SearchServiceParams,
  querystring: Type.Object({
    q: Text('query'),
    prefix: Text('keywords must start with this'),
    input_encoding: InputEncoding,
    callback: Callback,
  }),
  response: { 200: RelatedKeywordsResponseSchema, ...SITE_SEARCH_FAILURES },
};

export const ClickSchema = {
  summary: 'Record a click and redirect to the clicked page',
  tags: ['site search'],
  params: SearchServiceParams,
  querystring: Type.Object({
    url: Type.String({ description: 'an indexed URL; any other is a 404, so this is no open redirect' }),
    q: Text('the query the visitor clicked from'),
    input_encoding: InputEncoding,
  }),
  response: { ...SITE_SEARCH_FAILURES },
};
