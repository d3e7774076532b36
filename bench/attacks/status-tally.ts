/** How an attack's requests were answered: a count per status code, `timeout` and `error`. */
export class StatusTally {
  private readonly counts = new Map<string, number>();

  add(status: number | string): void {
    const key = String(status);
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  /** `200 x3, 401 x4497, timeout x1`, or `none`. */
  toString(): string {
    const entries = [...this.counts].sort(([a], [b]) => a.localeCompare(b));
    return entries.length === 0 ? 'none' : entries.map(([status, count]) => `${status} x${count}`).join(', ');
  }
}
