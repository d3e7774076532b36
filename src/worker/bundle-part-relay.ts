import type { MemberReader } from '../crawler/index.js';
import type { BundlePartAnswer, BundlePartRequest } from './bundle-part-protocol.js';

/**
 * The service's side of bundle-part-protocol.ts: reads the part a run thread asks for with
 * `read` (one ranged GET of the previous run's bundle object) and answers it; null when there is
 * no reader, nothing to read, or the read fails, so the thread fetches that page whole.
 */
export function relayBundlePart(
  request: BundlePartRequest,
  read: MemberReader['read'] | undefined,
  answer: (answer: BundlePartAnswer) => void,
): void {
  const reading = read === undefined ? Promise.resolve(undefined) : read(request.offset, request.bytes);
  void reading
    .catch(() => undefined)
    .then((data) => answer({ type: 'bundle-part', id: request.id, data: data ?? null }));
}
