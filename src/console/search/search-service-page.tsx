/**
 * One search service (docs/console.md, Site search): its index, a "try it" panel running the
 * embeddable widget against it, the snippet to paste into a site, and its configuration with a
 * live preview of the facets the rules give the indexed pages.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, type ApiProblem, type FieldProblem, groupPath, problemOf } from '../api.js';
import { Page, Section } from '../components/page.js';
import { Loading, ProblemMessage } from '../components/problem.js';
import { bytes, count, dateTime } from '../format.js';
import { href } from '../router.js';
import { useCan, useSession } from '../session.js';
import { groupHref } from '../shell/route-types.js';
import { useResource } from '../use-resource.js';
import { type ConfigForm, configOf, formOf, type SearchServiceConfig } from './config-form.js';
import { ConfigEditor } from './config-editor.js';
import { FacetPreviewPanel } from './facet-preview.js';
import { searchTexts } from './search-texts.js';
import { useFacetPreview } from './use-facet-preview.js';

interface Service {
  id: number;
  name: string;
  config: SearchServiceConfig;
}

interface Status {
  documents: number;
  bytes: number;
  updated_datetime: string | null;
  last_feed: { run_id: number; end_datetime: string | null } | null;
}

export function SearchServicePage(props: { contractId: number; groupId: number; serviceId: number }) {
  const t = searchTexts();
  const { contractId, groupId, serviceId } = props;
  const path = `${groupPath(contractId, groupId)}/search_services/${serviceId}`;
  const service = useResource<{ search_service: Service }>(path);
  const status = useResource<Status>(`${path}/status`);
  const canEdit = useCan('editor');
  const searchUrl = useSession().search_url;
  const [form, setForm] = useState<ConfigForm | undefined>(undefined);
  const [saveErrors, setSaveErrors] = useState<readonly FieldProblem[] | undefined>(undefined);
  const [saving, setSaving] = useState(false);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const [problem, setProblem] = useState<ApiProblem | undefined>(undefined);
  const stored = service.data?.search_service;
  useEffect(() => {
    if (stored !== undefined) setForm(formOf(stored.config));
  }, [stored]);
  const draft = form === undefined || stored === undefined ? undefined : configOf(form, stored.config);
  const preview = useFacetPreview(`${path}/facet_preview`, draft);
  const errors = saveErrors ?? preview.errors;

  const save = async (event: Event) => {
    event.preventDefault();
    if (draft === undefined) return;
    setSaving(true);
    setProblem(undefined);
    try {
      const answer = await api.put<{ search_service: Service }>(path, { config: draft });
      setForm(formOf(answer.search_service.config));
      setSaveErrors(undefined);
      setNotice(t.saved);
    } catch (error) {
      const failed = problemOf(error);
      if (failed.status === 400) setSaveErrors(failed.errors);
      else setProblem(failed);
    } finally {
      setSaving(false);
    }
  };

  if (stored === undefined || form === undefined) {
    return (
      <Page title={t.title}>
        <ProblemMessage problem={service.problem} />
        {service.problem === undefined && <Loading />}
      </Page>
    );
  }
  return (
    <Page
      title={t.serviceTitle(stored.name)}
      actions={
        <a class="button" href={href(groupHref(contractId, groupId, '/search'))}>
          {t.back}
        </a>
      }
    >
      <ProblemMessage problem={problem ?? status.problem} />
      <Section title={t.status}>
        {status.data === undefined ? (
          <Loading />
        ) : (
          <>
            <dl class="facts">
              <dt>{t.documents}</dt>
              <dd>{count(status.data.documents)}</dd>
              <dt>{t.size}</dt>
              <dd>{bytes(status.data.bytes)}</dd>
              <dt>{t.updated}</dt>
              <dd>{dateTime(status.data.updated_datetime)}</dd>
              <dt>{t.lastFeed}</dt>
              <dd>
                {status.data.last_feed === null ? (
                  t.noFeed
                ) : (
                  <>
                    <a href={href(groupHref(contractId, groupId, `/runs/${status.data.last_feed.run_id}`))}>
                      {t.feedRun(status.data.last_feed.run_id)}
                    </a>{' '}
                    · {dateTime(status.data.last_feed.end_datetime)}
                  </>
                )}
              </dd>
            </dl>
          </>
        )}
      </Section>
      {searchUrl === null ? (
        <Section title={t.tryIt}>
          <p class="hint" role="note">
            {t.searchElsewhere}
          </p>
        </Section>
      ) : (
        <SearchPanels
          searchUrl={searchUrl}
          servicePath={`${contractId}/${groupId}/${serviceId}`}
          name={stored.name}
        />
      )}
      <form onSubmit={(event) => void save(event)} noValidate>
        <h2 class="form-title">{t.configuration}</h2>
        {!canEdit && <p class="hint">{t.readOnly}</p>}
        {saveErrors !== undefined && saveErrors.length > 0 && (
          <div class="problem" role="alert">
            <p>{t.problems(saveErrors.length)}</p>
          </div>
        )}
        <ConfigEditor
          form={form}
          set={(next) => {
            setForm(next);
            setSaveErrors(undefined);
            setNotice(undefined);
          }}
          errors={errors}
          readOnly={!canEdit}
          afterRules={<FacetPreviewPanel preview={preview.preview} />}
        />
        {canEdit && (
          <div class="form-footer">
            <button type="submit" class="button button-primary" disabled={saving}>
              {saving ? t.saving : t.save}
            </button>
            {notice !== undefined && (
              <p class="notice" role="status">
                {notice}
              </p>
            )}
          </div>
        )}
      </form>
    </Page>
  );
}

/**
 * Try it and the snippet, at the address visitors reach search at: the API's own, or the search
 * nodes' when they are reached elsewhere (docs/operations.md, Roles).
 */
function SearchPanels(props: { searchUrl: string; servicePath: string; name: string }) {
  const t = searchTexts();
  const { searchUrl, servicePath } = props;
  const snippet =
    `<div id="kumo-search"></div>\n` +
    `<script src="${searchUrl}/widget/v1/kumo-search.js" data-service="${servicePath}" defer></script>`;
  return (
    <>
      <Section title={t.tryIt}>
        <p class="hint">{t.tryItHint}</p>
        {/* A sandbox without top navigation or popups (docs/security.md, The console's
            frames): a crawled page opened from a result stays in the frame and cannot move the
            console's tab. Scripts and forms run the widget; same-origin keeps its state in the
            frame's address and its calls to a service with allowed origins working. */}
        <iframe
          class="try-it"
          title={t.tryItFrame(props.name)}
          src={`${searchUrl}/search/${servicePath}`}
          sandbox="allow-scripts allow-forms allow-same-origin"
        />
      </Section>
      <Section title={t.snippet}>
        <p class="hint">{t.snippetHint}</p>
        <CopyBlock text={snippet} />
        <p class="hint">{t.hostedPage}</p>
        <CopyBlock text={`${searchUrl}/search/${servicePath}?q=`} />
      </Section>
    </>
  );
}

/** Text to paste, with a Copy button. */
function CopyBlock(props: { text: string }) {
  const t = searchTexts();
  const [copied, setCopied] = useState(false);
  return (
    <div class="copy-block">
      <pre>
        <code>{props.text}</code>
      </pre>
      <button
        type="button"
        class="button button-small"
        onClick={() =>
          void navigator.clipboard.writeText(props.text).then(
            () => setCopied(true),
            () => setCopied(false),
          )
        }
      >
        {copied ? t.copied : t.copy}
      </button>
    </div>
  );
}
