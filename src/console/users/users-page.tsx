/**
 * A contract's users (docs/console.md, Users and the audit log): the accounts with their roles;
 * owners invite a user (the link shown once, to send themselves) and sign a user out everywhere
 * (docs/api.md, Accounts and sessions).
 */
import { useState } from 'preact/hooks';
import { api, ApiProblem, problemOf } from '../api.js';
import { Field } from '../components/field.js';
import { Page, Section } from '../components/page.js';
import { Loading, ProblemMessage } from '../components/problem.js';
import { dateTime } from '../format.js';
import { type Role, useCan, useSession } from '../session.js';
import { useResource } from '../use-resource.js';
import { type User, UserRow } from './user-row.js';
import { usersTexts } from './users-texts.js';

interface Invitation {
  email: string;
  accept_url: string;
  expires_datetime: string;
}

const ROLES: readonly Role[] = ['viewer', 'editor', 'owner'];

export function UsersPage(props: { contractId: number }) {
  const t = usersTexts();
  const base = `/contracts/${props.contractId}`;
  const users = useResource<{ users: User[] }>(`${base}/users`);
  const isOwner = useCan('owner');
  const self = useSession().account?.id ?? null;
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const [problem, setProblem] = useState<ApiProblem | undefined>(undefined);

  return (
    <Page title={t.title}>
      <p>{t.intro}</p>
      {!isOwner && <p class="hint">{t.ownersOnly}</p>}
      <ProblemMessage problem={problem ?? users.problem} />
      {notice !== undefined && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      {isOwner && <InviteForm base={base} />}
      {users.data === undefined ? (
        users.problem === undefined && <Loading />
      ) : (
        <div class="table-wrap">
          <table class="table">
            <thead>
              <tr>
                <th scope="col">{t.email}</th>
                <th scope="col">{t.role}</th>
                <th scope="col">{t.joined}</th>
                {isOwner && (
                  <th scope="col">
                    <span class="visually-hidden">{t.endSessions}</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {users.data.users.map((user) => (
                <UserRow
                  key={user.id}
                  base={base}
                  user={user}
                  isOwner={isOwner}
                  isSelf={user.id === self}
                  onChanged={(text) => {
                    setProblem(undefined);
                    setNotice(text);
                    users.reload();
                  }}
                  onProblem={(failed) => {
                    setNotice(undefined);
                    setProblem(failed);
                    users.reload();
                  }}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Page>
  );
}

function InviteForm(props: { base: string }) {
  const t = usersTexts();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('editor');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ApiProblem | undefined>(undefined);
  const [invitation, setInvitation] = useState<Invitation | undefined>(undefined);
  const [copied, setCopied] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setProblem(undefined);
    try {
      setInvitation(await api.post<Invitation>(`${props.base}/invitations`, { email, role }));
      setCopied(false);
      setEmail('');
    } catch (error) {
      setProblem(problemOf(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Section title={t.invite}>
      {invitation !== undefined && (
        <div class="section secret">
          <h3>{t.inviteLink(invitation.email)}</h3>
          <p role="status">{t.inviteWarning(dateTime(invitation.expires_datetime))}</p>
          <p>
            <code class="secret-value" aria-label={t.inviteLink(invitation.email)}>
              {invitation.accept_url}
            </code>
          </p>
          <div class="section-actions">
            <button
              type="button"
              class="button"
              onClick={() =>
                void navigator.clipboard.writeText(invitation.accept_url).then(() => setCopied(true))
              }
            >
              {copied ? t.copied : t.copy}
            </button>
            <button type="button" class="button button-primary" onClick={() => setInvitation(undefined)}>
              {t.done}
            </button>
          </div>
        </div>
      )}
      <ProblemMessage problem={problem} />
      <form class="narrow-form" onSubmit={(event) => void submit(event)} noValidate>
        <Field id="invite-email" label={t.email} error={problem?.reasonFor('email')}>
          <input
            type="email"
            autocomplete="off"
            value={email}
            onInput={(event) => setEmail((event.target as HTMLInputElement).value)}
          />
        </Field>
        <Field id="invite-role" label={t.role} hint={t.roleHint} error={problem?.reasonFor('role')}>
          <select
            value={role}
            onChange={(event) => setRole((event.target as HTMLSelectElement).value as Role)}
          >
            {ROLES.map((name) => (
              <option key={name} value={name}>
                {t.roleName(name)}
              </option>
            ))}
          </select>
        </Field>
        <button type="submit" class="button button-primary" disabled={busy}>
          {t.sendInvite}
        </button>
      </form>
    </Section>
  );
}
