/** The crawl settings of a service group: the list and the editor of one setting. */
import type { ConsoleRoute } from '../shell/route-types.js';
import { SettingEditorPage } from './setting-editor-page.js';
import { SettingsPage } from './settings-page.js';
import { settingsTexts } from './settings-texts.js';
import './settings.css';

export const settingsRoutes: ConsoleRoute[] = [
  {
    pattern: '/contracts/:contract/groups/:group/settings',
    view: (params) => <SettingsPage contractId={Number(params.contract)} groupId={Number(params.group)} />,
    nav: { scope: 'group', label: () => settingsTexts().title, order: 10 },
  },
  {
    pattern: '/contracts/:contract/groups/:group/settings/new',
    view: (params) => (
      <SettingEditorPage key="new" contractId={Number(params.contract)} groupId={Number(params.group)} />
    ),
  },
  {
    pattern: '/contracts/:contract/groups/:group/settings/:setting',
    view: (params) => (
      <SettingEditorPage
        key={params.setting}
        contractId={Number(params.contract)}
        groupId={Number(params.group)}
        settingId={Number(params.setting)}
      />
    ),
  },
];
