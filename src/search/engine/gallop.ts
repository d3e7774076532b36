/**
 * The first index in `[from, end)` of the ascending `values` whose value is >= `target` (or
 * `end`): exponential steps from `from`, then binary search. Lists are walked in ascending order,
 * so each search starts where the last ended and costs the log of the distance moved.
 */
export function gallopTo(values: Uint32Array, from: number, end: number, target: number): number {
  let low = from;
  if (low >= end || values[low]! >= target) return low;
  let step = 1;
  let high = low + 1;
  while (high < end && values[high]! < target) {
    low = high;
    step *= 2;
    high = low + step;
  }
  high = Math.min(high, end);
  while (low + 1 < high) {
    const middle = (low + high) >>> 1;
    if (values[middle]! < target) low = middle;
    else high = middle;
  }
  return high;
}
