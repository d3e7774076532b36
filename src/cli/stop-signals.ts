/**
 * SIGINT and SIGTERM, listened to from before `kumo serve` says it listens until the process
 * ends. One listener for the whole time, never removed: between removing one listener and adding
 * the next, a signal would meet the default action and end the process without the stop (a
 * supervisor stopping the service the moment it printed its address did exactly that).
 */
export class StopSignals {
  private received = 0;
  private resolveFirst: (signal: NodeJS.Signals) => void = () => undefined;
  private again: ((signal: NodeJS.Signals) => void) | undefined;
  /** The first signal. */
  readonly first: Promise<NodeJS.Signals>;

  constructor() {
    this.first = new Promise((resolve) => (this.resolveFirst = resolve));
    process.on('SIGINT', this.handle);
    process.on('SIGTERM', this.handle);
  }

  /** What every signal after the first does. */
  onAgain(action: (signal: NodeJS.Signals) => void): void {
    this.again = action;
  }

  private readonly handle = (signal: NodeJS.Signals): void => {
    this.received += 1;
    if (this.received === 1) this.resolveFirst(signal);
    else this.again?.(signal);
  };
}
