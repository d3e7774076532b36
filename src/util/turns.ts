/**
 * Work done one piece at a time per key (a search service, say): each piece starts once the one
 * before it for the same key has ended, failed or not, while pieces of other keys run alongside.
 */
export class Turns<Key> {
  private readonly last = new Map<Key, Promise<unknown>>();

  run<T>(key: Key, work: () => Promise<T>): Promise<T> {
    const next = (this.last.get(key) ?? Promise.resolve()).catch(() => undefined).then(work);
    this.last.set(key, next);
    // The map keeps only pieces still waiting or running.
    void next
      .finally(() => {
        if (this.last.get(key) === next) this.last.delete(key);
      })
      .catch(() => undefined);
    return next;
  }

  /** Settles once every piece started so far has ended, failed or not. */
  async idle(): Promise<void> {
    await Promise.all([...this.last.values()].map((piece) => piece.catch(() => undefined)));
  }
}
