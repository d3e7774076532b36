/** The account page and a service group's overview. */
import type { ConsoleRoute } from '../shell/route-types.js';
import { shellTexts } from '../shell/shell-texts.js';
import { AccountPage } from './account-page.js';
import { OverviewPage } from '../overview/overview-page.js';

export const accountRoutes: ConsoleRoute[] = [
  { pattern: '/account', view: () => <AccountPage /> },
  {
    pattern: '/contracts/:contract/groups/:group',
    view: (params) => <OverviewPage contractId={Number(params.contract)} groupId={Number(params.group)} />,
    nav: { scope: 'group', label: () => shellTexts().overview, order: 0 },
  },
];
