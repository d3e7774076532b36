/**
 * Attack 3: sign-ins of unknown e-mail addresses (docs/api.md, Accounts and sessions) from many
 * loopback addresses, each client's socket bound to its own, so that no address reaches the
 * per-client limit of failures while every attempt costs the password check.
 */
import { type Attack, remainingMs } from './attack.js';
import { call } from './http-call.js';
import { StatusTally } from './status-tally.js';

/** `count` addresses, half in 127.0.0.x (from .2) and half in 127.0.1.x (from .1). */
export function loopbackAddresses(count: number): string[] {
  const half = Math.ceil(count / 2);
  return Array.from({ length: count }, (_, index) =>
    index < half ? `127.0.0.${2 + index}` : `127.0.1.${1 + index - half}`,
  );
}

export const signInAttack: Attack = {
  name: '3 sign-ins',
  describe: (sizes) =>
    `${sizes.signIns} sign-ins of unknown e-mails from ${sizes.signInAddresses} loopback addresses, ` +
    `${sizes.signInConcurrency} at once`,
  async run({ kumoUrl, sizes, deadline }) {
    const addresses = loopbackAddresses(sizes.signInAddresses);
    const answers = new StatusTally();
    let next = 0;
    const client = async () => {
      while (next < sizes.signIns && performance.now() < deadline) {
        const index = next++;
        const answer = await call(`${kumoUrl}/admin/v1/session`, {
          method: 'POST',
          body: { email: `nobody-${index}@victim.example`, password: 'not the password of anyone' },
          localAddress: addresses[index % addresses.length],
          timeoutMs: remainingMs(deadline),
        });
        answers.add(answer.status);
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: sizes.signInConcurrency }, client));
    const seconds = (performance.now() - started) / 1000;
    return {
      answers,
      notes: [
        `${next} of ${sizes.signIns} sign-ins sent in ${seconds.toFixed(1)} s (${(next / seconds).toFixed(0)}/s)`,
      ],
    };
  },
};
