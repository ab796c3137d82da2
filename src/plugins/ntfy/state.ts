import type { NtfyConfig } from './config.ts';
import type { TopicStream } from './stream.ts';

/** What `init` keeps: the section, and one stream per subscribed topic. */
export interface NtfyState {
  config: NtfyConfig;
  streams: TopicStream[];
}
