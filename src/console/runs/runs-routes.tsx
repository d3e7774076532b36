/** A service group's runs: the list, the instant crawl form and one run's page. */
import type { ConsoleRoute } from '../shell/route-types.js';
import { InstantCrawlPage } from './instant-crawl-page.js';
import { RunPage } from './run-page.js';
import { RunsPage } from './runs-page.js';
import { runsTexts } from './runs-texts.js';
import './runs.css';

export const runsRoutes: ConsoleRoute[] = [
  {
    pattern: '/contracts/:contract/groups/:group/runs',
    view: (params) => <RunsPage contractId={Number(params.contract)} groupId={Number(params.group)} />,
    nav: { scope: 'group', label: () => runsTexts().title, order: 20 },
  },
  {
    pattern: '/contracts/:contract/groups/:group/runs/new',
    view: (params) => (
      <InstantCrawlPage contractId={Number(params.contract)} groupId={Number(params.group)} />
    ),
  },
  {
    pattern: '/contracts/:contract/groups/:group/runs/:run',
    view: (params) => (
      <RunPage
        key={params.run}
        contractId={Number(params.contract)}
        groupId={Number(params.group)}
        runId={Number(params.run)}
      />
    ),
  },
];
