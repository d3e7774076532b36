/**
 * Document kinds the crawl_file flags control (docs/reference/crawl-rules.md, File types): judged
 * by extension before a fetch and by Content-Type after it.
 */
export type DocumentKind = 'html' | 'pdf' | 'office' | 'other';

const OFFICE_EXTENSIONS = new Set(['doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx']);

const OFFICE_TYPES = new Set([
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.ms-powerpoint',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
]);

/** Extension of the last path segment, lower-cased, without the dot. */
export function extensionOf(pathname: string): string {
  const lastSegment = pathname.slice(pathname.lastIndexOf('/') + 1);
  const dot = lastSegment.lastIndexOf('.');
  return dot < 0 ? '' : lastSegment.slice(dot + 1).toLowerCase();
}

export function kindByExtension(pathname: string): DocumentKind | undefined {
  const extension = extensionOf(pathname);
  if (extension === 'pdf') return 'pdf';
  if (OFFICE_EXTENSIONS.has(extension)) return 'office';
  return undefined;
}

/** The media type of a Content-Type header, lower-cased, without parameters. */
export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

export function kindByContentType(contentType: string | undefined): DocumentKind {
  const mediaType = mediaTypeOf(contentType);
  if (mediaType === 'text/html' || mediaType === 'application/xhtml+xml') return 'html';
  if (mediaType === 'application/pdf') return 'pdf';
  if (OFFICE_TYPES.has(mediaType)) return 'office';
  return 'other';
}

const EXTENSION_BY_TYPE: Record<string, string> = {
  'text/html': 'html',
  'application/xhtml+xml': 'xhtml',
  'application/pdf': 'pdf',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.ms-powerpoint': 'ppt',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  'text/plain': 'txt',
  'application/json': 'json',
  'application/xml': 'xml',
  'text/xml': 'xml',
};

/** File extension of `source.<ext>` in the bundle. */
export function sourceExtensionOf(contentType: string | undefined, pathname: string): string {
  const byType = EXTENSION_BY_TYPE[mediaTypeOf(contentType)];
  if (byType) return byType;
  const byName = extensionOf(pathname);
  return /^[a-z0-9]{1,8}$/.test(byName) ? byName : 'bin';
}
