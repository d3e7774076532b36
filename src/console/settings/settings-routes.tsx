/** The crawl settings page of a service group. */
import type { ConsoleRoute } from '../shell/route-types.js';
import { SettingsPage } from './settings-page.js';
import { settingsTexts } from './settings-texts.js';

export const settingsRoutes: ConsoleRoute[] = [
  {
    pattern: '/contracts/:contract/groups/:group/settings',
    view: (params) => <SettingsPage contractId={Number(params.contract)} groupId={Number(params.group)} />,
    nav: { scope: 'group', label: () => settingsTexts().title, order: 10 },
  },
];
