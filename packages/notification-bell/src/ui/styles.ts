import { css } from 'lit';

// Public theming surface: the --notif-* custom properties and the ::part names (see README).
// The feed's own rules are in feed/feed-styles.ts, loaded with the feed's code (see feed/feed-loader.ts).

/** Theme variables and shared controls, for both elements. */
export const baseStyles = css`
  :host {
    --_bg: var(--notif-bg, #fff);
    --_fg: var(--notif-fg, #1f2328);
    --_muted: var(--notif-muted, #59636e);
    --_border: var(--notif-border, #d1d9e0);
    --_accent: var(--notif-accent, #0969da);
    --_unread-bg: var(--notif-unread-bg, #ddf4ff);
    --_hover-bg: var(--notif-hover-bg, #f6f8fa);
    --_badge-bg: var(--notif-badge-bg, #cf222e);
    --_badge-fg: var(--notif-badge-fg, #fff);
    --_focus: var(--notif-focus-ring, #0969da);
    --_success: var(--notif-success, #1a7f37);
    --_danger: var(--notif-danger, #cf222e);
    --_warning: var(--notif-warning, #9a6700);
    --_info: var(--notif-info, #0969da);
    --_backdrop: var(--notif-backdrop, rgb(0 0 0 / 0.4));
    font: var(--notif-font, 14px/1.4 system-ui, sans-serif);
    color: var(--_fg);
  }
  :host([data-resolved-theme='dark']) {
    --_bg: var(--notif-bg, #0d1117);
    --_fg: var(--notif-fg, #f0f6fc);
    --_muted: var(--notif-muted, #9198a1);
    --_border: var(--notif-border, #3d444d);
    --_accent: var(--notif-accent, #4493f8);
    --_unread-bg: var(--notif-unread-bg, #12263f);
    --_hover-bg: var(--notif-hover-bg, #151b23);
    --_badge-bg: var(--notif-badge-bg, #da3633);
    --_focus: var(--notif-focus-ring, #4493f8);
    --_success: var(--notif-success, #3fb950);
    --_danger: var(--notif-danger, #f85149);
    --_warning: var(--notif-warning, #d29922);
    --_info: var(--notif-info, #4493f8);
  }
  *, ::before, ::after { box-sizing: border-box; }
  button, a { font: inherit; color: inherit; }
  button { cursor: pointer; }
  :focus-visible { outline: 2px solid var(--_focus); outline-offset: 2px; }
  .sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
`;

/** The bell button, badge, dropdown and side panel. */
export const bellStyles = css`
  :host { position: relative; display: inline-block; }
  .bell { position: relative; display: inline-flex; padding: 8px; border: 0; border-radius: 50%; background: transparent; color: var(--notif-bell-color, currentColor); }
  .bell:hover { background: var(--_hover-bg); }
  .badge { position: absolute; top: 0; inset-inline-end: 0; min-width: 18px; padding: 0 4px; border-radius: 9px; background: var(--_badge-bg); color: var(--_badge-fg); font-size: 11px; font-weight: 600; line-height: 18px; text-align: center; }
  .panel { position: absolute; top: calc(100% + 4px); inset-inline-end: 0; z-index: var(--notif-z-index, 1000); display: flex; flex-direction: column; width: var(--notif-width, 360px); max-width: calc(100vw - 16px); max-height: var(--notif-max-height, 480px); background: var(--_bg); color: var(--_fg); border: 1px solid var(--_border); border-radius: var(--notif-radius, 8px); box-shadow: var(--notif-shadow, 0 8px 24px rgb(0 0 0 / 0.2)); overflow: hidden; }
  :host([position='left']) .panel { inset-inline-end: auto; inset-inline-start: 0; }
  :host([mode='panel']) .panel { position: fixed; top: 0; bottom: 0; inset-inline-end: 0; inset-inline-start: auto; max-width: 100vw; max-height: none; height: 100vh; border-radius: 0; animation: slide 0.2s ease-out; }
  .backdrop { position: fixed; inset: 0; z-index: calc(var(--notif-z-index, 1000) - 1); background: var(--_backdrop); }
  .panel[hidden], .backdrop[hidden] { display: none; }
  @keyframes slide { from { transform: translateX(100%); } }
  @media (prefers-reduced-motion: reduce) { .panel { animation: none; } }
`;

/** The inline feed: a bordered box in the page's flow. */
export const inlineFeedStyles = css`
  :host { display: flex; flex-direction: column; background: var(--_bg); border: 1px solid var(--_border); border-radius: var(--notif-radius, 8px); overflow: hidden; }
  :host([hidden]) { display: none; }
`;
