import type { TestApp } from '../../helpers/service.ts';
import { makeApp } from '../../helpers/service.ts';

export { call } from '../call.ts';

/**
 * A service whose `mail.smtp:` section sends to 127.0.0.1:`port` with a 1 s timeout; `section` is
 * more keys of the section, indented by two spaces.
 */
export function mailApp(port: number, section = ''): Promise<TestApp> {
  return makeApp(`mail.smtp:
  server: 127.0.0.1
  port: ${port}
  timeout: 1
  from_: Pipit <pipit@example.com>
${section}`);
}

/** The value of a header in a raw MIME message (the first one, unfolded). */
export function headerOf(raw: string, name: string): string | undefined {
  const head = raw.slice(0, raw.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
  const line = head.split('\r\n').find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(name.length + 1).trim();
}
