import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PipitError } from '../../core/errors.ts';
import { toJsonLimited } from '../../core/json-limits.ts';
import { maskSecrets } from '../../core/redact.ts';
import { makeEvent } from '../../events/event.ts';
import type { PipitEvent } from '../../events/event.ts';
import { HookBusyError } from '../../events/hooks.ts';
import type { HookOutcome, HookResponse, HookRunContext } from '../../events/hooks.ts';
import { CoreKinds } from '../../events/kinds.ts';
import type { Service } from '../../app/service.ts';
import { sendError } from '../reply.ts';
import { documentationOnly } from '../wire/compilers.ts';
import { HOOK_METHODS, HOOK_NAME, hookSchema } from '../wire/hook.ts';
import type { ErrorReplyContext } from '../reply.ts';
import {
  addSecurityHeaders,
  API_HEADERS,
  headersFor,
  setSecurityHeaders,
} from '../security-headers.ts';

// Made once: an abort without a reason builds a DOMException, stack trace and all (~8 µs).
const CLIENT_GONE = new PipitError('UNAVAILABLE', 'the client closed the connection');

/**
 * What a web hook's listeners get: `respond`, and an abort signal made when a listener first asks
 * for it (a YAML hook's steps do; a script's function cannot be interrupted and never does). Only
 * then is the connection watched, so that most web hooks need neither a controller nor a listener
 * on the response (~7% of `/hook`'s throughput). A class, not an object literal with a getter: a
 * getter made per request gives every request's object a hidden class of its own, which V8 keeps
 * in the old generation (that cost almost a third of the throughput in major GCs).
 *
 * @example
 * const ctx = new WebhookRunContext(reply.raw, respond);
 * await hooks.runOne(hook, event, ctx);
 * ctx.done();
 */
class WebhookRunContext implements HookRunContext {
  readonly respond: (response: HookResponse) => void;
  readonly #res: ServerResponse;
  #controller: AbortController | undefined;
  #hangUp: (() => void) | undefined;

  constructor(res: ServerResponse, respond: (response: HookResponse) => void) {
    this.#res = res;
    this.respond = respond;
  }

  // A caller that hangs up before its answer leaves nobody waiting: the listeners are aborted.
  // Once it has its answer (say an early send_response), they run to completion. The response's
  // "close" is the signal: the request's own "close" only means its body has been read, which for
  // a POST is long before the answer.
  get signal(): AbortSignal {
    if (!this.#controller) {
      const controller = (this.#controller = new AbortController());
      const res = this.#res;
      const hangUp = () => {
        if (!res.writableFinished) controller.abort(CLIENT_GONE);
      };
      if (res.closed) hangUp();
      else res.once('close', (this.#hangUp = hangUp));
    }
    return this.#controller.signal;
  }

  /** Aborts the listeners still running (the timeout), if any asked for the signal. */
  abort(reason: unknown): void {
    this.#controller?.abort(reason);
  }

  /** The answer is decided: stops watching the connection. */
  done(): void {
    if (this.#hangUp) this.#res.off('close', this.#hangUp);
  }
}

function parseForm(text: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null) as Record<
    string,
    string | string[]
  >;
  for (const [key, value] of new URLSearchParams(text)) {
    const prev = out[key];
    out[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}

// fastify's query parser builds its object on a prototype of its own, neither null nor Object's:
// conditions (`args: {id: '5'}`) and expressions (`keys(args)`, `'id' in args`) take only plain
// objects, so the query is copied into one (null prototype, as parseForm's, so `__proto__` stays
// a key).
function queryArgs(query: unknown): Record<string, unknown> {
  const out = Object.create(null) as Record<string, unknown>;
  if (query && typeof query === 'object')
    for (const key of Object.keys(query)) out[key] = (query as Record<string, unknown>)[key];
  return out;
}

/**
 * The event as subscribers (and, in a cluster, the other instances) see it: credentials masked in
 * its query arguments, body and headers, by name (`token`, `password`, `X-Gitlab-Token`,
 * `X-Hub-Signature-256`...) and by shape (`Bearer …`, JWTs; see `maskSecrets`). The event itself
 * when there is nothing to mask: most web hooks carry no credential, and are not copied. The
 * hook's listener gets the real event.
 *
 * @example
 * redactWebhookEvent(event).args.headers; // { host: 'pi:8008', authorization: '[redacted]' }
 */
export function redactWebhookEvent(event: PipitEvent): PipitEvent {
  const { args, data, headers } = event.args;
  const shown = maskSecrets({ args, data, headers });
  return shown.args === args && shown.data === data && shown.headers === headers
    ? event
    : { ...event, args: { ...event.args, ...shown } };
}

// Security headers are chosen by what the answer turned out to be (see headersFor): JSON and text
// get the three API headers, HTML and the rest the document set (~500 bytes and eight header
// checks more per answer). Set after the listener's own headers, which win. An answer without
// headers of its own (a returned value, the common case) has its type and table known at once:
// no header lookups (~1 µs a request).
function answer(reply: FastifyReply, hook: string, response: HookResponse): FastifyReply {
  const own = response.headers;
  let plain = true;
  for (const _ in own) {
    plain = false;
    break;
  }
  reply.code(response.status);
  if (!plain) reply.headers(own);
  let { body } = response;
  if (body === undefined || body === null) {
    addSecurityHeaders(reply.request, reply, API_HEADERS);
    return reply.code(response.status === 200 ? 204 : response.status).send();
  }
  if (typeof body === 'string') {
    if (plain || !reply.hasHeader('content-type')) reply.type('text/plain; charset=utf-8');
  } else if (Buffer.isBuffer(body)) {
    if (plain || !reply.hasHeader('content-type')) reply.type('application/octet-stream');
  } else {
    body = toJsonLimited(body, `the answer of hook "${hook}"`, 'INTERNAL');
    reply.type('application/json; charset=utf-8');
  }
  if (plain && !Buffer.isBuffer(body)) setSecurityHeaders(reply.request, reply, API_HEADERS);
  else
    addSecurityHeaders(reply.request, reply, headersFor(String(reply.getHeader('content-type'))));
  return reply.send(body);
}

/** The answer once every listener has finished without an explicit one. */
function answerOutcomes(
  reply: FastifyReply,
  name: string,
  outcomes: HookOutcome[],
  errors: ErrorReplyContext,
): void {
  const answered = outcomes.find((o) => o.ok && o.value !== undefined);
  if (answered && answered.ok) {
    answer(reply, name, { body: answered.value, status: 200, headers: {} });
    return;
  }
  // A listener skipped because it has too many runs going: the caller may try again later.
  const busy = outcomes.find((o) => !o.ok && o.error instanceof HookBusyError);
  if (busy && !busy.ok) sendError(reply, busy.error, errors);
  else if (outcomes.some((o) => !o.ok))
    sendError(
      reply,
      new PipitError('INTERNAL', `the listener of hook "${name}" failed (see the service log)`),
      errors,
    );
  else answer(reply, name, { body: undefined, status: 204, headers: {} });
}

/**
 * `/hook/<name>` (GET, POST, PUT, PATCH, DELETE; unauthenticated by design — the listener decides):
 * raises a WebhookEvent, runs the listeners registered for that hook, and answers with the first
 * explicit `sendResponse` or, once all have finished, the first returned value (objects as JSON,
 * strings as text). No listener → 404; listeners failing without an answer → 500 (details only in
 * the log); no answer within `backend.http.hook_timeout_seconds` → 504.
 *
 * @example
 * curl -H 'X-Token: secret' -d '{"door": "front"}' -H 'Content-Type: application/json' http://localhost:8008/hook/door
 */
export async function hookRoutes(app: FastifyInstance, service: Service): Promise<void> {
  const origin = service.config.deviceId;
  const errors = { origin, log: service.log.child({ component: 'http' }) };
  const timeoutMs = (service.config.http?.hook_timeout_seconds ?? 30) * 1000;
  // Parsers for form and text bodies live in this encapsulated scope only: /execute stays JSON-only.
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_req, body, done) => done(null, parseForm(String(body))),
    );
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

    // One route a method, each with its operation in the document; the schemas only document
    // them (the listener decides what comes in and what goes out, and the name is checked here
    // with a message that shows it).
    const handler = (req: FastifyRequest, reply: FastifyReply): void => {
      const raw = (req.params as { name: string }).name;
      if (!HOOK_NAME.test(raw)) {
        const shown = raw.length > 40 ? `${raw.slice(0, 40)}…` : raw;
        sendError(
          reply,
          new PipitError(
            'BAD_REQUEST',
            `"${shown}" is not a hook name: use 1 to 128 letters, digits, ".", "_" or "-", as in /hook/door-bell`,
          ),
          errors,
        );
        return;
      }
      const name = raw;
      const event = makeEvent(
        CoreKinds.WebhookEvent,
        {
          hook: name,
          method: req.method,
          args: queryArgs(req.query),
          data: req.body ?? null,
          headers: { ...req.headers },
        },
        origin,
      );
      const listeners = service.events.hooks.matching(event);
      // Parsed from the request under the JSON limits: no need to serialise it to check. Only a
      // hook that has a listener here goes to the other instances (their listeners never run
      // for it): an unauthenticated caller must not fill the shared stream with 404s.
      void service.events.publish(redactWebhookEvent(event), {
        parsed: true,
        local: !listeners.length,
      });
      if (!listeners.length) {
        sendError(
          reply,
          new PipitError('NOT_FOUND', `no listener is registered for hook "${name}"`),
          errors,
        );
        return;
      }

      // Settled by whichever comes first: an explicit answer (it may come synchronously, from
      // inside a listener), every listener finishing, or the timeout; the answer is sent from
      // here. An async handler awaiting a promise settled here cost two promises more a request
      // and their turns.
      let timer: NodeJS.Timeout | undefined;
      let answered = false;
      const settle = (first: HookOutcome[] | HookResponse | 'timeout'): void => {
        if (answered) return;
        answered = true;
        if (timer) clearTimeout(timer);
        ctx.done();
        try {
          if (first === 'timeout') {
            ctx.abort(new PipitError('TIMEOUT', `hook "${name}" timed out`));
            sendError(
              reply,
              new PipitError(
                'TIMEOUT',
                `the listener of hook "${name}" did not answer within ${timeoutMs / 1000} s`,
              ),
              errors,
            );
          } else if (Array.isArray(first)) answerOutcomes(reply, name, first, errors);
          else answer(reply, name, first);
        } catch (err) {
          // An answer that cannot be sent (a body that cannot be JSON): the app's error handler.
          reply.send(err);
        }
      };
      // The first explicit answer wins; later ones, and outcomes after it, are ignored.
      const ctx = new WebhookRunContext(reply.raw, settle);
      const hooks = service.events.hooks;
      // runOne turns a listener's failure into an outcome: neither of these rejects.
      if (listeners.length === 1)
        void hooks.runOne(listeners[0]!, event, ctx).then((o) => settle([o]));
      else void Promise.all(listeners.map((hook) => hooks.runOne(hook, event, ctx))).then(settle);
      if (!answered) timer = setTimeout(settle, timeoutMs, 'timeout');
      // Nothing returned: fastify waits for the reply sent from settle().
    };
    for (const method of HOOK_METHODS)
      scope.route({
        method,
        url: '/hook/:name',
        schema: hookSchema(method),
        ...documentationOnly,
        // Its answers set their security headers themselves, by type (see answer()).
        config: { ownSecurityHeaders: true },
        handler,
      });
  });
}
