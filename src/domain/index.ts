/**
 * The domain vocabulary every layer shares: run states and messages, crawl settings, field errors,
 * URL patterns, doctypes and template blocks. (docs/design/layers.md, Surfaces)
 */
export { allowedValuesReason } from './allowed-values.js';
export {
  ARTIFACT_FILE_NAMES,
  ArtifactFile,
  type ArtifactFileName,
  isArtifactFileName,
} from './artifact-files.js';
export { unknownFieldReason } from './closest-name.js';
export {
  type CrawlSettings,
  DEFAULT_CONCURRENCY,
  DEFAULT_VIEWPORT,
  executionTimeoutSecondsOf,
  rendersPages,
  resolveCrawlSettings,
  takesLinksFromRenderedDom,
  takesScreenshots,
} from './crawl-settings.js';
export { type ElementView, matchesSelector, parseSelectorList, type SelectorList } from './css-selector.js';
export { type Doctype, DOCTYPES } from './doctype.js';
export { bundleFeed, instantRunFeed, LEGACY_FEED, settingFeed, settingOfFeed } from './feed-keys.js';
export { type FieldError, InvalidInputError } from './field-error.js';
export { httpUrlProblem } from './http-url.js';
export { REDACTED, redactSetting } from './redact-setting.js';
export {
  joinMessages,
  messageOf,
  onePart,
  partsFromJson,
  RUN_MESSAGE_CODES,
  type RunMessage,
  type RunMessagePart,
  type TextedPart,
} from './run-message.js';
export {
  endReasonOfState,
  isActiveState,
  isRunEndReason,
  RUN_END_REASONS,
  type RunEndReason,
  RunState,
  type RunStateId,
  stateName,
} from './run-states.js';
export { type FieldName, FIELDS } from './search-fields.js';
export type { SynonymsConfig } from './synonyms-config.js';
export {
  blockHashesOf,
  blockHashOf,
  blockHashOfRange,
  countedBlocksOf,
  isTemplateCount,
  MAX_BLOCK_CHARS,
  pageHostOf,
  TEMPLATE_MIN_PAGES,
  templateThreshold,
  titlePartsOf,
} from './template-block-hash.js';
export { TemplateLineLengths, templateLineLengths, type TemplatePage } from './template-line-lengths.js';
export { urlErrorKind } from './url-error-kind.js';
export { compileFieldPattern, UnsupportedUrlPatternError } from './url-pattern-problem.js';
export { compileUrlPattern, type UrlPattern } from './url-pattern.js';
