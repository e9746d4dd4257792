import { html } from 'lit';
import type { ReactiveController, ReactiveControllerHost, TemplateResult } from 'lit';
import type { NotificationStore } from '../store.js';
import { StoreController } from './store-controller.js';
import type { StoreHost } from './store-controller.js';

const DEBOUNCE_MS = 1000;

/**
 * Announcers that listen for arrivals, per store. Only the first one
 * connected speaks, so a page with a bell and an inline feed says
 * "2 new notifications" once, not twice.
 */
const arrivalListeners = new WeakMap<NotificationStore, Set<AnnouncerController>>();

/**
 * The host's polite status region: `announce(text)` for results of the
 * user's own actions, and arrivals batched into one message per second
 * ("3 new notifications"), never the list itself.
 */
export class AnnouncerController implements ReactiveController {
  text = '';
  #pending = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly host: ReactiveControllerHost & StoreHost,
    private readonly arrivalsMessage: (count: number) => string,
  ) {
    host.addController(this);
    new StoreController(host, (store) => {
      let listeners = arrivalListeners.get(store);
      if (!listeners) arrivalListeners.set(store, (listeners = new Set()));
      listeners.add(this);
      const stop = store.subscribe('arrivals', (count) => {
        if (listeners.values().next().value === this) this.#queue(count);
      });
      return [stop, () => listeners.delete(this)];
    });
  }

  /** Says `text` once in the status region (the same sentence twice is announced twice). */
  announce(text: string): void {
    this.text = '';
    this.host.requestUpdate();
    requestAnimationFrame(() => {
      this.text = text;
      this.host.requestUpdate();
    });
  }

  #queue(count: number): void {
    this.#pending += count;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.announce(this.arrivalsMessage(this.#pending));
      this.#pending = 0;
    }, DEBOUNCE_MS);
  }

  hostDisconnected(): void {
    clearTimeout(this.#timer);
    this.#pending = 0;
  }

  render(): TemplateResult {
    return html`<div class="sr-only" part="status" role="status" aria-live="polite" aria-atomic="true">${this.text}</div>`;
  }
}
