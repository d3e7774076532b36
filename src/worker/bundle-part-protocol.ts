/**
 * The previous run's bundle kept in object storage (docs/reference/crawl-rules.md, Conditional
 * re-crawls): the run thread asks the service for one page's member at a time, and the service
 * reads it with one ranged GET through its artifact store.
 *
 * Asked of the service rather than read by a client of the thread's own: the service's one S3
 * client (its connections, its credentials from the service's environment or the SDK's other
 * sources) serves every run, and no run thread loads the AWS SDK into the heap its
 * KUMO_RUN_HEAP_MB bounds. A member is a page's gzip (kilobytes), copied once over the port.
 */
export interface BundlePartRequest {
  type: 'bundle-part-read';
  id: number;
  offset: number;
  bytes: number;
}

export interface BundlePartAnswer {
  type: 'bundle-part';
  id: number;
  /** The bytes, or null when they cannot be read (missing object, range, or a failed request). */
  data: Uint8Array | null;
}
