/** Formats besides HTML whose text the search index takes, named by file extension. */
export type ExtractableKind = 'pdf' | 'doc' | 'docx' | 'xls' | 'xlsx' | 'ppt' | 'pptx';
