/** A counting semaphore: at most `permits` holders at once, the others wait in arrival order. */
export class Semaphore {
  private readonly waiting: (() => void)[] = [];
  private held = 0;

  constructor(private readonly permits: number) {}

  get inUse(): number {
    return this.held;
  }

  async acquire(): Promise<void> {
    if (this.held < this.permits) {
      this.held += 1;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** Hands the permit to the next waiter, if any, without letting a newcomer overtake it. */
  release(): void {
    const next = this.waiting.shift();
    if (next !== undefined) next();
    else this.held -= 1;
  }
}
