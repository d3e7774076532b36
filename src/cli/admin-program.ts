import type { Command } from 'commander';
import type { AdminContext } from './admin-options.js';
import type { CommandHost } from './command-host.js';

type OptionName = keyof AdminContext['values'];

/** One `kumo admin <resource> <action>`: its id argument and options, for parsing and help. */
interface AdminAction {
  action: string;
  summary: string;
  /** The positional id the action works on: its name and description. */
  argument?: [string, string];
  options?: [OptionName, string][];
  help?: string;
}

interface AdminResource {
  resource: string;
  summary: string;
  actions: AdminAction[];
}

/** The value placeholder of each option in the usage. */
const VALUE_NAMES: Record<OptionName, string> = {
  name: 'name',
  contract: 'id',
  servicegroup: 'id',
  label: 'text',
  config: 'file',
  url: 'url',
  secret: 'secret',
  limit: 'n',
  email: 'address',
  role: 'role',
};

const TENANT: [OptionName, string][] = [
  ['contract', 'contract id (required)'],
  ['servicegroup', 'service group id in that contract (required)'],
];
const LIST_FILTER: [OptionName, string][] = [['contract', "only this contract's"]];

const SEARCH_SERVICE_FILE = `
The file is JSON: {"categories": [{"name", "url_pattern"}], "drilldowns": [{"url_pattern",
"path": "labels\\tjoined\\tby tab, $1 = capture group"}], "allowed_origins": ["https://..."],
"weights": {"title", "headings", "description", "body", "url", "links"}}`;

const SETTING_FILE = `
The file is JSON, the body of the management API's service_settings:
{"setting": {instant crawler setting}, "schedule": {"interval": 0..4 (off, hourly, daily,
weekly, monthly), "min", "hour", "day_of_week": 0..6 (Sun..Sat), "day_of_month"},
"service_id": search service id or null}`;

const RESOURCES: AdminResource[] = [
  {
    resource: 'contract',
    summary: 'contracts (tenants)',
    actions: [
      {
        action: 'create',
        summary: 'create a contract; prints its id',
        options: [['name', 'its name (required)']],
      },
      { action: 'list', summary: 'list the contracts' },
    ],
  },
  {
    resource: 'servicegroup',
    summary: 'service groups of a contract',
    actions: [
      {
        action: 'create',
        summary: 'create a service group in a contract',
        options: [TENANT[0]!, ['name', 'its name (required)']],
      },
      { action: 'list', summary: 'list the service groups', options: LIST_FILTER },
    ],
  },
  {
    resource: 'key',
    summary: 'API keys of a service group',
    actions: [
      {
        action: 'create',
        summary: 'create an API key; prints it once',
        options: [...TENANT, ['label', 'a note to recognise it by']],
      },
      {
        action: 'list',
        summary: 'list the keys (their first characters only; the keys are not stored)',
        options: LIST_FILTER,
      },
      { action: 'revoke', summary: 'revoke a key', argument: ['key-id', 'id of the key (from key list)'] },
    ],
  },
  {
    resource: 'searchservice',
    summary: 'search services and their rules (categories, drill-down, origins, weights)',
    actions: [
      {
        action: 'create',
        summary: 'create a search service; prints its id',
        options: [...TENANT, ['name', 'its name (required)'], ['config', 'its rules, a JSON file']],
        help: SEARCH_SERVICE_FILE,
      },
      { action: 'list', summary: 'list the search services', options: LIST_FILTER },
      {
        action: 'show',
        summary: 'print the rules as JSON',
        argument: ['id', 'search service id'],
      },
      {
        action: 'configure',
        summary: 'replace the rules',
        argument: ['id', 'search service id'],
        options: [['config', 'the rules, a JSON file (required)']],
        help: SEARCH_SERVICE_FILE,
      },
    ],
  },
  {
    resource: 'setting',
    summary: 'crawl service settings: scheduled crawls that feed a search service',
    actions: [
      {
        action: 'create',
        summary: 'create a crawl service setting',
        options: [...TENANT, ['config', 'the setting, a JSON file (required)'], ['name', 'its name']],
        help: SETTING_FILE,
      },
      { action: 'list', summary: 'list the settings with their schedule and next run', options: LIST_FILTER },
      {
        action: 'show',
        summary: 'print the setting, schedule, service_id and next run as JSON',
        argument: ['id', 'crawl service setting id'],
      },
      {
        action: 'update',
        summary: 'replace the setting, schedule and service_id',
        argument: ['id', 'crawl service setting id'],
        options: [
          ['config', 'the setting, a JSON file (required)'],
          ['name', 'a new name'],
        ],
        help: SETTING_FILE,
      },
      {
        action: 'delete',
        summary: 'delete a setting; also cancels its pending or running run',
        argument: ['id', 'crawl service setting id'],
      },
      {
        action: 'run',
        summary: 'queue a run now (kumo serve starts it)',
        argument: ['id', 'crawl service setting id'],
      },
      {
        action: 'pause',
        summary: 'pause the schedule (run still works)',
        argument: ['id', 'crawl service setting id'],
      },
      {
        action: 'resume',
        summary: 'resume the schedule from its next slot',
        argument: ['id', 'crawl service setting id'],
      },
    ],
  },
  {
    resource: 'webhook',
    summary: 'webhooks of a service group and their deliveries',
    actions: [
      {
        action: 'create',
        summary: 'create a webhook',
        options: [
          ...TENANT,
          ['url', 'http(s) URL the events are posted to (required)'],
          ['secret', 'signing secret, 16..256 characters (required; never printed)'],
        ],
      },
      { action: 'list', summary: 'list the webhooks', options: LIST_FILTER },
      { action: 'delete', summary: 'delete a webhook', argument: ['id', 'webhook id'] },
      {
        action: 'deliveries',
        summary: "list a webhook's deliveries, newest first",
        argument: ['id', 'webhook id'],
        options: [['limit', 'at most N (default 50, 1..200)']],
      },
      {
        action: 'replay',
        summary: 'deliver again (kumo serve sends it)',
        argument: ['delivery-id', 'id of the delivery (from webhook deliveries)'],
      },
    ],
  },
  {
    resource: 'user',
    summary: 'console accounts of a contract and their invitations',
    actions: [
      {
        action: 'invite',
        summary: 'invite a user; prints the invitation link and token once (valid 7 days, used once)',
        options: [
          ['contract', 'contract id (required)'],
          ['email', 'their email address (required)'],
          ['role', 'owner, editor or viewer (required)'],
        ],
      },
      { action: 'list', summary: 'list the accounts', options: LIST_FILTER },
    ],
  },
];

/** Adds `kumo admin` with one subcommand per resource and one below it per action. */
export function addAdminCommand(program: Command, host: CommandHost): void {
  const admin = program
    .command('admin')
    .summary(
      'manage contracts, service groups, API keys, search services, crawl service settings, webhooks and console users',
    )
    .description(
      'Works on the store in KUMO_DATA_DIR, also while kumo serve runs, which picks changes up ' +
        'from the store.',
    );
  for (const { resource, summary, actions } of RESOURCES) {
    const group = admin.command(resource).description(summary);
    for (const spec of actions) {
      const command = group.command(spec.action).description(spec.summary);
      if (spec.argument) command.argument(`<${spec.argument[0]}>`, spec.argument[1]);
      for (const [name, description] of spec.options ?? [])
        command.option(`--${name} <${VALUE_NAMES[name]}>`, description);
      if (spec.help) command.addHelpText('after', spec.help);
      command.action(async () => {
        const values = command.opts<AdminContext['values']>();
        const positionals = command.processedArgs as string[];
        const config = host.config();
        // The management layer is loaded only by the command that runs it (not by kumo serve).
        const { adminCommand } = await import('./admin-command.js');
        host.exitCode = await adminCommand(`${resource} ${spec.action}`, values, positionals, config);
      });
    }
  }
}
