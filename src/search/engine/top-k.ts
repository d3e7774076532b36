/**
 * Indices `0 .. count-1` of the `k` best items, best first, where `compare(a, b) < 0` means a
 * ranks before b. A bounded heap holds the k best seen so far, so a page of 10 out of 50,000 hits
 * costs about n comparisons instead of a full sort. `compare` must be a total order (break ties).
 */
export function topK(count: number, k: number, compare: (a: number, b: number) => number): number[] {
  if (k <= 0 || count === 0) return [];
  if (k >= count) {
    const all = Array.from({ length: count }, (_, index) => index);
    return all.sort(compare);
  }
  // Max-heap by rank: the root is the worst of the k kept, the first to be pushed out.
  const heap: number[] = [];
  const worse = (a: number, b: number) => compare(a, b) > 0;
  const siftUp = (start: number) => {
    let child = start;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (!worse(heap[child]!, heap[parent]!)) break;
      [heap[child], heap[parent]] = [heap[parent]!, heap[child]!];
      child = parent;
    }
  };
  const siftDown = () => {
    let parent = 0;
    for (;;) {
      const left = parent * 2 + 1;
      const right = left + 1;
      let largest = parent;
      if (left < heap.length && worse(heap[left]!, heap[largest]!)) largest = left;
      if (right < heap.length && worse(heap[right]!, heap[largest]!)) largest = right;
      if (largest === parent) return;
      [heap[parent], heap[largest]] = [heap[largest]!, heap[parent]!];
      parent = largest;
    }
  };
  for (let index = 0; index < count; index += 1) {
    if (heap.length < k) {
      heap.push(index);
      siftUp(heap.length - 1);
    } else if (compare(index, heap[0]!) < 0) {
      heap[0] = index;
      siftDown();
    }
  }
  return heap.sort(compare);
}

/**
 * topK by `scores` descending, ties by index ascending (the order of `topK(count, k, (a, b) =>
 * scores[b] - scores[a] || a - b)`, which it returns), without a comparator call per step: the
 * engine's reranking takes the best hundred of every query's hits this way.
 */
export function topByScore(scores: ArrayLike<number>, count: number, k: number): number[] {
  if (k <= 0 || count === 0) return [];
  const size = Math.min(k, count);
  // Max-heap by rank: the root is the worst of those kept.
  const heap = new Int32Array(size);
  let length = 0;
  for (let index = 0; index < count; index += 1) {
    const score = scores[index]!;
    if (length < size) {
      // Each later index ranks after an equal score, so only a lower score is worse.
      let child = length;
      length += 1;
      while (child > 0) {
        const parent = (child - 1) >> 1;
        const above = heap[parent]!;
        if (!ranksAfter(score, index, scores[above]!, above)) break;
        heap[child] = above;
        child = parent;
      }
      heap[child] = index;
    } else if (score > scores[heap[0]!]!) {
      siftDownFromRoot(heap, scores, index, score);
    }
  }
  return Array.from(heap).sort((a, b) => scores[b]! - scores[a]! || a - b);
}

/** Whether the item (score, index) ranks after (otherScore, other). */
function ranksAfter(score: number, index: number, otherScore: number, other: number): boolean {
  return score < otherScore || (score === otherScore && index > other);
}

/** Puts `index` at the root of the full heap and moves it down to its place. */
function siftDownFromRoot(heap: Int32Array, scores: ArrayLike<number>, index: number, score: number): void {
  const length = heap.length;
  let parent = 0;
  for (;;) {
    const left = parent * 2 + 1;
    if (left >= length) break;
    const right = left + 1;
    let worst = heap[left]!;
    let worstAt = left;
    if (right < length) {
      const candidate = heap[right]!;
      if (ranksAfter(scores[candidate]!, candidate, scores[worst]!, worst)) {
        worst = candidate;
        worstAt = right;
      }
    }
    if (!ranksAfter(scores[worst]!, worst, score, index)) break;
    heap[parent] = worst;
    parent = worstAt;
  }
  heap[parent] = index;
}
