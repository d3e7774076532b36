import {
  type InstantCrawlerSetting,
  validateCrawlSetting,
  checkSearchServiceConfig,
  type SearchServiceConfig,
} from '../../domain/schemas.js';
import type { FieldError } from '../../domain/index.js';
import { type FacetPreview, facetPreviewOf } from './facet-preview.js';
import { type UrlVerdict, urlVerdicts } from './url-verdicts.js';

/**
 * The jobs of the tenant work threads: everything the API does whose cost a tenant's input
 * controls, compiling and matching its patterns (docs/security.md, Tenant work off the API thread).
 * Each checks its input as the management layer did before, with the same field errors.
 */
export const TENANT_JOBS = {
  /**
   * A crawl setting's field errors, of its schema and of the rules the schema cannot express, as
   * the tenant sent it; with none, what its scope says of each test URL.
   */
  crawlSetting(input: { setting: unknown; prefix: string; testUrls: readonly string[] }): {
    errors: FieldError[];
    verdicts: UrlVerdict[];
  } {
    const errors = validateCrawlSetting(input.setting, input.prefix);
    const verdicts =
      errors.length === 0 && input.testUrls.length > 0
        ? urlVerdicts(input.setting as InstantCrawlerSetting, input.testUrls)
        : [];
    return { errors, verdicts };
  },

  /** A search service configuration's field errors. */
  searchConfig(input: { config: SearchServiceConfig; prefix: string }): FieldError[] {
    return checkSearchServiceConfig(input.config, input.prefix);
  },

  /** A configuration's field errors, or with none what its rules make of the indexed pages. */
  facetPreview(input: {
    config: SearchServiceConfig;
    prefix: string;
    urls: readonly string[];
    total: number;
  }): { errors: FieldError[]; preview: FacetPreview | undefined } {
    const errors = checkSearchServiceConfig(input.config, input.prefix);
    return {
      errors,
      preview: errors.length === 0 ? facetPreviewOf(input.urls, input.total, input.config) : undefined,
    };
  },
};

export type TenantJobs = typeof TENANT_JOBS;
export type TenantJobName = keyof TenantJobs;
export type TenantJobInput<Name extends TenantJobName> = Parameters<TenantJobs[Name]>[0];
export type TenantJobOutput<Name extends TenantJobName> = ReturnType<TenantJobs[Name]>;

/** What a tenant work thread is sent. */
export interface TenantJobRequest<Name extends TenantJobName = TenantJobName> {
  job: Name;
  input: TenantJobInput<Name>;
}

/** What it answers (a job that throws answers a failure: tenant-work-thread.ts). */
export interface TenantJobReply<Name extends TenantJobName = TenantJobName> {
  ok: true;
  output: TenantJobOutput<Name>;
}
