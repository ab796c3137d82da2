import type { HttpConfig } from './config.ts';
import type { HostAllowList } from './hosts.ts';

/** What the http plugin's actions share. */
export interface HttpState {
  config: HttpConfig;
  allow: HostAllowList | undefined;
}
