/**
 * A service group's API keys (docs/console.md, API keys): the list with each key's prefix, label
 * and state; owners create a key (shown once, with a copy button) and revoke one after
 * confirming. Viewers and editors read the list (docs/api.md, Roles).
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
import { keysTexts } from './keys-texts.js';

interface ApiKeyRow {
  id: number;
  prefix: string;
  label: string;
  created_datetime: string;
  revoked_datetime: string | null;
  last_used_datetime: string | null;
}

interface CreatedKey {
  api_key_id: number;
  api_key: string;
  prefix: string;
}

export function KeysPage(props: { contractId: number; groupId: number }) {
  const t = keysTexts();
  const base = `${groupPath(props.contractId, props.groupId)}/api_keys`;
  const keys = useResource<{ api_keys: ApiKeyRow[] }>(base);
  const isOwner = useCan('owner');
  const [created, setCreated] = useState<CreatedKey | undefined>(undefined);
  const [revoking, setRevoking] = useState<ApiKeyRow | undefined>(undefined);
  const [problem, setProblem] = useState<ApiProblem | undefined>(undefined);

  const revoke = async (row: ApiKeyRow) => {
    setRevoking(undefined);
    try {
      await api.delete(`${base}/${row.id}`);
      keys.reload();
    } catch (error) {
      setProblem(problemOf(error));
    }
  };

  return (
    <Page title={t.title}>
      <p>{t.intro}</p>
      {!isOwner && <p class="hint">{t.ownersOnly}</p>}
      <ProblemMessage problem={problem ?? keys.problem} />
      {created !== undefined && <NewKey created={created} onDone={() => setCreated(undefined)} />}
      {isOwner && (
        <CreateKeyForm
          base={base}
          onCreated={(key) => {
            setCreated(key);
            keys.reload();
          }}
        />
      )}
      {keys.data === undefined ? (
        <Loading />
      ) : keys.data.api_keys.length === 0 ? (
        <div class="section">
          <p>{t.empty}</p>
          {isOwner && <p class="hint">{t.emptyOwner}</p>}
        </div>
      ) : (
        <div class="table-wrap">
          <table class="table">
            <thead>
              <tr>
                <th scope="col">{t.label}</th>
                <th scope="col">{t.prefix}</th>
                <th scope="col">{t.created}</th>
                <th scope="col">{t.lastUsed}</th>
                <th scope="col">{t.state}</th>
                {isOwner && (
                  <th scope="col">
                    <span class="visually-hidden">{t.revoke}</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {keys.data.api_keys.map((row) => (
                <tr key={row.id}>
                  <td class="wrap">{row.label === '' ? t.unlabelled : row.label}</td>
                  <td>
                    <code>{row.prefix}…</code>
                  </td>
                  <td class="nowrap">{dateTime(row.created_datetime)}</td>
                  <td class="nowrap">
                    {row.last_used_datetime === null ? t.neverUsed : dateTime(row.last_used_datetime)}
                  </td>
                  <td>
                    {row.revoked_datetime === null ? (
                      <span class="badge badge-ok">{t.active}</span>
                    ) : (
                      <span class="badge badge-failed">{t.revoked(dateTime(row.revoked_datetime))}</span>
                    )}
                  </td>
                  {isOwner && (
                    <td>
                      {row.revoked_datetime === null && (
                        <button
                          type="button"
                          class="button button-small"
                          aria-label={`${t.revoke}: ${row.label === '' ? row.prefix : row.label}`}
                          onClick={() => setRevoking(row)}
                        >
                          {t.revoke}
                        </button>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog
        open={revoking !== undefined}
        title={t.revokeTitle}
        message={t.revokeMessage(revoking === undefined ? '' : revoking.label || revoking.prefix)}
        confirmLabel={t.revoke}
        onConfirm={() => revoking !== undefined && void revoke(revoking)}
        onCancel={() => setRevoking(undefined)}
      />
    </Page>
  );
}

function CreateKeyForm(props: { base: string; onCreated(key: CreatedKey): void }) {
  const t = keysTexts();
  const [label, setLabel] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ApiProblem | undefined>(undefined);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setProblem(undefined);
    try {
      const key = await api.post<CreatedKey>(props.base, { label });
      setLabel('');
      props.onCreated(key);
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
        <Field id="api-key-label" label={t.label} hint={t.labelHint} error={problem?.reasonFor('label')}>
          <input
            type="text"
            value={label}
            onInput={(event) => setLabel((event.target as HTMLInputElement).value)}
          />
        </Field>
        <button type="submit" class="button button-primary" disabled={busy}>
          {t.create}
        </button>
      </form>
    </Section>
  );
}

/** The key just created: shown once, with a copy button, until the owner says it is saved. */
function NewKey(props: { created: CreatedKey; onDone(): void }) {
  const t = keysTexts();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(props.created.api_key);
    setCopied(true);
  };
  return (
    <section class="section secret">
      <h2>{t.newKey}</h2>
      <p role="status">{t.newKeyWarning}</p>
      <p>
        <code class="secret-value" aria-label={t.newKey}>
          {props.created.api_key}
        </code>
      </p>
      <div class="section-actions">
        <button type="button" class="button" onClick={() => void copy()}>
          {copied ? t.copied : t.copy}
        </button>
        <button type="button" class="button button-primary" onClick={props.onDone}>
          {t.done}
        </button>
      </div>
    </section>
  );
}
