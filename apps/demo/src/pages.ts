import { NOTIFICATION_ICONS } from '@org/notifications';
import type { RealtimeOptions } from './options.js';
import { RawHtml, html } from './html.js';
import type { Session } from './session.js';

export type Theme = 'auto' | 'light' | 'dark';
export type BellMode = 'dropdown' | 'panel';

export const THEMES: readonly Theme[] = ['auto', 'light', 'dark'];

interface LayoutOptions {
  title: string;
  theme: Theme;
  importMap?: string;
  csrfToken?: string;
  head?: RawHtml;
  header?: RawHtml;
  body: RawHtml;
}

function layout(o: LayoutOptions): string {
  return html`<!doctype html>
<html lang="en"${o.theme === 'auto' ? '' : html` data-theme="${o.theme}"`}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${o.csrfToken ? html`<meta name="csrfToken" content="${o.csrfToken}">` : ''}
<title>${o.title} · Realtime demo</title>
<link rel="icon" href="/assets/demo/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/assets/demo/demo.css">
${o.importMap ? html`<script type="importmap">${rawJson(o.importMap)}</script>` : ''}
${o.head}
</head>
<body>
<header class="app-header">
  <a class="brand" href="/">Realtime demo</a>
  ${o.header}
</header>
<main id="main">
${o.body}
</main>
</body>
</html>
`.value;
}

/** JSON inside <script>: only `</` could end the element early. */
function rawJson(json: string): RawHtml {
  return new RawHtml(json.replace(/<\//g, '<\\/'));
}

export function loginPage(): string {
  return layout({
    title: 'Sign in',
    theme: 'auto',
    body: html`<h1>Sign in</h1>
<p>This demo has one user. Signing in sets a session cookie; the page then gets a CSRF token that the bell sends with every change.</p>
<form method="post" action="/login"><button type="submit" class="primary">Sign in as Ada Lovelace</button></form>`,
  });
}

export interface BellPageOptions {
  session: Session;
  mode: BellMode;
  theme: Theme;
  polling: boolean;
  importMap: string;
  realtime: RealtimeOptions;
}

export function bellPage(o: BellPageOptions): string {
  const broadcasting = JSON.stringify({
    broadcaster: 'ws-channels',
    wsKey: o.realtime.key,
    wsHost: o.realtime.wsHost,
    wsPort: o.realtime.wsPort,
    forceTLS: false,
    authEndpoint: '/broadcasting/auth',
  });
  const modeLink = (mode: BellMode, label: string, href: string) =>
    html`<a href="${href}"${o.mode === mode ? html` aria-current="page"` : ''}>${label}</a>`;
  const query = (mode: BellMode) => {
    const params = new URLSearchParams();
    if (o.theme !== 'auto') params.set('theme', o.theme);
    if (!o.polling) params.set('polling', 'off');
    const search = params.toString();
    return `${mode === 'panel' ? '/panel' : '/'}${search ? `?${search}` : ''}`;
  };

  return layout({
    title: o.mode === 'panel' ? 'Panel mode' : 'Dropdown mode',
    theme: o.theme,
    importMap: o.importMap,
    csrfToken: o.session.csrfToken,
    head: html`<script type="module" src="/assets/notification-bell/define.js"></script>
<script type="module" src="/assets/demo/demo.js"></script>`,
    header: html`<nav aria-label="Bell mode">${modeLink('dropdown', 'Dropdown', query('dropdown'))} ${modeLink('panel', 'Panel', query('panel'))}</nav>
  <span class="user">${o.session.user.name}</span>
  <notification-bell
    mode="${o.mode}"
    user-id="${o.session.user.id}"
    user-name="${o.session.user.name}"
    per-page="5"
    enable-polling="${String(o.polling)}"
    broadcasting="${broadcasting}"></notification-bell>
  <form method="post" action="/logout"><button type="submit">Sign out</button></form>`,
    body: html`<h1>${o.mode === 'panel' ? 'Panel mode' : 'Dropdown mode'}</h1>
<p>The bell loads your notifications from the JSON API (embedded PGlite) and gets new ones live from the realtime daemon over pusher-js${o.polling ? ', with polling as a fallback' : ' (polling is off)'}.</p>

<fieldset class="theme-switch">
  <legend>Theme</legend>
  ${THEMES.map(
    (theme) => html`<label><input type="radio" name="theme" value="${theme}"${o.theme === theme ? html` checked` : ''}> ${theme === 'auto' ? 'Auto (system)' : theme === 'light' ? 'Light' : 'Dark'}</label>`,
  )}
</fieldset>

<section aria-labelledby="send-title">
<h2 id="send-title">Send a notification</h2>
<p>Stored in the database and pushed live through the daemon to every open tab.</p>
<form id="send-form" method="post" action="/demo/notifications">
  <input type="hidden" name="_csrf" value="${o.session.csrfToken}">
  <label for="send-title-input">Title</label>
  <input id="send-title-input" name="title" required maxlength="200" value="Build finished">
  <label for="send-message">Message</label>
  <textarea id="send-message" name="message" maxlength="1000" rows="2">All 42 checks passed.</textarea>
  <label for="send-icon">Icon</label>
  <select id="send-icon" name="icon">${NOTIFICATION_ICONS.map((icon) => html`<option value="${icon}"${icon === 'check' ? html` selected` : ''}>${icon}</option>`)}</select>
  <label for="send-url">Link (optional)</label>
  <input id="send-url" name="action_url" placeholder="/inbox/build" value="/inbox/build">
  <button type="submit" class="primary">Send</button>
</form>
<p id="send-status" role="status"></p>
</section>

<section aria-labelledby="data-title">
<h2 id="data-title">Demo data</h2>
<div class="row">
  <button type="button" id="delete-all">Delete all notifications</button>
  <form method="post" action="/demo/reset"><input type="hidden" name="_csrf" value="${o.session.csrfToken}"><button type="submit">Reset demo data</button></form>
</div>
</section>`,
  });
}

export function targetPage(slug: string, theme: Theme): string {
  return layout({
    title: 'Notification target',
    theme,
    body: html`<h1>You followed a notification</h1>
<p>This is where the notification's link (<code>/inbox/${slug}</code>) leads.</p>
<p><a href="/">Back to the demo</a></p>`,
  });
}
