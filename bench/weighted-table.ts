/** Items drawn by weight: a cumulative table and a binary search per draw. */
export class WeightedTable<T> {
  private readonly cumulative: Float64Array;
  private readonly total: number;

  constructor(
    readonly items: readonly T[],
    weights: readonly number[],
  ) {
    if (items.length === 0 || items.length !== weights.length)
      throw new Error('weights do not fit the items');
    this.cumulative = new Float64Array(items.length);
    let sum = 0;
    weights.forEach((weight, index) => {
      sum += weight;
      this.cumulative[index] = sum;
    });
    this.total = sum;
  }

  /** The item at `u` (0 <= u < 1) of the cumulative weights. */
  pick(u: number): T {
    const target = u * this.total;
    let low = 0;
    let high = this.cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.cumulative[middle]! <= target) low = middle + 1;
      else high = middle;
    }
    return this.items[low]!;
  }
}

/** Items weighted by Zipf's law: the item of rank r (from 1) has weight 1 / r^exponent. */
export function zipfTable<T>(items: readonly T[], exponent = 1.0): WeightedTable<T> {
  return new WeightedTable(
    items,
    items.map((_, index) => 1 / Math.pow(index + 1, exponent)),
  );
}

/** A table of [item, weight] pairs. */
export function pairTable<T>(pairs: readonly (readonly [T, number])[]): WeightedTable<T> {
  return new WeightedTable(
    pairs.map(([item]) => item),
    pairs.map(([, weight]) => weight),
  );
}
