import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { controlPrefix } from './control-prefix.js';
import type { ControlGuard, SessionCheck } from './control-guard.js';
import { answerText, pageHeaders, type DashboardFiles } from './dashboard-files.js';

/**
 * Signing a browser in to the dashboard (`/__sandbox/ui/`). The link printed at start carries the control token in
 * its fragment (`#token=...`), which a browser never sends: the token is in no request line and no server log. The
 * sign-in page's script (a file, not inline: the page's CSP allows no inline script) takes it out of the address bar
 * and the history entry, posts it as JSON, and the answer sets a session cookie: a random identifier, never the
 * token, `HttpOnly` (no script reads it), `SameSite=Strict` (no other site's request carries it), for `/__sandbox`
 * only. Every answer here needs a `Host` that names this sandbox (no DNS rebinding) and comes from no other origin.
 */

export const uiPrefix = `${controlPrefix}/ui`;
export const sessionCookie = 'paykit_sandbox_session';

/** How long a session lasts (real time): a working day. OUR choice. */
const sessionLifetimeMs = 12 * 3_600_000;
/** At most this many sessions at once; the oldest goes first. */
const maxSessions = 64;

const signInPage = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Payments sandbox: sign in</title>
<script src="${uiPrefix}/sign-in.js" defer></script>
</head>
<body>
<main>
<h1>Payments sandbox</h1>
<p id="status" role="status">Signing in…</p>
<noscript>The dashboard needs JavaScript.</noscript>
</main>
</body>
</html>
`;

// Reads the token from the fragment, removes it from the address bar and the history entry at once, trades it for
// the session cookie, and loads the dashboard without it.
const signInScript = `'use strict';
(function () {
  var status = document.getElementById('status');
  var token = new URLSearchParams(location.hash.slice(1)).get('token');
  history.replaceState(null, '', location.pathname);
  if (!token) {
    status.textContent = 'Not signed in. Open the dashboard link the sandbox printed at start (it ends in #token=...).';
    return;
  }
  fetch('${uiPrefix}/session', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ token: token })
  }).then(function (response) {
    if (response.ok) return location.replace('${uiPrefix}/');
    status.textContent = response.status === 401
      ? 'This link does not carry this sandbox\\'s control token. Open the link the sandbox printed at start.'
      : 'Sign-in refused (' + response.status + ').';
  }, function () {
    status.textContent = 'The sandbox did not answer.';
  });
})();
`;

export class UiSessions implements SessionCheck {
  /** Session identifier -> when it ends (real time). */
  private readonly sessions = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  create(): string {
    const id = randomBytes(32).toString('base64url');
    if (this.sessions.size >= maxSessions) this.sessions.delete(this.sessions.keys().next().value!);
    this.sessions.set(id, this.now() + sessionLifetimeMs);
    return id;
  }

  has(cookieHeader: string | undefined): boolean {
    const id = sessionOf(cookieHeader);
    if (id === undefined) return false;
    const ends = this.sessions.get(id);
    if (ends === undefined) return false;
    if (this.now() < ends) return true;
    this.sessions.delete(id);
    return false;
  }

  end(cookieHeader: string | undefined): void {
    const id = sessionOf(cookieHeader);
    if (id !== undefined) this.sessions.delete(id);
  }

  get size(): number {
    return this.sessions.size;
  }
}

function sessionOf(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(';')) {
    const [name, ...value] = part.split('=');
    if (name?.trim() === sessionCookie) return value.join('=').trim();
  }
  return undefined;
}

/**
 * No `Secure`: the sandbox serves plain http (it has no TLS of its own), and a browser keeps a `Secure` cookie for
 * https only (some browsers make an exception for `localhost`, not for a team's host name), so the dashboard would
 * sign a browser in and then not know it. `SameSite=Strict`, the Host allow-list and the same-origin checks guard it
 * instead; behind an https proxy, the proxy is where `Secure` would be added.
 */
const cookieAttributes = `Path=${controlPrefix}; HttpOnly; SameSite=Strict`;

async function readSmallBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export interface UiParts {
  guard: ControlGuard;
  sessions: UiSessions;
  files: DashboardFiles;
}

/** Answers every request under `/__sandbox/ui`. */
export function createUiHandler({ guard, sessions, files }: UiParts) {
  return async function handleUiRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const path = new URL(req.url ?? '/', 'http://sandbox').pathname;
    const refuse = (status: number, text: string) => {
      if (!req.readableEnded) req.resume();
      answerText(res, status, text);
    };
    if (!guard.namesThisSandbox(req.headers.host)) return refuse(403, 'The dashboard answers only at an address of this sandbox (Host).');
    const origin = req.headers.origin;
    const site = req.headers['sec-fetch-site'];
    // A request another site made (a link, a form, a script of its page) gets nothing; typing or pasting the link is `none`.
    if ((origin !== undefined && !guard.ownOrigin(origin)) || (site !== undefined && site !== 'same-origin' && site !== 'none')) {
      return refuse(403, 'The dashboard takes no request from another site. Open the link the sandbox printed at start.');
    }
    if (path === uiPrefix) return void res.writeHead(308, { ...pageHeaders, Location: `${uiPrefix}/`, 'Content-Length': '0' }).end();
    // `/__sandbox/ui/../x` is read as `/x`: not the dashboard's.
    if (!path.startsWith(`${uiPrefix}/`)) return refuse(404, 'no such page of the dashboard');
    const relative = path.slice(uiPrefix.length + 1);

    if (relative === 'session') {
      if (method !== 'POST' && method !== 'DELETE') return refuse(405, 'POST (sign in) or DELETE (sign out)');
      if (origin === undefined) return refuse(403, 'Signing in or out must carry the page\'s Origin.');
      if (method === 'DELETE') {
        sessions.end(req.headers.cookie);
        req.resume();
        return void res.writeHead(204, { ...pageHeaders, 'Cache-Control': 'no-store', 'Set-Cookie': `${sessionCookie}=; ${cookieAttributes}; Max-Age=0` }).end();
      }
      const type = req.headers['content-type']?.split(';')[0]!.trim().toLowerCase();
      if (type !== 'application/json') return refuse(415, 'Sign in with a JSON body: {"token": "<control token>"}.');
      const text = await readSmallBody(req, 4096);
      let token: unknown;
      try {
        token = text === undefined ? undefined : (JSON.parse(text) as { token?: unknown })?.token;
      } catch {
        token = undefined;
      }
      if (typeof token !== 'string' || !guard.matches(token)) return answerText(res, 401, 'That is not this sandbox\'s control token.');
      const id = sessions.create();
      return void res
        .writeHead(204, { ...pageHeaders, 'Cache-Control': 'no-store', 'Set-Cookie': `${sessionCookie}=${id}; ${cookieAttributes}; Max-Age=${sessionLifetimeMs / 1000}` })
        .end();
    }
    if (method !== 'GET' && method !== 'HEAD') return refuse(405, 'The dashboard\'s files are read with GET.');
    if (relative === 'sign-in.js') {
      const body = Buffer.from(signInScript);
      return void res
        .writeHead(200, { ...pageHeaders, 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-cache', 'Content-Length': String(body.length) })
        .end(method === 'HEAD' ? undefined : body);
    }
    if (!sessions.has(req.headers.cookie)) {
      if (relative !== '' && relative !== 'index.html') return refuse(401, 'Sign in first: open the dashboard link the sandbox printed at start.');
      const body = Buffer.from(signInPage);
      return void res
        .writeHead(200, { ...pageHeaders, 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'Content-Length': String(body.length) })
        .end(method === 'HEAD' ? undefined : body);
    }
    await files.serve(res, relative, method, req.headers['if-none-match']);
  };
}
