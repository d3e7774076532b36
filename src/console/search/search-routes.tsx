/** A service group's site search: its search services and the page of one. */
import type { ConsoleRoute } from '../shell/route-types.js';
import { SearchServicePage } from './search-service-page.js';
import { SearchServicesPage } from './search-services-page.js';
import { searchTexts } from './search-texts.js';
import './search.css';

export const searchRoutes: ConsoleRoute[] = [
  {
    pattern: '/contracts/:contract/groups/:group/search',
    view: (params) => (
      <SearchServicesPage contractId={Number(params.contract)} groupId={Number(params.group)} />
    ),
    nav: { scope: 'group', label: () => searchTexts().title, order: 30 },
  },
  {
    pattern: '/contracts/:contract/groups/:group/search/:service',
    view: (params) => (
      <SearchServicePage
        key={params.service}
        contractId={Number(params.contract)}
        groupId={Number(params.group)}
        serviceId={Number(params.service)}
      />
    ),
  },
];
