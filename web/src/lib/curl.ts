/** Quotes a string for a POSIX shell (single quotes; embedded ones become '\''). */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** What a curl example runs: an action with its args, against a base URL. */
export interface CurlRequest {
  baseUrl: string;
  action: string;
  args?: Record<string, unknown>;
  /** A real token to embed; without one the example reads `$PIPIT_TOKEN` from the environment. */
  token?: string;
}

/**
 * A ready-to-paste `curl` command that runs an action through `POST /execute`.
 *
 * @example
 * buildCurl({ baseUrl: 'http://localhost:8008', action: 'utils.echo', args: { a: 1 } })
 */
export function buildCurl(req: CurlRequest): string {
  const url = `${req.baseUrl.replace(/\/+$/, '')}/execute`;
  const body: Record<string, unknown> = { type: 'request', action: req.action };
  if (req.args && Object.keys(req.args).length) body.args = req.args;
  const auth = req.token
    ? shellQuote(`Authorization: Bearer ${req.token}`)
    : '"Authorization: Bearer $PIPIT_TOKEN"';
  return [
    `curl -X POST ${shellQuote(url)}`,
    `  -H 'Content-Type: application/json'`,
    `  -H ${auth}`,
    `  -d ${shellQuote(JSON.stringify(body))}`,
  ].join(' \\\n');
}
