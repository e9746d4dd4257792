import { css } from 'lit';

/*
 * The feed: header, tabs, notices, the list and its items. Item layout: the
 * main link spans the item (a stretched ::after, so its focus ring is drawn
 * inset and never clipped by the list's overflow); actions get their own row
 * under the message; the mark-read/archive/delete controls sit in the time
 * row's end, so hidden or shown they never take width from the text.
 */
export const feedStyles = css`
  .text-button, .icon-button { border: 0; border-radius: 4px; background: transparent; }
  .text-button { padding: 4px 8px; color: var(--_accent); }
  .icon-button { display: inline-flex; padding: 4px; }
  .text-button:hover, .icon-button:hover { background: var(--_hover-bg); }
  .header { display: flex; flex-wrap: wrap; align-items: center; gap: 4px 8px; padding: 10px 12px; border-bottom: 1px solid var(--_border); container-type: inline-size; }
  h2 { flex: 1; margin: 0; font-size: 16px; }
  .toolbar { display: flex; flex-wrap: wrap; align-items: center; gap: 4px; width: 100%; }
  .tabs { display: flex; gap: 4px; margin-inline-end: auto; }
  .tab { padding: 4px 10px; border: 1px solid transparent; border-radius: 999px; background: transparent; color: var(--_muted); }
  .tab[aria-selected='true'] { border-color: var(--_border); background: var(--_hover-bg); color: var(--_fg); font-weight: 600; }
  .list-actions { display: flex; gap: 4px; margin-inline-start: auto; }
  .list-actions button { display: inline-flex; align-items: center; gap: 4px; }
  .list-actions svg { width: 16px; height: 16px; }
  /* Narrow (a phone): icons only; the text stays as the accessible name, and shows while confirming. */
  @container (max-width: 380px) { .list-actions :not(.confirming) > .label { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; } }
  .text-button.danger { color: var(--_danger); }
  .confirming { font-weight: 600; }
  .notice { display: flex; flex-wrap: wrap; align-items: center; gap: 4px 8px; margin: 8px 12px; padding: 6px 8px 6px 12px; border: 1px solid var(--_border); border-inline-start: 4px solid var(--_warning); border-radius: 4px; }
  .notice.alert { border-inline-start-color: var(--_danger); }
  .notice > span { flex: 1; min-width: 12em; }
  .tabpanel { display: flex; flex-direction: column; flex: 1 1 auto; min-height: 0; }
  .scroller { position: relative; flex: 1 1 auto; overflow-y: auto; overscroll-behavior: contain; scroll-padding-block: 6px; max-height: var(--notif-feed-max-height, none); }
  /* Zero height: the pill floats over the list and never moves what is under it. */
  .pill-row { position: sticky; top: 8px; z-index: 2; display: flex; justify-content: center; height: 0; }
  .pill { height: max-content; padding: 4px 14px; border: 0; border-radius: 999px; background: var(--_accent); color: var(--_bg); font-weight: 600; box-shadow: 0 2px 8px rgb(0 0 0 / 0.25); }
  .item { position: relative; border-bottom: 1px solid var(--_border); }
  .item:last-child { border-bottom: 0; }
  .item.unread { background: var(--_unread-bg); }
  .item:hover { background: var(--_hover-bg); }
  .main { display: flex; gap: 10px; width: 100%; padding: 10px 12px 0; border: 0; background: none; text-align: start; text-decoration: none; }
  .main::after { content: ''; position: absolute; inset: 0; }
  .main:focus-visible { outline: none; }
  .main:focus-visible::after { outline: 2px solid var(--_focus); outline-offset: -2px; }
  .main > svg, .main > .custom-icon { flex: none; width: 20px; margin-top: 1px; color: var(--_muted); }
  .body { flex: 1; min-width: 0; }
  .title, .message { display: block; overflow-wrap: anywhere; }
  .title { font-weight: 600; }
  .message { color: var(--_muted); }
  .actions, .meta { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; padding: 6px 12px 0 42px; }
  .meta { justify-content: space-between; padding-block: 2px 6px; min-height: 32px; color: var(--_muted); font-size: 12px; }
  /* Above the stretched link, so they get their own clicks (and the time its tooltip). */
  .action, .controls, time { position: relative; }
  .action { display: inline-flex; align-items: center; gap: 4px; max-width: 100%; padding: 2px 10px; border: 1px solid var(--_border); border-radius: 4px; background: var(--_bg); font-size: 12px; overflow-wrap: anywhere; text-align: start; }
  .action svg, .action i { flex: none; width: 14px; height: 14px; }
  .action[disabled] { opacity: 0.5; cursor: not-allowed; }
  .action.success { color: var(--_success); } .action.danger { color: var(--_danger); }
  .action.warning { color: var(--_warning); } .action.info { color: var(--_info); }
  .controls { display: flex; gap: 2px; margin-inline-start: auto; color: var(--_fg); opacity: 0; }
  .controls svg { width: 16px; height: 16px; }
  /* Revealed on keyboard focus as well as hover: hover-only controls are unreachable. */
  .item:hover .controls, .item:focus-within .controls { opacity: 1; }
  @media (hover: none) { .controls { opacity: 1; } }
  .state { padding: 24px 16px; color: var(--_muted); text-align: center; }
  .load-more { display: block; width: 100%; padding: 10px; border: 0; border-top: 1px solid var(--_border); background: transparent; color: var(--_accent); }
  .load-more:focus-visible, .tab:focus-visible { outline-offset: -2px; }
`;
