/** The operator's pages: every contract with its usage, and the operator's console sessions. */
import type { ConsoleRoute } from '../shell/route-types.js';
import { ContractsPage } from './contracts-page.js';
import { OperatorSessionsPage } from './operator-sessions-page.js';
import { operatorTexts } from './operator-texts.js';
import './operator.css';

export const operatorRoutes: ConsoleRoute[] = [
  {
    pattern: '/operator',
    view: () => <ContractsPage />,
    nav: { scope: 'operator', label: () => operatorTexts().title, order: 0 },
  },
  {
    pattern: '/operator/sessions',
    view: () => <OperatorSessionsPage />,
    nav: { scope: 'operator', label: () => operatorTexts().sessionsTitle, order: 1 },
  },
];
