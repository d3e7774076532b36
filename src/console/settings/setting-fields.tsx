/**
 * The sections of the setting editor: every member of the crawler setting
 * (docs/reference/crawl-settings.md), grouped as a site owner thinks of them, each with the
 * service's reason when it is wrong.
 */
import type { ComponentChild } from 'preact';
import type { FieldProblem } from '../api.js';
import { Section } from '../components/page.js';
import { editorTexts } from './editor-texts.js';
import { type Bound, Checkbox, Choice, LinesInput, TextInput } from './form-controls.js';
import { readsSitemaps, type SettingForm } from './setting-form.js';
import { errorText } from './use-draft-check.js';
import { textLines } from '../text-lines.js';

type Bind = <K extends keyof SettingForm>(key: K) => Bound<SettingForm[K]>;

export function SettingFields(props: {
  bind: Bind;
  errors: readonly FieldProblem[];
  services: readonly { id: number; name: string }[];
  patternTester: ComponentChild;
  schedule: ComponentChild;
  /** Viewers: every control disabled but the pattern tester's. */
  readOnly: boolean;
  /** The instant crawl form: the crawler setting alone, no name or search service. */
  instant?: boolean;
}) {
  const t = editorTexts();
  const { bind, errors } = props;
  const form = { sitemaps: bind('sitemaps').value, serviceId: bind('serviceId').value };
  const error = (field: string, items?: readonly string[]) =>
    errorText(errors, field, { items, item: t.item });
  const only = (field: string) => errorText(errors, field, { exact: true });
  const waitType = bind('waitType').value;
  const waitOptions = [
    { value: '0', label: t.waitPlain },
    { value: '2', label: t.waitRendered },
    ...(waitType === '1' || waitType === '3' ? [{ value: waitType, label: t.waitReserved(waitType) }] : []),
  ];
  return (
    <>
      <fieldset class="plain" disabled={props.readOnly}>
        {!props.instant && (
          <Section title={t.general}>
            <TextInput
              id="setting-name"
              label={t.name}
              hint={t.nameHint}
              error={error('name')}
              bound={bind('name')}
            />
            <Choice
              id="setting-search-service"
              label={t.searchService}
              hint={t.searchServiceHint}
              error={error('service_id')}
              bound={bind('serviceId')}
              options={[
                { value: '', label: t.crawlOnly },
                ...props.services.map((service) => ({ value: String(service.id), label: service.name })),
              ]}
            />
          </Section>
        )}

        <Section title={t.startAndScope}>
          <LinesInput
            id="setting-seeds"
            label={t.seeds}
            hint={t.seedsHint}
            error={error('setting.seed_urls', textLines(bind('seeds').value))}
            bound={bind('seeds')}
          />
          <div class="form-columns">
            <LinesInput
              id="setting-allow"
              label={t.allow}
              hint={t.allowHint}
              error={error('setting.allow_urls_patterns', textLines(bind('allow').value))}
              bound={bind('allow')}
            />
            <LinesInput
              id="setting-deny"
              label={t.deny}
              hint={t.denyHint}
              error={error('setting.deny_urls_patterns', textLines(bind('deny').value))}
              bound={bind('deny')}
            />
          </div>
          <div class="form-grid">
            <TextInput
              id="setting-depth"
              label={t.depthLimit}
              hint={t.depthLimitHint}
              inputMode="numeric"
              error={error('setting.depth_limit')}
              bound={bind('depthLimit')}
            />
            <TextInput
              id="setting-documents"
              label={t.documentsLimit}
              hint={t.documentsLimitHint}
              inputMode="numeric"
              error={error('setting.documents_limit')}
              bound={bind('documentsLimit')}
            />
          </div>
          <Checkbox label={t.includePdf} bound={bind('includePdf')} error={error('setting.crawl_file.pdf')} />
          <Checkbox
            label={t.includeOffice}
            bound={bind('includeOffice')}
            error={error('setting.crawl_file.ms_office')}
          />
          <Checkbox label={t.keepQuery} bound={bind('keepQuery')} />
          <Checkbox label={t.keepFragment} bound={bind('keepFragment')} />
        </Section>
      </fieldset>
      {props.patternTester}
      <fieldset class="plain" disabled={props.readOnly}>
        {props.schedule}

        <Section title={t.fetching}>
          <Choice
            id="setting-wait-type"
            label={t.waitType}
            error={error('setting.wait_type')}
            bound={bind('waitType')}
            options={waitOptions}
          />
          <Checkbox label={t.robotsTxt} bound={bind('robotsTxt')} error={error('setting.robots_txt')} />
          <Checkbox
            label={t.sitemaps}
            hint={t.sitemapsHint}
            bound={{ value: readsSitemaps(form, props.instant ?? false), set: bind('sitemaps').set }}
            error={error('setting.sitemaps')}
          />
          <LinesInput
            id="setting-sitemap-urls"
            label={t.sitemapUrls}
            hint={t.sitemapUrlsHint}
            error={error('setting.sitemap_urls', textLines(bind('sitemapUrls').value))}
            bound={bind('sitemapUrls')}
            rows={2}
          />
          <TextInput
            id="setting-sitemap-lastmod-skip-days"
            label={t.sitemapLastmodSkipDays}
            hint={t.sitemapLastmodSkipDaysHint}
            inputMode="numeric"
            error={error('setting.sitemap_lastmod_skip_days')}
            bound={bind('sitemapLastmodSkipDays')}
          />
          <div class="form-grid">
            <TextInput
              id="setting-concurrency"
              label={t.concurrency}
              hint={t.concurrencyHint}
              inputMode="numeric"
              error={error('setting.base_concurrent_requests')}
              bound={bind('concurrency')}
            />
            <TextInput
              id="setting-delay"
              label={t.downloadDelay}
              hint={t.downloadDelayHint}
              inputMode="decimal"
              error={error('setting.download_delay')}
              bound={bind('downloadDelay')}
            />
            <TextInput
              id="setting-timeout"
              label={t.executionTimeout}
              hint={t.executionTimeoutHint}
              inputMode="numeric"
              error={error('setting.execution_timeout')}
              bound={bind('executionTimeout')}
            />
          </div>
          <TextInput
            id="setting-user-agent"
            label={t.userAgent}
            hint={t.userAgentHint}
            error={error('setting.user_agent')}
            bound={bind('userAgent')}
          />
          <TextInput
            id="setting-language"
            label={t.language}
            hint={t.languageHint}
            error={error('setting.language')}
            bound={bind('language')}
          />
          <Checkbox
            label={t.credentials}
            bound={bind('useCredentials')}
            error={only('setting.authorizations')}
          />
          {bind('useCredentials').value && (
            <div class="form-grid">
              <TextInput
                id="setting-credential-pattern"
                label={t.credentialPattern}
                hint={t.credentialPatternHint}
                error={error('setting.authorizations[0].url_pattern')}
                bound={bind('credentialPattern')}
              />
              <TextInput
                id="setting-credential-user"
                label={t.credentialUser}
                error={error('setting.authorizations[0].user')}
                bound={bind('credentialUser')}
              />
              <TextInput
                id="setting-credential-password"
                label={t.credentialPassword}
                hint={t.credentialPasswordHint}
                type="password"
                autoComplete="new-password"
                error={error('setting.authorizations[0].password')}
                bound={bind('credentialPassword')}
              />
            </div>
          )}
        </Section>

        <Section title={t.results}>
          <Checkbox label={t.collectPages} bound={bind('collectPages')} />
          <Checkbox label={t.collectUrlList} bound={bind('collectUrlList')} />
          <Checkbox label={t.collectLinks} bound={bind('collectLinks')} />
          <Checkbox label={t.screenshots} bound={bind('screenshots')} error={only('setting.screenshot')} />
          {bind('screenshots').value && (
            <>
              <div class="form-grid">
                <TextInput
                  id="setting-viewport-width"
                  label={t.viewportWidth}
                  hint={t.viewportWidthHint}
                  inputMode="numeric"
                  error={error('setting.screenshot.viewport_width')}
                  bound={bind('viewportWidth')}
                />
                <TextInput
                  id="setting-viewport-height"
                  label={t.viewportHeight}
                  hint={t.viewportHeightHint}
                  inputMode="numeric"
                  error={error('setting.screenshot.viewport_height')}
                  bound={bind('viewportHeight')}
                />
              </div>
              <Checkbox label={t.fullPage} bound={bind('fullPage')} />
            </>
          )}
          <TextInput
            id="setting-timezone"
            label={t.timezone}
            hint={t.timezoneHint}
            error={error('setting.timezone')}
            bound={bind('timezone')}
          />
        </Section>
      </fieldset>
    </>
  );
}
