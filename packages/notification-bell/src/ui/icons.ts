import { svg } from 'lit';
import type { SVGTemplateResult } from 'lit';
import { bellPath, svgIcon } from './bell-icon.js';

// Simple 24x24 stroke icons drawn for this package; they inherit currentColor. The list's icons load
// with the feed's view; only the bell's own is in the main file (bell-icon.ts).
const paths = {
  bell: bellPath,
  post: svg`<path d="M5 3h10l4 4v14H5zM8 10h8M8 14h8M8 18h5"/>`,
  user: svg`<circle cx="12" cy="8" r="4"/><path d="M4 21a8 8 0 0 1 16 0"/>`,
  message: svg`<path d="M4 5h16v11H9l-5 4z"/>`,
  alert: svg`<path d="M12 3 2 20h20zM12 10v4M12 17v.5"/>`,
  check: svg`<path d="m5 12 5 5 9-10"/>`,
  checks: svg`<path d="m2 12 5 5 9-10M12 16l1 1 9-10"/>`,
  info: svg`<circle cx="12" cy="12" r="9"/><path d="M12 11v6M12 7.5V8"/>`,
  close: svg`<path d="m6 6 12 12M18 6 6 18"/>`,
  trash: svg`<path d="M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13"/>`,
  archive: svg`<path d="M3 4h18v4H3zM5 8v12h14V8M10 12h4"/>`,
  unread: svg`<circle cx="12" cy="12" r="8"/><circle cx="12" cy="12" r="3" fill="currentColor"/>`,
} satisfies Record<string, SVGTemplateResult>;

export type BuiltInIcon = keyof typeof paths;

export function isBuiltInIcon(name: string | null | undefined): name is BuiltInIcon {
  return typeof name === 'string' && Object.hasOwn(paths, name);
}

export function icon(name: BuiltInIcon): SVGTemplateResult {
  return svgIcon(paths[name]);
}
