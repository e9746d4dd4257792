import { svg } from 'lit';
import type { SVGTemplateResult } from 'lit';

/** The bell's own icon, in the main file; the list's icons (icons.ts) come with the feed's view. */
export const bellPath = svg`<path d="M6 16V11a6 6 0 0 1 12 0v5l2 2H4zM10 20a2 2 0 0 0 4 0"/>`;

/** A 24x24 stroke icon that inherits currentColor. */
export function svgIcon(path: SVGTemplateResult): SVGTemplateResult {
  return svg`<svg viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false">${path}</svg>`;
}
