/** The API keys page of a service group. */
import type { ConsoleRoute } from '../shell/route-types.js';
import { keysTexts } from './keys-texts.js';
import { KeysPage } from './keys-page.js';

export const keysRoutes: ConsoleRoute[] = [
  {
    pattern: '/contracts/:contract/groups/:group/keys',
    view: (params) => <KeysPage contractId={Number(params.contract)} groupId={Number(params.group)} />,
    nav: { scope: 'group', label: () => keysTexts().title, order: 50 },
  },
];
