import { invitationUrl } from '../usecases/index.js';
import { CLI_ACTOR, listScope, printedTime, requiredId, type AdminHandler } from './admin-options.js';
import { UsageError } from './usage-error.js';

/**
 * `kumo admin user ...`: console accounts through the same operations as the management API's
 * users and invitations (docs/api.md, Accounts and sessions). The invitation's token is printed
 * once: the store keeps only its hash.
 */
export const USER_HANDLERS: Record<string, AdminHandler> = {
  'user invite': async ({ management, values, print, timezone, publicUrl }) => {
    const contractId = requiredId(values.contract, 'contract');
    if (values.email === undefined) throw new UsageError('--email ADDRESS is required', true);
    if (values.role === undefined)
      throw new UsageError('--role ROLE is required (owner, editor or viewer)', true);
    const { invitation, token } = await management.accounts.invite(CLI_ACTOR, contractId, {
      email: values.email,
      role: values.role,
    });
    print(
      `invitation ${invitation.id} created for ${invitation.email} (${invitation.role}) in contract ` +
        `${contractId}, valid until ${printedTime(invitation.expiresMicros, timezone)}`,
    );
    print(`link (shown once): ${invitationUrl(publicUrl, token)}`);
    print(`token (shown once): ${token}`);
  },
  'user list': async ({ management, values, print, timezone }) => {
    print('id\tcontract\temail\trole\tcreated');
    for (const user of await management.accounts.listUsers(listScope(values))) {
      print(
        `${user.id}\t${user.contractId}\t${user.email}\t${user.role}\t${printedTime(user.createdMicros, timezone)}`,
      );
    }
  },
};
