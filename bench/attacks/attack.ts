/** What an attack is given and what it answers, for the runner (attack-runner.ts). */
import type { AttackSizes } from './attack-sizes.js';
import type { StatusTally } from './status-tally.js';
import type { BenchTenants } from './tenant-setup.js';
import type { WebhookReceiver } from './webhook-receivers.js';

export interface AttackContext {
  kumoUrl: string;
  siteUrl: string;
  tenants: BenchTenants;
  sizes: AttackSizes;
  /** The victim's webhook endpoint, which answers at once. */
  victimReceiver: WebhookReceiver;
  /** performance.now() after which the attack stops sending and gives up waiting. */
  deadline: number;
}

export interface AttackOutcome {
  /** The status codes of the attack's own requests. */
  answers: StatusTally;
  /** Figures of this attack beyond the common ones. */
  notes: string[];
}

export interface Attack {
  /** `1 facet preview`: the number and name the report shows. */
  name: string;
  /** What is sent, with the sizes. */
  describe(sizes: AttackSizes): string;
  run(context: AttackContext): Promise<AttackOutcome>;
}

/** Milliseconds left until the deadline (at least 1). */
export const remainingMs = (deadline: number): number => Math.max(1, deadline - performance.now());
