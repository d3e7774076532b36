/**
 * The signed-in frame: a header (product, service group picker, language, account menu), the
 * navigation of the current scope, and the page. On a phone the navigation folds behind a menu
 * button (docs/console.md, Layout).
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { LOCALES, locale, setLocale, type Locale } from '../i18n.js';
import { href, navigate } from '../router.js';
import { roleAllows, useSession } from '../session.js';
import { useResource } from '../use-resource.js';
import { ROUTES } from '../routes.js';
import { currentGroupOf, rememberGroup } from './current-group.js';
import { groupHref, scopeOf } from './route-types.js';
import { shellTexts } from './shell-texts.js';

interface GroupList {
  servicegroups: { id: number; name: string }[];
}

const LANGUAGE_NAMES: Record<Locale, string> = { en: 'English', ja: '日本語' };

export function Layout(props: { path: string; children: ComponentChildren }) {
  const t = shellTexts();
  const session = useSession();
  const [menuOpen, setMenuOpen] = useState(false);
  const scope = scopeOf(props.path);
  const operator = session.account === null;
  const contractId = scope?.contractId ?? session.account?.contract_id ?? null;
  const groups = useResource<GroupList>(
    contractId === null ? null : `/contracts/${contractId}/servicegroups`,
  );
  const addressGroupId = scope?.groupId ?? null;
  // A contract's own pages (users, audit log) keep the group the user came from beside them.
  const groupId =
    contractId === null ? null : currentGroupOf(contractId, addressGroupId, groups.data?.servicegroups);
  useEffect(() => {
    if (contractId !== null && addressGroupId !== null) rememberGroup(contractId, addressGroupId);
  }, [contractId, addressGroupId]);

  const signOut = async () => {
    try {
      await api.delete(operator ? '/operator_session' : '/session');
    } finally {
      location.assign(href('/sign-in'));
    }
  };

  const entries = ROUTES.filter(
    (route) =>
      route.nav !== undefined &&
      (route.nav.role === undefined || operator || roleAllows(session.account!.role, route.nav.role)) &&
      (route.nav.scope === 'operator'
        ? operator
        : contractId !== null && (route.nav.scope === 'contract' || groupId !== null)),
  ).sort((a, b) => a.nav!.order - b.nav!.order);

  const linkOf = (pattern: string) =>
    pattern.replace(':contract', String(contractId)).replace(':group', String(groupId ?? ''));

  // The entry whose address is the longest prefix of the page's: a setting's editor is under
  // "Crawl settings", not under the overview whose address is the group's.
  const currentTarget = entries
    .map((route) => linkOf(route.pattern))
    .filter((target) => props.path === target || props.path.startsWith(`${target}/`))
    .sort((a, b) => b.length - a.length)[0];
  return (
    <div class="shell">
      <a class="skip-link" href="#main">
        {t.skip}
      </a>
      <header class="topbar">
        <button
          type="button"
          class="menu-button"
          aria-expanded={menuOpen ? 'true' : 'false'}
          aria-controls="console-nav"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          {t.menu}
        </button>
        <a class="brand" href={href('/')}>
          {t.product}
        </a>
        {contractId !== null && (
          <label class="topbar-field">
            <span>{t.serviceGroup}</span>
            <select
              value={groupId === null ? '' : String(groupId)}
              onChange={(event) => {
                const next = Number((event.target as HTMLSelectElement).value);
                if (next > 0) navigate(groupHref(contractId, next));
              }}
            >
              {groupId === null && <option value="">—</option>}
              {(groups.data?.servicegroups ?? []).map((group) => (
                <option key={group.id} value={String(group.id)}>
                  {t.group(group.name, group.id)}
                </option>
              ))}
            </select>
          </label>
        )}
        <label class="topbar-field">
          <span>{t.language}</span>
          <select
            value={locale()}
            onChange={(event) => setLocale((event.target as HTMLSelectElement).value as Locale)}
          >
            {LOCALES.map((code) => (
              <option key={code} value={code} lang={code}>
                {LANGUAGE_NAMES[code]}
              </option>
            ))}
          </select>
        </label>
        <nav class="account-menu" aria-label={t.account}>
          {session.account === null ? (
            <span>{t.operator}</span>
          ) : (
            <a href={href('/account')}>{session.account.email}</a>
          )}
          <button type="button" class="link-button" onClick={() => void signOut()}>
            {t.signOut}
          </button>
        </nav>
      </header>
      <div class="body">
        <nav id="console-nav" class={menuOpen ? 'sidenav open' : 'sidenav'} aria-label={t.navigation}>
          <ul>
            {entries.map((route) => {
              const target = linkOf(route.pattern);
              const current = target === currentTarget;
              return (
                <li key={route.pattern}>
                  <a
                    href={href(target)}
                    aria-current={current ? 'page' : undefined}
                    onClick={() => setMenuOpen(false)}
                  >
                    {route.nav!.label()}
                  </a>
                </li>
              );
            })}
          </ul>
        </nav>
        <main id="main" class="main">
          {props.children}
        </main>
      </div>
    </div>
  );
}
