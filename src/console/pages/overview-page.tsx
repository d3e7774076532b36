/** A service group's start page. */
import { Page } from '../components/page.js';
import { shellTexts } from '../shell/shell-texts.js';

export function OverviewPage(props: { contractId: number; groupId: number }) {
  const t = shellTexts();
  return (
    <Page title={t.overview} context={t.contract(props.contractId)}>
      <p />
    </Page>
  );
}
