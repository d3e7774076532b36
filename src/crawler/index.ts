/**
 * The vocabulary of a crawl that other parts share: URL identity and scope, fetch results and
 * failures, host pacing and bundle members. (docs/design/layers.md, Surfaces)
 */
export { localMemberReader, type MemberReader } from './bundle-members.js';
export { credentialDestinationChange } from './credential-destinations.js';
export { FetchFailure, type FetchFailureKind } from './fetch-errors.js';
export { type HostPace, HostPacer, type HostPermit } from './host-pacer.js';
export { errorCodesOf, networkKindOf } from './network-errors.js';
export { type FetchLimits, fetchLimitsOf, type PageFetchResult } from './page-fetch.js';
export { CrawlScope, type OutOfScopeReason } from './scope.js';
export { parseCrawlUrl, seedUrlOf } from './url-identity.js';
