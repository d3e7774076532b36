/** Why a call of the site search API failed, as a UI needs to tell it to a visitor. */
export type SiteSearchErrorKind =
  /** 403: the page's origin is not on the search service's allowed list. */
  | 'origin'
  /** 404: no such search service. */
  | 'not_found'
  /** 400: a parameter was refused; `fields` names each. */
  | 'invalid'
  /** 429 or 503: try again later. */
  | 'unavailable'
  /** Any other answer that was not a success. */
  | 'server'
  /** No answer: the network, a blocked request, or a JSONP script that did not load. */
  | 'network'
  /** The caller aborted the call (a newer keystroke superseded it). */
  | 'aborted';

export interface SiteSearchFieldError {
  field: string;
  reason: string;
}

export class SiteSearchError extends Error {
  override name = 'SiteSearchError';
  constructor(
    readonly kind: SiteSearchErrorKind,
    message: string,
    /** HTTP status; 0 when no answer could be read. */
    readonly status = 0,
    readonly fields: readonly SiteSearchFieldError[] = [],
  ) {
    super(message);
  }
}

export function kindOfStatus(status: number): SiteSearchErrorKind {
  if (status === 403) return 'origin';
  if (status === 404) return 'not_found';
  if (status === 400) return 'invalid';
  if (status === 429 || status === 503) return 'unavailable';
  return 'server';
}
