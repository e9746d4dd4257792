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

  constructor(private readonly host: ThemeHost) {
    host.addController(this);
  }

  hostConnected(): void {
    this.hostUpdate();
  }

  hostUpdate(): void {
    const host = this.host;
    const fixed = host.theme === 'light' || host.theme === 'dark' ? host.theme : undefined;
    if (fixed) this.hostDisconnected();
    else this.#stopWatching ??= watchAutoTheme(() => this.hostUpdate());
    const resolved = fixed ?? resolveAutoTheme(host);
    if (host.dataset.resolvedTheme !== resolved) host.dataset.resolvedTheme = resolved;
  }

  hostDisconnected(): void {
    this.#stopWatching?.();
    this.#stopWatching = undefined;
  }
}
