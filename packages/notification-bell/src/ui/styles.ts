import { css } from 'lit';

// Public theming surface: the --notif-* custom properties and the ::part names (see README).
export const bellStyles = css`
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
    position: relative;
    display: inline-block;
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
  button, a { font: inherit; color: inherit; }
  :focus-visible { outline: 2px solid var(--_focus); outline-offset: 2px; }
  .sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
  .bell { position: relative; display: inline-flex; padding: 8px; border: 0; border-radius: 50%; background: transparent; color: var(--notif-bell-color, currentColor); cursor: pointer; }
  .bell:hover { background: var(--_hover-bg); }
  .badge { position: absolute; top: 0; inset-inline-end: 0; min-width: 18px; padding: 0 4px; border-radius: 9px; background: var(--_badge-bg); color: var(--_badge-fg); font-size: 11px; font-weight: 600; line-height: 18px; text-align: center; box-sizing: border-box; }
  .panel { position: absolute; top: calc(100% + 4px); inset-inline-end: 0; z-index: var(--notif-z-index, 1000); display: flex; flex-direction: column; width: var(--notif-width, 360px); max-width: calc(100vw - 16px); max-height: var(--notif-max-height, 480px); background: var(--_bg); color: var(--_fg); border: 1px solid var(--_border); border-radius: var(--notif-radius, 8px); box-shadow: var(--notif-shadow, 0 8px 24px rgb(0 0 0 / 0.2)); overflow: hidden; }
  :host([position='left']) .panel { inset-inline-end: auto; inset-inline-start: 0; }
  :host([mode='panel']) .panel { position: fixed; top: 0; bottom: 0; inset-inline-end: 0; inset-inline-start: auto; max-height: none; height: 100vh; border-radius: 0; animation: slide 0.2s ease-out; }
  .backdrop { position: fixed; inset: 0; z-index: calc(var(--notif-z-index, 1000) - 1); background: var(--_backdrop); }
  .panel[hidden], .backdrop[hidden] { display: none; }
  .header { display: flex; align-items: center; gap: 8px; padding: 12px 16px; border-bottom: 1px solid var(--_border); }
  h2 { flex: 1; margin: 0; font-size: 16px; }
  .text-button { padding: 4px 8px; border: 0; border-radius: 4px; background: transparent; color: var(--_accent); cursor: pointer; }
  .text-button:hover, .icon-button:hover { background: var(--_hover-bg); }
  .icon-button { display: inline-flex; padding: 4px; border: 0; border-radius: 4px; background: transparent; cursor: pointer; }
  .feed { flex: 1; margin: 0; padding: 0; overflow-y: auto; }
  .item { position: relative; display: flex; gap: 4px; border-bottom: 1px solid var(--_border); }
  .item.unread { background: var(--_unread-bg); }
  .item:hover { background: var(--_hover-bg); }
  .main { display: flex; flex: 1; gap: 12px; min-width: 0; padding: 12px 16px; border: 0; background: none; text-align: start; text-decoration: none; cursor: pointer; }
  .main > svg, .main > .custom-icon { flex: none; margin-top: 2px; color: var(--_muted); }
  .body { min-width: 0; }
  .title { display: block; font-weight: 600; }
  .message { display: block; color: var(--_muted); overflow-wrap: anywhere; }
  time { display: block; margin-top: 2px; color: var(--_muted); font-size: 12px; }
  .actions { display: flex; flex-wrap: wrap; align-items: flex-start; gap: 4px; padding: 8px 8px 8px 0; opacity: 0; }
  /* Revealed on keyboard focus as well as hover: hover-only actions are unreachable. */
  .item:hover .actions, .item:focus-within .actions { opacity: 1; }
  @media (hover: none) { .actions { opacity: 1; } }
  .action { padding: 2px 8px; border: 1px solid var(--_border); border-radius: 4px; background: var(--_bg); cursor: pointer; font-size: 12px; }
  .action[disabled] { opacity: 0.5; cursor: not-allowed; }
  .action.success { color: var(--_success); } .action.danger { color: var(--_danger); }
  .action.warning { color: var(--_warning); } .action.info { color: var(--_info); }
  .state { padding: 24px 16px; color: var(--_muted); text-align: center; }
  .load-more { display: block; width: 100%; padding: 10px; border: 0; border-top: 1px solid var(--_border); background: transparent; color: var(--_accent); cursor: pointer; }
  @keyframes slide { from { transform: translateX(100%); } }
  @media (prefers-reduced-motion: reduce) { *, .panel { animation: none !important; transition: none !important; } }
`;
