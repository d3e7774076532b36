/**
 * Whose webhook deliveries the dispatcher sends next (docs/reference/webhooks.md, Delivery and
 * retries): each contract has at most `perContract` attempts in flight, and among the contracts
 * with due deliveries the one served longest ago (or never) goes first. A contract whose receiver
 * never answers, or that queued a large backlog, so holds only its own share of the attempts.
 */
export class ContractTurns {
  private readonly inFlight = new Map<number, number>();
  /** The turn number of each contract's latest attempt; contracts not here have not had one. */
  private readonly latestTurn = new Map<number, number>();
  private turn = 0;

  constructor(private readonly perContract: number) {}

  /** The contracts holding their whole share of attempts: none of theirs starts now. */
  full(): number[] {
    return [...this.inFlight].filter(([, count]) => count >= this.perContract).map(([contract]) => contract);
  }

  /** `due` in turn order: contracts never served, then those served longest ago; then by due time. */
  inTurn<T extends { contractId: number; dueMicros: number }>(due: readonly T[]): T[] {
    const turnOf = (contractId: number) => this.latestTurn.get(contractId) ?? 0;
    return [...due].sort((a, b) => turnOf(a.contractId) - turnOf(b.contractId) || a.dueMicros - b.dueMicros);
  }

  started(contractId: number): void {
    this.inFlight.set(contractId, (this.inFlight.get(contractId) ?? 0) + 1);
    this.turn += 1;
    this.latestTurn.set(contractId, this.turn);
  }

  ended(contractId: number): void {
    const count = (this.inFlight.get(contractId) ?? 1) - 1;
    if (count > 0) this.inFlight.set(contractId, count);
    else this.inFlight.delete(contractId);
  }
}
