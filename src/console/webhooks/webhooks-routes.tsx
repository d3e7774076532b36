/** The webhooks page of a service group. */
import type { ConsoleRoute } from '../shell/route-types.js';
import { WebhooksPage } from './webhooks-page.js';
import { webhooksTexts } from './webhooks-texts.js';

export const webhooksRoutes: ConsoleRoute[] = [
  {
    pattern: '/contracts/:contract/groups/:group/webhooks',
    view: (params) => <WebhooksPage contractId={Number(params.contract)} groupId={Number(params.group)} />,
    nav: { scope: 'group', label: () => webhooksTexts().title, order: 60 },
  },
];
