import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { resolveAutoTheme, watchAutoTheme } from '../ui/theme.js';

export interface ThemeHost extends ReactiveControllerHost, HTMLElement {
  theme: 'light' | 'dark' | undefined;
}

/**
 * Puts the theme in use on the host as `data-resolved-theme`: the `theme`
 * property when set, else the auto sources, followed live while connected.
 */
export class ThemeController implements ReactiveController {
  #stopWatching: (() => void) | undefined;
  #theme: unknown = null;

  constructor(private readonly host: ThemeHost) {
    host.addController(this);
  }

  hostConnected(): void {
    this.#theme = null;
    this.hostUpdate();
  }

  /** Before each render, but only does work when `theme` changed: auto changes come from the watcher. */
  hostUpdate(): void {
    if (this.host.theme === this.#theme) return;
    this.#theme = this.host.theme;
    const fixed = this.#theme === 'light' || this.#theme === 'dark';
    if (fixed) this.hostDisconnected();
    else this.#stopWatching ??= watchAutoTheme(() => this.#apply());
    this.#apply();
  }

  hostDisconnected(): void {
    this.#stopWatching?.();
    this.#stopWatching = undefined;
  }

  #apply(): void {
    const host = this.host;
    const resolved = host.theme === 'light' || host.theme === 'dark' ? host.theme : resolveAutoTheme(host);
    if (host.dataset.resolvedTheme !== resolved) host.dataset.resolvedTheme = resolved;
  }
}
