import type { EmulatorControl } from './control.ts';
import type { EmuRequest, Reply } from './http.ts';

type Body = Record<string, unknown>;
type Handler = (control: EmulatorControl, body: Body, req: EmuRequest, id: string) => unknown;

const json = (value: unknown): Reply => ({ status: 200, json: value ?? null });
const user = (req: EmuRequest) => req.query.get('user') ?? undefined;

/** `METHOD /path` (with an optional trailing `/:id`) → handler. */
const ROUTES: Record<string, Handler> = {
  'POST /reset': (c, b) => c.reset(b.seed === undefined ? {} : { seed: Number(b.seed) }),
  'GET /seed': (c) => c.seed,
  'GET /config': (c) => c.configure({}),
  'PATCH /config': (c, b) => c.configure(b),
  'GET /clock': (c) => ({ now: c.now() }),
  'POST /clock/advance': (c, b) => ({ now: c.advanceClock(Number(b.ms)) }),
  'POST /clock/set': (c, b) => ({ now: c.state.clock.set(Number(b.time)) }),
  'GET /devices': (c, _b, r) => c.devices(user(r)),
  'POST /devices': (c, b, r) => c.addDevice(b as { name: string }, user(r)),
  'PATCH /devices/:id': (c, b, r, id) => c.updateDevice(id, b, user(r)),
  'DELETE /devices/:id': (c, _b, r, id) => ({ removed: c.removeDevice(id, user(r)) }),
  'GET /player': (c, _b, r) => c.player(user(r)),
  'POST /users': (c, b) => c.addUser(b as { id: string }),
  'POST /apps': (c, b) => c.registerApp(b as { redirectUris: string[] }),
  'POST /tokens': (c, b) => c.mintToken(b),
  'POST /tokens/revoke': (c, b) => ({ revoked: c.revokeToken(String(b.token)) }),
  'GET /faults': (c) => c.faults(),
  'POST /faults': (c, b) => c.addFault(b),
  'DELETE /faults': (c) => c.clearFaults(),
  'DELETE /faults/:id': (c, _b, _r, id) => ({ removed: c.removeFault(id) }),
  'PUT /rate-limit': (c, b) => c.setRateLimit(Object.keys(b).length === 0 ? null : (b as never)),
  'DELETE /rate-limit': (c) => c.setRateLimit(null),
  'GET /requests': (c, _b, r) =>
    c.requests({
      method: r.query.get('method') ?? undefined,
      path: r.query.get('path') ?? undefined,
    }),
  'DELETE /requests': (c) => c.clearRequests(),
};

/**
 * Serve `/_emulator/...`: JSON in, JSON out; errors are 400 `{"error": message}`.
 * @example
 * handleControl(control, req); // POST /_emulator/clock/advance {"ms":1000}
 */
export function handleControl(control: EmulatorControl, req: EmuRequest): Reply {
  const rest = req.path.slice('/_emulator'.length) || '/';
  const body = (req.body && typeof req.body === 'object' ? req.body : {}) as Body;
  const idMatch = /^(\/[a-z-]+)\/([^/]+)$/.exec(rest);
  const exact = ROUTES[`${req.method} ${rest}`];
  const withId = idMatch ? ROUTES[`${req.method} ${idMatch[1]}/:id`] : undefined;
  const handler = exact ?? withId;
  if (!handler) return { status: 404, json: { error: `No control route ${req.method} ${rest}` } };
  try {
    return json(handler(control, body, req, idMatch ? decodeURIComponent(idMatch[2]!) : ''));
  } catch (error) {
    return { status: 400, json: { error: error instanceof Error ? error.message : String(error) } };
  }
}
