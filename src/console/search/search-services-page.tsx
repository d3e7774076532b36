/**
 * A service group's search services (docs/console.md, Site search): each links to its page;
 * editors create one by name.
 */
import { useState } from 'preact/hooks';
import { api, type ApiProblem, groupPath, problemOf } from '../api.js';
import { Field } from '../components/field.js';
import { Page, Section } from '../components/page.js';
import { Loading, ProblemMessage } from '../components/problem.js';
import { dateTime } from '../format.js';
import { href } from '../router.js';
import { useCan } from '../session.js';
import { groupHref } from '../shell/route-types.js';
import { useResource } from '../use-resource.js';
import { searchTexts } from './search-texts.js';

interface SearchService {
  id: number;
  name: string;
  updated_datetime: string;
}

export function SearchServicesPage(props: { contractId: number; groupId: number }) {
  const t = searchTexts();
  const base = `${groupPath(props.contractId, props.groupId)}/search_services`;
  const services = useResource<{ search_services: SearchService[] }>(base);
  const canEdit = useCan('editor');
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<ApiProblem | undefined>(undefined);
  const [notice, setNotice] = useState<string | undefined>(undefined);

  const create = async (event: Event) => {
    event.preventDefault();
    setProblem(undefined);
    try {
      await api.post(base, { name: name.trim() });
      setNotice(t.created(name.trim()));
      setName('');
      services.reload();
    } catch (error) {
      setProblem(problemOf(error));
    }
  };

  return (
    <Page title={t.title}>
      <p>{t.intro}</p>
      {!canEdit && <p class="hint">{t.editorsOnly}</p>}
      <ProblemMessage problem={services.problem} />
      {notice !== undefined && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      {services.data === undefined ? (
        services.problem === undefined && <Loading />
      ) : services.data.search_services.length === 0 ? (
        <p class="section">{t.empty}</p>
      ) : (
        <div class="table-wrap">
          <table class="table">
            <thead>
              <tr>
                <th scope="col">{t.name}</th>
                <th scope="col">{t.updated}</th>
              </tr>
            </thead>
            <tbody>
              {services.data.search_services.map((service) => (
                <tr key={service.id}>
                  <td>
                    <a href={href(groupHref(props.contractId, props.groupId, `/search/${service.id}`))}>
                      {service.name}
                    </a>
                  </td>
                  <td class="nowrap">{dateTime(service.updated_datetime)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {canEdit && (
        <Section title={t.create}>
          <form class="narrow-form" onSubmit={(event) => void create(event)} noValidate>
            <Field id="search-service-name" label={t.newName} error={problem?.reasonFor('name') ?? undefined}>
              <input
                value={name}
                onInput={(event) => setName(event.currentTarget.value)}
                autoComplete="off"
              />
            </Field>
            {problem !== undefined && problem.reasonFor('name') === undefined && (
              <ProblemMessage problem={problem} />
            )}
            <button type="submit" class="button button-primary">
              {t.create}
            </button>
          </form>
        </Section>
      )}
    </Page>
  );
}
