/**
 * A service group's webhooks (docs/console.md, Webhooks): the list, each with its deliveries;
 * owners add one (URL and a signing secret they type or generate) and delete one after
 * confirming (docs/api.md, Roles).
 */
import { useState } from 'preact/hooks';
import { api, ApiProblem, groupPath, problemOf } from '../api.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { Field } from '../components/field.js';
import { Page, Section } from '../components/page.js';
import { Loading, ProblemMessage } from '../components/problem.js';
import { dateTime } from '../format.js';
import { useCan } from '../session.js';
import { useResource } from '../use-resource.js';
import { DeliveriesTable } from './deliveries-table.js';
import { webhooksTexts } from './webhooks-texts.js';

interface Webhook {
  id: number;
  url: string;
  created_datetime: string;
}

export function WebhooksPage(props: { contractId: number; groupId: number }) {
  const t = webhooksTexts();
  const base = `${groupPath(props.contractId, props.groupId)}/webhooks`;
  const webhooks = useResource<{ webhooks: Webhook[] }>(base);
  const isOwner = useCan('owner');
  const [open, setOpen] = useState<number | null>(null);
  const [removing, setRemoving] = useState<Webhook | undefined>(undefined);
  const [problem, setProblem] = useState<ApiProblem | undefined>(undefined);

  const remove = async (webhook: Webhook) => {
    setRemoving(undefined);
    try {
      await api.delete(`${base}/${webhook.id}`);
      webhooks.reload();
    } catch (error) {
      setProblem(problemOf(error));
    }
  };

  return (
    <Page title={t.title}>
      <p>{t.intro}</p>
      {!isOwner && <p class="hint">{t.ownersOnly}</p>}
      <ProblemMessage problem={problem ?? webhooks.problem} />
      {isOwner && <CreateWebhookForm base={base} onCreated={webhooks.reload} />}
      {webhooks.data === undefined ? (
        webhooks.problem === undefined && <Loading />
      ) : webhooks.data.webhooks.length === 0 ? (
        <div class="section">
          <p>{t.empty}</p>
        </div>
      ) : (
        webhooks.data.webhooks.map((webhook) => (
          <Section
            key={webhook.id}
            title={webhook.url}
            actions={
              <>
                <button
                  type="button"
                  class="button button-small"
                  aria-expanded={open === webhook.id ? 'true' : 'false'}
                  onClick={() => setOpen(open === webhook.id ? null : webhook.id)}
                >
                  {open === webhook.id ? t.hideDeliveries : t.showDeliveries(webhook.url)}
                </button>
                {isOwner && (
                  <button
                    type="button"
                    class="button button-small"
                    aria-label={`${t.remove}: ${webhook.url}`}
                    onClick={() => setRemoving(webhook)}
                  >
                    {t.remove}
                  </button>
                )}
              </>
            }
          >
            <p class="hint">
              {t.created}: {dateTime(webhook.created_datetime)}
            </p>
            {open === webhook.id && (
              <DeliveriesTable webhookPath={`${base}/${webhook.id}`} canReplay={isOwner} />
            )}
          </Section>
        ))
      )}
      <ConfirmDialog
        open={removing !== undefined}
        title={t.removeTitle}
        message={t.removeMessage(removing?.url ?? '')}
        confirmLabel={t.remove}
        onConfirm={() => removing !== undefined && void remove(removing)}
        onCancel={() => setRemoving(undefined)}
      />
    </Page>
  );
}

/** 32 random bytes as 64 hexadecimal digits: a secret nobody has to invent. */
function randomSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function CreateWebhookForm(props: { base: string; onCreated(): void }) {
  const t = webhooksTexts();
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ApiProblem | undefined>(undefined);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setProblem(undefined);
    try {
      await api.post(props.base, { url, secret });
      setUrl('');
      setSecret('');
      props.onCreated();
    } catch (error) {
      setProblem(problemOf(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Section title={t.create}>
      <ProblemMessage problem={problem} />
      <form class="narrow-form" onSubmit={(event) => void submit(event)} noValidate>
        <Field id="webhook-url" label={t.url} hint={t.urlHint} error={problem?.reasonFor('url')}>
          <input
            type="url"
            inputMode="url"
            value={url}
            onInput={(event) => setUrl((event.target as HTMLInputElement).value)}
          />
        </Field>
        <Field id="webhook-secret" label={t.secret} hint={t.secretHint} error={problem?.reasonFor('secret')}>
          <input
            type="text"
            autocomplete="off"
            spellcheck={false}
            value={secret}
            onInput={(event) => setSecret((event.target as HTMLInputElement).value)}
          />
        </Field>
        <div class="section-actions">
          <button type="button" class="button" onClick={() => setSecret(randomSecret())}>
            {t.generate}
          </button>
          <button type="submit" class="button button-primary" disabled={busy}>
            {t.create}
          </button>
        </div>
      </form>
    </Section>
  );
}
