/**
 * One URL of a finished run in a dialog (docs/console.md, Run page): its answer, when it was
 * fetched, where it was redirected, why it failed, the page that linked to it and the links found
 * on it, as the run's report records them.
 */
import { useEffect, useRef } from 'preact/hooks';
import { ProblemMessage } from '../components/problem.js';
import { UrlText } from '../components/url-text.js';
import { bytes, count, dateTime } from '../format.js';
import { useResource } from '../use-resource.js';
import { runsTexts } from './runs-texts.js';
import type { UrlRow } from './run-url-row.js';

interface UrlDetail extends UrlRow {
  referrer: string | null;
  links_found: number | null;
  links: { url: string; anchor_text: string }[];
}

export function UrlDetailDialog(props: { runPath: string; rowId: number | undefined; onClose(): void }) {
  const t = runsTexts();
  const dialog = useRef<HTMLDialogElement>(null);
  const read = useResource<{ url: UrlDetail }>(
    props.rowId === undefined ? null : `${props.runPath}/urls/${props.rowId}`,
  );
  useEffect(() => {
    const element = dialog.current;
    if (element === null) return;
    if (props.rowId !== undefined && !element.open) element.showModal();
    if (props.rowId === undefined && element.open) element.close();
  }, [props.rowId]);
  const url = props.rowId === undefined ? undefined : read.data?.url;
  return (
    <dialog
      ref={dialog}
      class="dialog dialog-wide"
      aria-label={url === undefined ? t.urlDetail : t.urlDetailOf(url.url)}
      onClose={props.onClose}
    >
      <h2>{t.urlDetail}</h2>
      <ProblemMessage problem={read.problem} />
      {url !== undefined && <UrlFacts url={url} />}
      <div class="dialog-actions">
        <button type="button" class="button" onClick={props.onClose}>
          {t.close}
        </button>
      </div>
    </dialog>
  );
}

function UrlFacts(props: { url: UrlDetail }) {
  const t = runsTexts();
  const { url } = props;
  return (
    <>
      <dl class="facts url-facts">
        <dt>{t.url}</dt>
        <dd>
          <UrlText url={url.url} />
        </dd>
        <dt>{t.status}</dt>
        <dd>
          <span class={url.ok ? 'badge badge-ok' : 'badge badge-failed'}>
            {url.http_status ?? t.noAnswer}
          </span>{' '}
          {url.ok ? t.okOnly : t.failedOnly}
        </dd>
        <dt>{t.fetchedAt}</dt>
        <dd class="nowrap">{dateTime(url.crawl_datetime, { seconds: true })}</dd>
        <dt>{t.redirectedTo}</dt>
        <dd>{url.last_url === null ? t.notRedirected : <UrlText url={url.last_url} />}</dd>
        {(url.error_kind !== null || url.fetch_error !== null) && (
          <>
            <dt>{t.error}</dt>
            <dd>{[url.error_kind, url.fetch_error].filter((part) => part !== null).join(' · ')}</dd>
          </>
        )}
        <dt>{t.referrer}</dt>
        <dd>{url.referrer === null ? t.noReferrer : <UrlText url={url.referrer} />}</dd>
        <dt>{t.contentType}</dt>
        <dd>{url.content_type ?? '—'}</dd>
        <dt>{t.size}</dt>
        <dd>{url.content_length === null ? '—' : bytes(url.content_length)}</dd>
        <dt>{t.depth}</dt>
        <dd>{url.depth ?? '—'}</dd>
        <dt>{t.linksFound}</dt>
        <dd>{url.links_found === null ? t.linksNotCollected : count(url.links_found)}</dd>
      </dl>
      {url.links.length > 0 && (
        <ul class="url-links" aria-label={t.linksFound}>
          {url.links.map((link, index) => (
            <li key={`${index}-${link.url}`}>
              <UrlText url={link.url} />
              {link.anchor_text !== '' && <span class="hint"> · {link.anchor_text}</span>}
            </li>
          ))}
        </ul>
      )}
      {url.links_found !== null && url.links_found > url.links.length && (
        <p class="hint">{t.moreLinks(count(url.links.length), count(url.links_found))}</p>
      )}
    </>
  );
}
