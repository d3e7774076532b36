import type { HopResponse, HttpFetcher } from './http-fetcher.js';

/** A run's budget when the limits name none (tools and tests): KUMO_CRAWL_BODY_BUDGET_BYTES's default. */
export const DEFAULT_BODY_BUDGET_BYTES = 8 * 1024 * 1024;

/**
 * The bytes of page bodies a run holds at once, from reading a body to committing its page
 * (docs/design/crawl.md, Bodies in hand). Without it a run of 16 fetches that meets a stretch of
 * very large pages may hold them all at once, with their copies on the way to the page thread: up
 * to 16 times the body limit (32 MiB). On rust-doc, whose source listings of 2–10 MB come a few
 * at a time, it keeps them from overlapping at the crawl's peak.
 *
 * A page is admitted before its body is read, for the size its Content-Length gives or, without
 * one, the mean size of the run's bodies so far; once read, the hold grows to the body's decoded
 * size without waiting (a compressed or unannounced body may exceed its estimate). Admission is in
 * arrival order, and a page is always admitted when the run holds nothing, so a page larger than
 * the whole budget is read alone rather than never. A page waiting to be admitted holds no bytes,
 * so the run cannot wait on itself.
 */
export class BodyBudget {
  private used = 0;
  private readonly waiting: { bytes: number; admit: () => void }[] = [];
  private bodies = 0;
  private bodyBytes = 0;

  constructor(readonly capacityBytes: number) {}

  /** Bytes held now. */
  get heldBytes(): number {
    return this.used;
  }

  /** A page's share: empty until it is admitted, released once when the page is done. */
  hold(): BodyHold {
    return new BodyHold(this);
  }

  /** The size to admit a body of unannounced length for: the run's mean so far, 64 KiB at first. */
  estimateBytes(): number {
    return this.bodies === 0 ? 64 * 1024 : Math.ceil(this.bodyBytes / this.bodies);
  }

  /** @internal Resolves once `bytes` more fit (or nothing is held), in arrival order. */
  take(bytes: number): Promise<void> {
    if (this.waiting.length === 0 && this.fits(bytes)) {
      this.used += bytes;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push({ bytes, admit: resolve }));
  }

  /** @internal Counts bytes a held page turned out to need beyond its admission. */
  grow(bytes: number): void {
    this.used += bytes;
  }

  /** @internal A body read in full: its size feeds the estimate of unannounced ones. */
  noteBody(bytes: number): void {
    this.bodies += 1;
    this.bodyBytes += bytes;
  }

  /** @internal Gives back a page's bytes and admits whoever now fits. */
  give(bytes: number): void {
    this.used -= bytes;
    while (this.waiting.length > 0) {
      const next = this.waiting[0]!;
      if (!this.fits(next.bytes)) break;
      this.waiting.shift();
      this.used += next.bytes;
      next.admit();
    }
  }

  private fits(bytes: number): boolean {
    return this.used === 0 || this.used + bytes <= this.capacityBytes;
  }
}

/** One page's share of its run's BodyBudget. */
export class BodyHold {
  private held = 0;
  private released = false;

  constructor(private readonly budget: BodyBudget) {}

  /** Waits until the page may hold `bytes` (nothing to wait for when it holds that much already). */
  async admit(bytes: number): Promise<void> {
    if (this.released) return;
    if (this.held === 0) {
      await this.budget.take(bytes);
      if (this.released) {
        // Released while waiting (the page was given up): hand the admission straight back.
        this.budget.give(bytes);
        return;
      }
      this.held = bytes;
      return;
    }
    this.cover(bytes);
  }

  /** Grows the share to `bytes` without waiting: what a body read turned out to need. */
  cover(bytes: number): void {
    if (this.released || bytes <= this.held) return;
    this.budget.grow(bytes - this.held);
    this.held = bytes;
  }

  /** Gives the page's bytes back; later calls do nothing. */
  release(): void {
    if (this.released) return;
    this.released = true;
    const held = this.held;
    this.held = 0;
    if (held > 0) this.budget.give(held);
  }
}

/**
 * The fetcher for one page: each body it reads is first admitted to the page's hold, for its
 * announced length (capped at the body limit) or the run's estimate, then covered at its decoded
 * size. Redirect hops read no body and wait for nothing.
 */
export function budgetedFetcher(fetcher: HttpFetcher, budget: BodyBudget, hold: BodyHold): HttpFetcher {
  return {
    fetchHop: async (hop) => {
      const response = await fetcher.fetchHop(hop);
      return budgetedResponse(response, budget, hold);
    },
    close: () => fetcher.close(),
  };
}

function budgetedResponse(response: HopResponse, budget: BodyBudget, hold: BodyHold): HopResponse {
  return {
    status: response.status,
    headers: response.headers,
    readBody: async (maxBytes) => {
      const announced = announcedLength(response.headers);
      await hold.admit(Math.min(announced ?? budget.estimateBytes(), maxBytes));
      const body = await response.readBody(maxBytes);
      hold.cover(body.length);
      budget.noteBody(body.length);
      return body;
    },
    discard: () => response.discard(),
  };
}

/** The Content-Length of an uncompressed body; a compressed one's decoded size is not known. */
function announcedLength(headers: Record<string, string>): number | undefined {
  const encoding = headers['content-encoding'];
  if (encoding !== undefined && encoding !== '' && encoding !== 'identity') return undefined;
  const raw = headers['content-length'];
  if (raw === undefined || !/^\d+$/.test(raw)) return undefined;
  return Number(raw);
}
