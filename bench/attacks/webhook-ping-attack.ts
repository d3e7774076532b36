/**
 * Attack 4: an owner of A pings A's webhook, whose endpoint never answers, many times; then the
 * operator pings B's webhook, whose endpoint answers at once (docs/api.md, Webhooks). The figure
 * is how long B's ping waited behind A's deliveries.
 */
import { type Attack, remainingMs } from './attack.js';
import { operator } from './management.js';
import { StatusTally } from './status-tally.js';

export const webhookPingAttack: Attack = {
  name: '4 webhook pings',
  describe: (sizes) =>
    `an owner of A: ${sizes.pings} pings to an endpoint that never answers, then one ping of B to an endpoint that answers at once`,
  async run({ kumoUrl, tenants, sizes, victimReceiver, deadline }) {
    const { attacker, victim } = tenants;
    const answers = new StatusTally();
    for (let ping = 0; ping < sizes.pings && performance.now() < deadline; ping += 1) {
      const answer = await attacker.owner.call(`${attacker.group}/webhooks/${attacker.webhookId}/ping`, {
        method: 'POST',
        timeoutMs: remainingMs(deadline),
      });
      answers.add(answer.status);
    }
    const arrivalsBefore = victimReceiver.arrivals.length;
    const victimPing = await operator(kumoUrl).call(`${victim.group}/webhooks/${victim.webhookId}/ping`, {
      method: 'POST',
      timeoutMs: remainingMs(deadline),
    });
    const queued = performance.now();
    while (victimReceiver.arrivals.length === arrivalsBefore && performance.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const arrival = victimReceiver.arrivals[arrivalsBefore];
    return {
      answers,
      notes: [
        `B's ping answered ${victimPing.status}; ` +
          (arrival === undefined
            ? `not delivered within the cap (${((deadline - queued) / 1000).toFixed(1)} s after it was queued)`
            : `delivered ${((arrival - queued) / 1000).toFixed(2)} s after it was queued`),
      ],
    };
  },
};
