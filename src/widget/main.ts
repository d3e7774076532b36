/** Entry of the widget script (docs/reference/widget.md). */
import { SiteSearchClient } from '../client/site-search-client.js';

const holder = globalThis as unknown as { KumoSearch?: Record<string, unknown> };
const namespace = (holder.KumoSearch ??= {});
namespace.SiteSearchClient = SiteSearchClient;
