/** Something a test starts and must close: a service, a site, a browser. */
interface Closable {
  close(): Promise<unknown>;
}

/**
 * Starts two parts at once; when one fails, closes the other once it has started, then throws
 * the failure. With a plain Promise.all a browser launched beside a service that failed to start
 * would stay open, and keep the test file's process alive long after its failure was reported.
 */
export async function startedTogether<First extends Closable, Second extends Closable>(
  first: Promise<First>,
  second: Promise<Second>,
): Promise<[First, Second]> {
  const [one, two] = await Promise.allSettled([first, second]);
  if (one.status === 'fulfilled' && two.status === 'fulfilled') return [one.value, two.value];
  const started = [one, two].flatMap((part) => (part.status === 'fulfilled' ? [part.value] : []));
  await Promise.allSettled(started.map((part) => part.close()));
  throw one.status === 'rejected' ? one.reason : (two as PromiseRejectedResult).reason;
}
