/** A contract's users and audit log pages. */
import type { ConsoleRoute } from '../shell/route-types.js';
import { AuditLogPage } from './audit-log-page.js';
import { UsersPage } from './users-page.js';
import { usersTexts } from './users-texts.js';

export const usersRoutes: ConsoleRoute[] = [
  {
    pattern: '/contracts/:contract/users',
    view: (params) => <UsersPage contractId={Number(params.contract)} />,
    nav: { scope: 'contract', label: () => usersTexts().title, order: 70 },
  },
  {
    pattern: '/contracts/:contract/audit',
    view: (params) => <AuditLogPage contractId={Number(params.contract)} />,
    nav: { scope: 'contract', label: () => usersTexts().auditTitle, order: 80, role: 'owner' },
  },
];
