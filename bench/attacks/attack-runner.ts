/**
 * Runs one attack against the service while the victim's probes run, and gathers its figures:
 * the probes' latencies, the attack's answers and the worst hold of the API thread (scraped
 * before and after). Afterwards A's crawls still pending or running are cancelled, so the next
 * attack starts on a quiet service.
 */
import type { Attack, AttackContext, AttackOutcome } from './attack.js';
import { scrapeWorstHold } from './api-thread-hold.js';
import { patientOperator } from './management.js';
import { StatusTally } from './status-tally.js';
import { type ProbeFigures, startVictimProbes } from './victim-probes.js';
import { victimSearchPath } from './tenant-setup.js';

/** How long the probes in flight are awaited after the attack, and the attack after its cap. */
const GRACE_MS = 5000;

export interface AttackFigures {
  name: string;
  description: string;
  seconds: number;
  /** The attack did not end by itself within the cap. */
  capped: boolean;
  outcome: AttackOutcome;
  health: ProbeFigures;
  search: ProbeFigures;
  /** Seconds; undefined when /metrics did not tell. */
  worstHold: number | undefined;
  /**
   * Seconds from the start of the attack until the service answered the scrape after it: past
   * the cap when the service was still held by work the attack left behind.
   */
  answeringAgain: number;
}

async function cancelAttackerRuns(context: Omit<AttackContext, 'deadline'>): Promise<void> {
  const admin = patientOperator(context.kumoUrl, 300_000);
  const group = context.tenants.attacker.group;
  const active = await admin.call(`${group}/runs?state=active`);
  if (active.status !== 200) return;
  for (const run of (active.json as { runs: { id: number }[] }).runs)
    await admin.call(`${group}/runs/${run.id}/cancel`, { method: 'POST' });
}

export async function runAttack(
  attack: Attack,
  context: Omit<AttackContext, 'deadline'>,
): Promise<AttackFigures> {
  const { kumoUrl, sizes, tenants } = context;
  await scrapeWorstHold(kumoUrl);
  const probes = startVictimProbes(
    `${kumoUrl}/api/v1.0/finder_service/health_check`,
    `${kumoUrl}${victimSearchPath(tenants.victim)}`,
  );
  const started = performance.now();
  const deadline = started + sizes.capMs;
  let timer: NodeJS.Timeout | undefined;
  const cap = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), sizes.capMs + GRACE_MS);
  });
  const outcome = await Promise.race([
    attack.run({ ...context, deadline }).catch((error: unknown): AttackOutcome => ({
      answers: new StatusTally(),
      notes: [`the attack failed: ${String(error)}`],
    })),
    cap,
  ]);
  clearTimeout(timer);
  const seconds = (performance.now() - started) / 1000;
  const { health, search } = await probes.stop(GRACE_MS);
  const worstHold = await scrapeWorstHold(kumoUrl);
  const answeringAgain = (performance.now() - started) / 1000;
  await cancelAttackerRuns(context);
  return {
    name: attack.name,
    description: attack.describe(sizes),
    seconds,
    capped: outcome === undefined || performance.now() > deadline,
    outcome: outcome ?? { answers: new StatusTally(), notes: ['the attack did not return within its cap'] },
    health,
    search,
    worstHold,
    answeringAgain,
  };
}
