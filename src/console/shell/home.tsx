/** The start page (the first service group's overview) and the page of an unknown address. */
import { useEffect } from 'preact/hooks';
import { Page } from '../components/page.js';
import { Loading, ProblemMessage } from '../components/problem.js';
import { href, navigate } from '../router.js';
import { useSession } from '../session.js';
import { useResource } from '../use-resource.js';
import { groupHref } from './route-types.js';
import { shellTexts } from './shell-texts.js';

export function HomeRedirect() {
  const t = shellTexts();
  const session = useSession();
  const contractId = session.account?.contract_id ?? null;
  const groups = useResource<{ servicegroups: { id: number }[] }>(
    contractId === null ? null : `/contracts/${contractId}/servicegroups`,
  );
  const first = groups.data?.servicegroups[0];
  useEffect(() => {
    // The operator starts from every contract; an account from its first service group.
    if (contractId === null) navigate('/operator', { replace: true });
    else if (first !== undefined) navigate(groupHref(contractId, first.id), { replace: true });
  }, [first, contractId]);
  if (contractId === null) return <Loading />;
  if (groups.problem !== undefined) return <ProblemMessage problem={groups.problem} />;
  if (groups.data === undefined || first !== undefined) return <Loading />;
  return (
    <Page title={t.overview} context={t.contract(contractId)}>
      <p>{t.noGroups}</p>
    </Page>
  );
}

export function NotFound() {
  const t = shellTexts();
  return (
    <Page title={t.notFound}>
      <p>{t.notFoundBody}</p>
      <p>
        <a href={href('/')}>{t.backHome}</a>
      </p>
    </Page>
  );
}
