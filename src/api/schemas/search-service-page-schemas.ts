import { type TSchema, Type } from '@sinclair/typebox';
import { SearchServiceConfigSchema } from '../../domain/search-service-config.js';
import { PREVIEW_DOCUMENTS } from '../../service/management/index.js';
import { nullableDatetime, ok, responses, route, SearchServiceParams } from './admin-schema-parts.js';

/** Schemas of what the console's search service page reads (docs/api.md, Management API). */

export const SearchServiceStatusSchema = {
  ...route("A search service's index: documents, size, last change and last feed"),
  params: SearchServiceParams,
  response: responses(
    ok({
      documents: Type.Integer({ description: 'documents searchable now' }),
      bytes: Type.Integer({ description: 'size of the index files' }),
      updated_datetime: nullableDatetime('when the index files last changed (a feed, or search activity)'),
      last_feed: Type.Union(
        [
          Type.Object({
            run_id: Type.Integer(),
            service_setting_id: Type.Integer(),
            crawl_execution_status_dtype_id: Type.Integer(),
            end_datetime: nullableDatetime('when the run ended'),
          }),
          Type.Null(),
        ],
        { description: 'the latest ended run of a crawl service setting feeding the service' },
      ),
    }),
  ),
};

const Node: TSchema = Type.Recursive((self) =>
  Type.Object({ label: Type.String(), count: Type.Integer(), children: Type.Array(self) }),
);

export const FacetPreviewSchema = {
  ...route(
    'Preview the categories and drill-down tree of a configuration',
    `Applies the category and drill-down rules of \`config\` (checked as PUT would; nothing is stored) to the ` +
      `URLs of the first ${PREVIEW_DOCUMENTS} indexed documents and counts the pages of each category and ` +
      'drill-down label.',
  ),
  params: SearchServiceParams,
  body: Type.Object({ config: SearchServiceConfigSchema }, { additionalProperties: false }),
  response: responses(
    ok({
      documents: Type.Integer({ description: 'documents read' }),
      of_documents: Type.Integer({ description: 'documents in the index' }),
      categories: Type.Array(Type.Object({ name: Type.String(), count: Type.Integer() })),
      uncategorized: Type.Integer({ description: 'pages in no category' }),
      drilldown: Type.Array(Node),
    }),
  ),
};
