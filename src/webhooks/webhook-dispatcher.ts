import { performance } from 'node:perf_hooks';
import { type AddressGuard, addressRefusalOf } from '../net/index.js';
import type {
  AttemptOutcome,
  DeliveryRecord,
  WebhookDeliveryStore,
  WebhookRecord,
  WebhookStore,
} from '../store/index.js';
import type { Clock } from '../util/index.js';
import { ContractTurns } from './contract-turns.js';
import type { WebhookClient } from './webhook-client.js';
import { signatureHeader } from './webhook-signature.js';

/**
 * Works the durable webhook delivery queue in the background. Attempts run with bounded
 * concurrency on their own connection pool and each is bounded by a connect timeout and a total
 * timeout, so a slow or dead endpoint costs at most a few sockets and never holds up a crawl.
 * Contracts take turns and each holds at most a share of the attempts (contract-turns.ts), so
 * one contract's backlog or slow receiver never holds up another's deliveries. Every outcome is
 * written back to the queue with its retry time from the backoff list (or as given up), so a
 * restart resumes it.
 */

export interface DispatcherLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface WebhookDispatcherOptions {
  deliveries: WebhookDeliveryStore;
  webhooks: WebhookStore;
  clock: Clock;
  /** Seconds before retry n (after failed attempt n); after the last one the delivery fails. */
  backoffSeconds: readonly number[];
  /** Time the endpoint has to answer, per attempt, connecting included. */
  timeoutMs: number;
  /** Time connecting to the endpoint may take, per attempt; default 5000 (at most timeoutMs counts). */
  connectTimeoutMs?: number;
  userAgent: string;
  logger: DispatcherLogger;
  /** Attempts in flight at once; default 16. */
  concurrency?: number;
  /** Attempts of one contract in flight at once; default 2. */
  perContract?: number;
  /** Longest sleep between queue reads, so deliveries queued by another process are noticed; default 5000. */
  pollIntervalMs?: number;
  /**
   * The address policy (an AddressPolicy), so a tenant cannot aim requests at the service's
   * private network: refusalOfHost is checked before each attempt, and refusalOf (with lookup)
   * when connecting, on the addresses actually connected to, so a DNS answer that changes
   * between the two (rebinding) is refused too. Absent: no check.
   */
  addresses?: { refusalOfHost(hostname: string): Promise<string | undefined> } & Partial<AddressGuard>;
}

const ERROR_MAX_CHARS = 200;
/** What a lease allows beyond the attempt's timeout: reading the webhook and recording the outcome. */
const LEASE_MARGIN_MS = 30_000;
/** Contracts with due deliveries looked at per round; beyond them, those waiting longest. */
const DUE_CONTRACTS_READ = 100;

export class WebhookDispatcher {
  private readonly guard: AddressGuard | undefined;
  /** Loaded with the first attempt (webhook-client.ts). */
  private client: Promise<WebhookClient> | undefined;
  private readonly concurrency: number;
  private readonly pollIntervalMs: number;
  private readonly connectTimeoutMs: number;
  private readonly inFlight = new Map<number, Promise<void>>();
  private readonly turns: ContractTurns;
  private timer: NodeJS.Timeout | undefined;
  private pumpQueued = false;
  /** The queue read in progress, if any (see pump). */
  private pumping: Promise<void> | undefined;
  private pumpAgain = false;
  private running = false;
  private stopping: Promise<void> | undefined;

  constructor(private readonly options: WebhookDispatcherOptions) {
    this.concurrency = Math.max(1, options.concurrency ?? 16);
    this.turns = new ContractTurns(Math.max(1, options.perContract ?? 2));
    this.connectTimeoutMs = Math.max(1, options.connectTimeoutMs ?? 5000);
    this.pollIntervalMs = Math.max(1, options.pollIntervalMs ?? 5000);
    const addresses = options.addresses;
    this.guard =
      addresses?.refusalOf !== undefined && addresses.lookup !== undefined
        ? (addresses as AddressGuard)
        : undefined;
  }

  start(): void {
    if (this.running || this.stopping) return;
    this.running = true;
    void this.pump();
  }

  /** Looks at the queue soon; coalesced so a burst of publishes costs one queue read. */
  nudge(): void {
    if (!this.running || this.pumpQueued) return;
    this.pumpQueued = true;
    // Deferred: the publisher's caller (a crawl) should not pay for the queue read.
    setImmediate(() => {
      this.pumpQueued = false;
      void this.pump();
    });
  }

  /** Starts no new attempt and resolves once the attempts in flight (bounded by the timeout) are recorded. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.running = false;
      if (this.timer !== undefined) clearTimeout(this.timer);
      this.timer = undefined;
      // A queue read in progress launches nothing more (readQueue); then the attempts are all known.
      await this.pumping;
      await Promise.allSettled([...this.inFlight.values()]);
      // Its pool's connections, if an attempt ever opened it.
      const client = await this.client?.catch(() => undefined);
      await client?.agent.close();
    })();
    return this.stopping;
  }

  /**
   * Reads the queue and launches what is due. One read at a time: two would each count the same
   * free slots; a call meanwhile reads again once the current one ends.
   */
  private async pump(): Promise<void> {
    if (!this.running) return;
    if (this.pumping !== undefined) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = this.readQueue().finally(() => {
      this.pumping = undefined;
      if (!this.pumpAgain) return;
      this.pumpAgain = false;
      void this.pump();
    });
  }

  private async readQueue(): Promise<void> {
    const { deliveries, logger } = this.options;
    try {
      const now = this.options.clock.nowMicros();
      if (!(await this.launchDue(now))) return;
      const next = await deliveries.nextDueMicros();
      // A due time already passed belongs to an attempt waiting for a slot (the attempt that
      // finishes pumps again): only the poll interval is armed for it.
      const untilNextMs =
        next !== undefined && next > now ? Math.ceil((next - now) / 1000) : Number.POSITIVE_INFINITY;
      this.arm(Math.min(untilNextMs, this.pollIntervalMs));
    } catch (error) {
      logger.error({ err: error }, 'webhook dispatcher cannot read the delivery queue');
      this.arm(this.pollIntervalMs);
    }
  }

  /**
   * Launches due deliveries into the free slots, in rounds that take at most one delivery per
   * contract, whose turn it is first: one contract's backlog never fills the slots ahead of
   * another's delivery. False when the dispatcher stopped meanwhile.
   */
  private async launchDue(now: number): Promise<boolean> {
    const { deliveries, timeoutMs } = this.options;
    // The deliveries taken are leased to this dispatcher for the longest an attempt and its
    // recording take: another process does not take them meanwhile, and one whose outcome could
    // not be written (the store failing) waits for the lease to end rather than being sent again
    // at once, in a loop.
    const leaseUntil = now + (timeoutMs + LEASE_MARGIN_MS) * 1000;
    while (this.inFlight.size < this.concurrency) {
      const due = await deliveries.dueByContract(now, this.turns.full(), DUE_CONTRACTS_READ);
      if (!this.running) return false;
      const picked = this.turns
        .inTurn(due)
        .filter((delivery) => !this.inFlight.has(delivery.id))
        .slice(0, this.concurrency - this.inFlight.size);
      if (picked.length === 0) return true;
      const claimed = await deliveries.claim(
        picked.map((delivery) => delivery.id),
        now,
        leaseUntil,
      );
      // Stopped meanwhile: what was taken stays leased and is sent when the lease ends.
      if (!this.running) return false;
      const contractOf = new Map(picked.map((delivery) => [delivery.id, delivery.contractId]));
      for (const delivery of claimed) this.launch(delivery, contractOf.get(delivery.id)!);
      // Another process took them all: what is left is read at the next pump.
      if (claimed.length === 0) return true;
    }
    return true;
  }

  private arm(delayMs: number): void {
    if (!this.running) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.pump(), delayMs);
    // The queue alone must not keep the process alive.
    this.timer.unref();
  }

  private launch(delivery: DeliveryRecord, contractId: number): void {
    this.turns.started(contractId);
    const attempt = this.attempt(delivery)
      .catch((error: unknown) => {
        // The delivery stays leased: it is attempted again when the lease ends.
        this.options.logger.error(
          { err: error, deliveryId: delivery.id, webhookId: delivery.webhookId },
          'webhook attempt could not be recorded',
        );
      })
      .finally(() => {
        this.inFlight.delete(delivery.id);
        this.turns.ended(contractId);
        void this.pump();
      });
    this.inFlight.set(delivery.id, attempt);
  }

  private async attempt(delivery: DeliveryRecord): Promise<void> {
    const { deliveries, webhooks, clock, backoffSeconds, logger } = this.options;
    const context = {
      deliveryId: delivery.id,
      webhookId: delivery.webhookId,
      event: delivery.event,
      eventId: delivery.eventId,
      attempt: delivery.attempts + 1,
    };
    const webhook = await webhooks.get(delivery.webhookId);
    if (webhook === undefined) {
      await deliveries.recordAttempt(
        delivery.id,
        { status: null, error: 'webhook deleted', durationMs: null, next: { kind: 'failed' } },
        clock.nowMicros(),
      );
      logger.warn(context, 'webhook delivery dropped: webhook deleted');
      return;
    }
    const { status, error, durationMs } = await this.send(webhook, delivery);
    const now = clock.nowMicros();
    const delivered = status !== null && status >= 200 && status < 300;
    // Attempts keep counting across a replay, so a replayed delivery gets one attempt, not a new series.
    const backoff = backoffSeconds[delivery.attempts];
    const next: AttemptOutcome['next'] = delivered
      ? { kind: 'delivered' }
      : backoff !== undefined
        ? { kind: 'retry', atMicros: now + Math.round(backoff * 1_000_000) }
        : { kind: 'failed' };
    await deliveries.recordAttempt(
      delivery.id,
      { status, error: delivered ? '' : error, durationMs, next },
      now,
    );
    const outcome = { ...context, host: hostOf(webhook.url), status, ...(delivered ? {} : { error }) };
    if (next.kind === 'delivered') logger.info(outcome, 'webhook delivered');
    else if (next.kind === 'retry')
      logger.warn({ ...outcome, retryInSeconds: backoff }, 'webhook attempt failed');
    else logger.warn(outcome, 'webhook delivery failed, giving up');
  }

  private openClient(): Promise<WebhookClient> {
    this.client ??= import('./webhook-client.js')
      .then(({ openWebhookClient }) => openWebhookClient(this.concurrency, this.connectTimeoutMs, this.guard))
      .catch((error: unknown) => {
        // Not kept: the next attempt tries again rather than every delivery failing until a restart.
        this.client = undefined;
        throw error;
      });
    return this.client;
  }

  /** One POST; never throws: a failure is described in a short message without URL or secret. */
  private async send(
    webhook: WebhookRecord,
    delivery: DeliveryRecord,
  ): Promise<{ status: number | null; error: string; durationMs: number }> {
    let client: WebhookClient;
    try {
      // Before the attempt's timeout and duration start: loading the client the first time is
      // not the endpoint's delay.
      client = await this.openClient();
    } catch (error) {
      return { status: null, error: describeError(error), durationMs: 0 };
    }
    const startedMs = performance.now();
    const outcome = await this.post(client, webhook, delivery);
    return { ...outcome, durationMs: Math.round(performance.now() - startedMs) };
  }

  private async post(
    client: WebhookClient,
    webhook: WebhookRecord,
    delivery: DeliveryRecord,
  ): Promise<{ status: number | null; error: string }> {
    const { clock, timeoutMs, userAgent, addresses } = this.options;
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      if (addresses !== undefined) {
        const refusal = await addresses.refusalOfHost(new URL(webhook.url).hostname);
        if (refusal !== undefined) return { status: null, error: shorten(`refused: ${refusal}`) };
      }
      // The time of this attempt, so a receiver's freshness check holds for retries too.
      const unixSeconds = Math.floor(clock.nowMicros() / 1_000_000);
      const response = await client.request(webhook.url, {
        dispatcher: client.agent,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': userAgent,
          'x-mf-event': delivery.event,
          'x-mf-delivery': delivery.eventId,
          'x-mf-signature': signatureHeader(webhook.secret, delivery.body, unixSeconds),
        },
        body: delivery.body,
        signal,
      });
      try {
        // Read to the end so the connection goes back to the pool (dump destroys it past 128 KiB).
        await response.body.dump();
      } catch {
        // The status decides the attempt; a body cut short only costs the connection.
      }
      return { status: response.statusCode, error: `HTTP ${response.statusCode}` };
    } catch (error) {
      const refusal = addressRefusalOf(error);
      if (refusal !== undefined) return { status: null, error: shorten(`refused: ${refusal.reason}`) };
      if ((error as { code?: unknown }).code === 'UND_ERR_CONNECT_TIMEOUT')
        return { status: null, error: `connect timeout after ${this.connectTimeoutMs / 1000} s` };
      if (signal.aborted) return { status: null, error: `timeout after ${timeoutMs / 1000} s` };
      return { status: null, error: describeError(error) };
    }
  }
}

function describeError(error: unknown): string {
  const { code, message, errors } = error as { code?: unknown; message?: unknown; errors?: unknown };
  // Connecting to every address of a host fails with an AggregateError whose own message is empty.
  const first = Array.isArray(errors) ? (errors[0] as { message?: unknown } | undefined) : undefined;
  const text =
    typeof message === 'string' && message !== ''
      ? message
      : typeof first?.message === 'string'
        ? first.message
        : String(error);
  const prefixed = typeof code === 'string' && !text.includes(code) ? `${code}: ${text}` : text;
  return shorten(prefixed);
}

function shorten(text: string): string {
  return text.length > ERROR_MAX_CHARS ? `${text.slice(0, ERROR_MAX_CHARS - 1)}…` : text;
}

/** Host only: paths and queries of webhook URLs may carry tokens and stay out of logs. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '(invalid url)';
  }
}
