/**
 * The operator's contracts (docs/console.md, Operator pages): each with its usage (service
 * groups, users, runs, pages fetched, artifact storage, index sizes) and a link into it; creating
 * a contract with its first service group; inviting a contract's owner.
 */
import { useState } from 'preact/hooks';
import { api, type ApiProblem, problemOf } from '../api.js';
import { Field } from '../components/field.js';
import { Page, Section } from '../components/page.js';
import { Loading, ProblemMessage } from '../components/problem.js';
import { bytes, count, dateTime } from '../format.js';
import { href } from '../router.js';
import { useResource } from '../use-resource.js';
import { operatorTexts } from './operator-texts.js';

interface ContractUsage {
  id: number;
  name: string;
  created_datetime: string;
  servicegroups: number;
  users: number;
  runs: number;
  pages_fetched: number;
  artifact_bytes: number;
  search_services: number;
  index_bytes: number;
}

export function ContractsPage() {
  const t = operatorTexts();
  const usage = useResource<{ contracts: ContractUsage[] }>('/contracts/usage');
  const [notice, setNotice] = useState<string | undefined>(undefined);
  // The contract an invitation is for: the one just created, else the newest.
  const [inviteFor, setInviteFor] = useState<string | undefined>(undefined);
  const contracts = usage.data?.contracts ?? [];
  return (
    <Page title={t.title}>
      <p>{t.intro}</p>
      <ProblemMessage problem={usage.problem} />
      {notice !== undefined && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      {usage.data === undefined ? (
        usage.problem === undefined && <Loading />
      ) : contracts.length === 0 ? (
        <p class="section">{t.none}</p>
      ) : (
        <div class="table-wrap">
          <table class="table">
            <thead>
              <tr>
                <th scope="col">{t.contract}</th>
                <th scope="col" class="number">
                  {t.groups}
                </th>
                <th scope="col" class="number">
                  {t.users}
                </th>
                <th scope="col" class="number">
                  {t.runs}
                </th>
                <th scope="col" class="number">
                  {t.pages}
                </th>
                <th scope="col" class="number">
                  {t.artifacts}
                </th>
                <th scope="col" class="number">
                  {t.indexes}
                </th>
              </tr>
            </thead>
            <tbody>
              {contracts.map((contract) => (
                <tr key={contract.id}>
                  <td class="wrap">
                    <a href={href(`/contracts/${contract.id}/users`)} aria-label={t.open(contract.name)}>
                      {contract.name}
                    </a>
                    <span class="hint">
                      {' '}
                      · {contract.id} · {dateTime(contract.created_datetime)}
                    </span>
                  </td>
                  <td class="number">{count(contract.servicegroups)}</td>
                  <td class="number">{count(contract.users)}</td>
                  <td class="number">{count(contract.runs)}</td>
                  <td class="number">{count(contract.pages_fetched)}</td>
                  <td class="number">{bytes(contract.artifact_bytes)}</td>
                  <td class="number">
                    {bytes(contract.index_bytes)} ({count(contract.search_services)})
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <CreateContract
        onCreated={(name, id) => {
          setNotice(t.created(name));
          setInviteFor(String(id));
          usage.reload();
        }}
      />
      {contracts.length > 0 && (
        <InviteOwner
          contracts={contracts}
          contractId={inviteFor ?? String(contracts.at(-1)!.id)}
          onChoose={setInviteFor}
        />
      )}
    </Page>
  );
}

function CreateContract(props: { onCreated(name: string, id: number): void }) {
  const t = operatorTexts();
  const [name, setName] = useState('');
  const [group, setGroup] = useState('web');
  const [problem, setProblem] = useState<ApiProblem | undefined>(undefined);
  const submit = async (event: Event) => {
    event.preventDefault();
    setProblem(undefined);
    try {
      const created = await api.post<{ contract_id: number }>('/contracts', { name: name.trim() });
      await api.post(`/contracts/${created.contract_id}/servicegroups`, { name: group.trim() });
      props.onCreated(name.trim(), created.contract_id);
      setName('');
    } catch (error) {
      setProblem(problemOf(error));
    }
  };
  return (
    <Section title={t.create}>
      <form class="narrow-form" onSubmit={(event) => void submit(event)} noValidate>
        <Field id="contract-name" label={t.contractName} error={problem?.reasonFor('name')}>
          <input value={name} autoComplete="off" onInput={(event) => setName(event.currentTarget.value)} />
        </Field>
        <Field id="contract-group" label={t.groupName} hint={t.groupHint}>
          <input value={group} autoComplete="off" onInput={(event) => setGroup(event.currentTarget.value)} />
        </Field>
        {problem !== undefined && problem.reasonFor('name') === undefined && (
          <ProblemMessage problem={problem} />
        )}
        <button type="submit" class="button button-primary">
          {t.create}
        </button>
      </form>
    </Section>
  );
}

function InviteOwner(props: {
  contracts: readonly ContractUsage[];
  contractId: string;
  onChoose(contractId: string): void;
}) {
  const t = operatorTexts();
  const { contractId } = props;
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<ApiProblem | undefined>(undefined);
  const [invitation, setInvitation] = useState<{
    email: string;
    accept_url: string;
    expires_datetime: string;
  }>();
  const submit = async (event: Event) => {
    event.preventDefault();
    setProblem(undefined);
    try {
      setInvitation(
        await api.post(`/contracts/${contractId}/invitations`, { email: email.trim(), role: 'owner' }),
      );
      setEmail('');
    } catch (error) {
      setProblem(problemOf(error));
    }
  };
  return (
    <Section title={t.invite}>
      {invitation !== undefined ? (
        <div class="secret">
          <p id="owner-invitation-label">{t.inviteLink(invitation.email)}</p>
          <code class="secret-value" aria-labelledby="owner-invitation-label">
            {invitation.accept_url}
          </code>
          <p role="status">{t.inviteWarning(dateTime(invitation.expires_datetime))}</p>
          <div class="section-actions">
            <button
              type="button"
              class="button"
              onClick={() => void navigator.clipboard.writeText(invitation.accept_url)}
            >
              {t.copy}
            </button>
            <button type="button" class="button button-primary" onClick={() => setInvitation(undefined)}>
              {t.done}
            </button>
          </div>
        </div>
      ) : (
        <form class="narrow-form" onSubmit={(event) => void submit(event)} noValidate>
          <Field id="invite-contract" label={t.inviteFor}>
            <select value={contractId} onChange={(event) => props.onChoose(event.currentTarget.value)}>
              {props.contracts.map((contract) => (
                <option key={contract.id} value={String(contract.id)}>
                  {contract.name} ({contract.id})
                </option>
              ))}
            </select>
          </Field>
          <Field id="invite-owner-email" label={t.email} error={problem?.reasonFor('email')}>
            <input
              type="email"
              value={email}
              autoComplete="off"
              onInput={(event) => setEmail(event.currentTarget.value)}
            />
          </Field>
          {problem !== undefined && problem.reasonFor('email') === undefined && (
            <ProblemMessage problem={problem} />
          )}
          <button type="submit" class="button button-primary">
            {t.sendInvite}
          </button>
        </form>
      )}
    </Section>
  );
}
