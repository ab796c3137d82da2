import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { PipitError } from '../core/errors.ts';
import type { Store } from '../store/store.ts';
import type { TokenRow } from '../store/tokens.ts';
import type { UserRow } from '../store/users.ts';
import type { JwtCodec } from './jwt.ts';
import { checkPasswordPolicy, hashPassword, verifyPassword } from './passwords.ts';
import { CredentialEvents } from './credential-events.ts';
import { LoginThrottle } from './login-throttle.ts';
import type { Caller } from '../core/runs.ts';

/** Who is calling, once authenticated. */
export interface Principal {
  userId: number;
  username: string;
  via: 'token' | 'session' | 'basic';
  tokenId?: string;
  sessionId?: string;
  csrfToken?: string;
  /** When the token or session expires (epoch seconds); absent: never (or Basic, checked apart). */
  expiresAt?: number;
}

/**
 * The run history's view of a principal: the user and how they signed in, with the token's id
 * (never the token). Made once per principal: the guard's cache reuses principals.
 *
 * @example
 * callerOf({ userId: 1, username: 'ada', via: 'token', tokenId: 't1' }); // { user: 'ada', via: 'token', token_id: 't1' }
 */
export function callerOf(principal: Principal): Caller {
  const cached = callers.get(principal);
  if (cached) return cached;
  const caller: Caller = {
    user: principal.username,
    via: principal.via,
    ...(principal.tokenId ? { token_id: principal.tokenId } : {}),
  };
  callers.set(principal, caller);
  return caller;
}
const callers = new WeakMap<Principal, Caller>();

/** An API token as shown to its owner (never the JWT itself, except once at creation). */
export interface TokenInfo {
  id: string;
  name: string;
  created_at: number;
  expires_at: number | null;
  last_used_at: number | null;
}

/** A token just issued: the only time its JWT is visible (`POST /auth`, `POST /tokens`, the CLI). */
export interface IssuedToken {
  token: string;
  id: string;
  name: string;
  expires_at: number | null;
}

const CACHE_MAX = 10_000;
const TOUCH_EVERY_S = 60;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const toInfo = (row: TokenRow): TokenInfo => ({
  id: row.id,
  name: row.name,
  created_at: row.created_at,
  expires_at: row.expires_at,
  last_used_at: row.last_used_at,
});

// A JWT's last segment, its HMAC: unique to the token's content, and 43 characters long.
function signatureOf(token: string): string {
  return token.slice(token.lastIndexOf('.') + 1);
}

/**
 * Users, sessions and API tokens. Verified tokens are cached (expiry and revocation still honoured:
 * revocation clears the cache, and so does any write by another process, seen through SQLite's
 * data_version), so the hot path of `/execute` does no crypto and no database query.
 *
 * @example
 * const auth = new Auth(store, jwt, { sessionDays: 30, loginAttempts: 10 });
 * const user = await auth.checkCredentials('ada', 'secret', '127.0.0.1');
 * const { token } = await auth.issueToken(user, { name: 'cli' });
 */
export class Auth {
  private readonly store: Store;
  private readonly jwt: JwtCodec;
  private readonly sessionSeconds: number;
  private readonly logins: LoginThrottle;
  // Keyed by the token's signature, not the whole token: V8 hashes a string's every character, and
  // a ~300-character key cost ~0.7 µs per request. A hit is then compared with the whole token.
  private readonly cache = new Map<
    string,
    { token: string; principal: Principal; exp: number | null }
  >();
  private readonly touched = new Map<string, number>();
  /** Told whenever credentials stop holding (open WebSockets listen); see {@link CredentialEvents}. */
  readonly credentials = new CredentialEvents();
  private knownUsers = false;

  constructor(store: Store, jwt: JwtCodec, opts: { sessionDays: number; loginAttempts: number }) {
    this.store = store;
    this.jwt = jwt;
    this.sessionSeconds = opts.sessionDays * 86_400;
    this.logins = new LoginThrottle(opts.loginAttempts);
  }

  /**
   * Drops what is cached when another process wrote to the database (at most one look every
   * `Store.CHANGE_CHECK_MS`), and then tells the listeners of {@link Auth.credentials}.
   */
  noticeOtherProcesses(): void {
    if (this.store.changedElsewhere()) {
      this.cache.clear();
      this.knownUsers = false;
      this.credentials.emit({ kind: 'elsewhere' });
    }
  }

  /** True once a user exists (a positive answer is cached; users are rarely all removed). */
  hasUsers(): boolean {
    // Once users exist, verifyToken() notices other processes' writes; before, look every time.
    if (!this.knownUsers) this.noticeOtherProcesses();
    if (!this.knownUsers) this.knownUsers = this.store.users.count() > 0;
    return this.knownUsers;
  }

  /** Creates a user (CLI, or registration while none exists). */
  async addUser(username: string, password: unknown): Promise<UserRow> {
    checkPasswordPolicy(password);
    if (this.store.users.byName(username))
      throw new PipitError('CONFLICT', `a user named "${username}" already exists`);
    return this.store.users.create(username, await hashPassword(password));
  }

  /**
   * First-visit registration: only while no user exists. The check that no user exists and the
   * insert are one atomic statement, so concurrent registrations (or one racing `pipit user add`)
   * create at most one account.
   */
  async register(username: string, password: unknown): Promise<UserRow> {
    const closed = () =>
      new PipitError(
        'FORBIDDEN',
        'registration is closed: a user already exists (add more with "pipit user add")',
      );
    if (this.hasUsers()) throw closed();
    checkPasswordPolicy(password);
    const user = this.store.users.createFirst(username, await hashPassword(password));
    // Either way a user exists now: this one, or the one that won the race.
    this.knownUsers = true;
    if (!user) throw closed();
    return user;
  }

  async setPassword(userId: number, password: unknown): Promise<void> {
    checkPasswordPolicy(password);
    this.store.users.setPassword(userId, await hashPassword(password));
    this.store.sessions.removeForUser(userId);
    this.credentials.emit({ kind: 'user', userId });
  }

  removeUser(userId: number): boolean {
    const removed = this.store.users.remove(userId);
    this.cache.clear();
    this.knownUsers = false;
    this.credentials.emit({ kind: 'user', userId });
    return removed;
  }

  /**
   * Checks a user name and password, throttled (see {@link LoginThrottle}): over a limit the answer
   * is RATE_LIMITED with the seconds to wait, whatever the password.
   */
  async checkCredentials(username: unknown, password: unknown, client: string): Promise<UserRow> {
    if (typeof username !== 'string' || !username || typeof password !== 'string' || !password) {
      throw new PipitError(
        'BAD_REQUEST',
        'send a JSON body {"username": "...", "password": "..."}',
      );
    }
    const name = username.toLowerCase();
    const wait = this.logins.wait(name, client);
    if (wait > 0) {
      throw new PipitError('RATE_LIMITED', `too many failed logins: try again in ${wait} seconds`, {
        details: { retryAfter: wait },
      });
    }
    const user = this.store.users.byName(username);
    if (!(await verifyPassword(user?.password_hash, password)) || !user) {
      this.logins.failed(name, client);
      throw new PipitError('UNAUTHORIZED', 'wrong user name or password');
    }
    this.logins.succeeded(name, client);
    return user;
  }

  /** Starts a web UI session; the secret goes in an HttpOnly cookie, only its hash is stored. */
  createSession(user: UserRow): { secret: string; csrfToken: string; expiresAt: number } {
    const secret = randomBytes(32).toString('base64url');
    const csrfToken = randomBytes(24).toString('base64url');
    const expiresAt = Date.now() / 1000 + this.sessionSeconds;
    this.store.sessions.create({
      id: sha256(secret),
      user_id: user.id,
      csrf_token: csrfToken,
      expires_at: expiresAt,
    });
    return { secret, csrfToken, expiresAt };
  }

  sessionPrincipal(secret: string | undefined): Principal | undefined {
    if (!secret || secret.length > 128) return undefined;
    const id = sha256(secret);
    const session = this.store.sessions.get(id);
    if (!session) return undefined;
    const user = this.store.users.byId(session.user_id);
    if (!user) return undefined;
    return {
      userId: user.id,
      username: user.username,
      via: 'session',
      sessionId: id,
      csrfToken: session.csrf_token,
      expiresAt: session.expires_at,
    };
  }

  /** Ends a session (logout); its open WebSockets are told through {@link Auth.credentials}. */
  endSession(sessionId: string): void {
    this.store.sessions.remove(sessionId);
    this.credentials.emit({ kind: 'session', sessionId });
  }

  /** Issues a JWT recorded in the database (so it can be listed and revoked). */
  async issueToken(
    user: Pick<UserRow, 'id' | 'username'>,
    opts: { name?: string | undefined; expiryDays?: number | null | undefined },
  ): Promise<IssuedToken> {
    const days = opts.expiryDays ?? null;
    if (
      days !== null &&
      (typeof days !== 'number' || !Number.isFinite(days) || days <= 0 || days > 3650)
    ) {
      throw new PipitError(
        'INVALID_ARGUMENTS',
        `"expiry_days" must be a number of days from 0 to 3650 (or null for no expiry); got ${JSON.stringify(days)}`,
      );
    }
    const id = randomUUID();
    const expiresAt = days === null ? null : Math.floor(Date.now() / 1000 + days * 86_400);
    // Unnamed tokens are told apart by when they were made (to the second, UTC).
    const name =
      (opts.name ?? '').trim() ||
      `token-${new Date().toISOString().slice(0, 19).replace('T', '-').replaceAll(':', '')}`;
    if (name.length > 100)
      throw new PipitError('INVALID_ARGUMENTS', 'the token name must be at most 100 characters');
    const token = await this.jwt.sign({
      sub: user.username,
      uid: user.id,
      jti: id,
      ...(expiresAt ? { exp: expiresAt } : {}),
    });
    this.store.tokens.create({ id, user_id: user.id, name, expires_at: expiresAt });
    return { token, id, name, expires_at: expiresAt };
  }

  /** Verifies a bearer token: UNAUTHORIZED when garbled, expired, revoked or its user is gone. */
  async verifyToken(token: string): Promise<Principal> {
    const known = this.cachedToken(token);
    if (known) return known;
    const now = Date.now() / 1000;
    const claims = await this.jwt.verify(token);
    const row = this.store.tokens.get(claims.jti);
    if (!row) throw new PipitError('UNAUTHORIZED', 'the token has been revoked: create a new one');
    const user = this.store.users.byId(row.user_id);
    if (!user)
      throw new PipitError('UNAUTHORIZED', 'the token belongs to a user that no longer exists');
    const principal: Principal = {
      userId: user.id,
      username: user.username,
      via: 'token',
      tokenId: row.id,
      ...(row.expires_at === null ? {} : { expiresAt: row.expires_at }),
    };
    if (this.cache.size >= CACHE_MAX) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(signatureOf(token), { token, principal, exp: claims.exp ?? null });
    this.touch(row.id, now);
    return principal;
  }

  /**
   * The principal of a token verified before, still unexpired and unrevoked; undefined when it
   * needs a full {@link Auth.verifyToken}. Synchronous, for the request hot path.
   */
  cachedToken(token: string): Principal | undefined {
    this.noticeOtherProcesses();
    const key = signatureOf(token);
    const cached = this.cache.get(key);
    if (!cached || cached.token !== token) return undefined;
    const now = Date.now() / 1000;
    if (cached.exp !== null && cached.exp <= now) {
      this.cache.delete(key);
      return undefined;
    }
    this.touch(cached.principal.tokenId!, now);
    return cached.principal;
  }

  // Recording "last used" on every request would put a database write on the hot path.
  private touch(tokenId: string, now: number): void {
    const last = this.touched.get(tokenId) ?? 0;
    if (now - last < TOUCH_EVERY_S) return;
    this.touched.set(tokenId, now);
    this.store.tokens.touch(tokenId, now);
  }

  listTokens(userId: number): TokenInfo[] {
    return this.store.tokens.listForUser(userId).map(toInfo);
  }

  /** Revokes one of the user's tokens; it gets 401 at once, and listeners (WebSockets) are told. */
  revokeToken(userId: number, tokenId: string): void {
    const row = this.store.tokens.get(tokenId);
    if (!row || row.user_id !== userId)
      throw new PipitError('NOT_FOUND', `no token with id "${tokenId}" for this user`);
    this.store.tokens.revoke(tokenId);
    this.cache.clear();
    this.credentials.emit({ kind: 'token', tokenId });
  }
}
