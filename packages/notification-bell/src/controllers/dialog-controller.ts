import type { ReactiveController, ReactiveElement } from 'lit';
import { deepActiveElement, focusableIn } from '../ui/focus.js';

interface DialogHost extends ReactiveElement {
  open: boolean;
  hide(returnFocus?: boolean): void;
}

interface DialogParts {
  /** The dialog element (`.panel`). */
  panel(): HTMLElement | null;
  /** Panel mode: modal, so Tab is trapped and the page does not scroll behind it. */
  modal(): boolean;
  /** Where focus goes on opening (the first item, else the heading). */
  initialFocus(): HTMLElement | null;
}

/**
 * The dialog's focus behaviour: focus moves in on open (the host's `hide()`
 * returns it to the bell); Escape closes from anywhere inside (listened for on the shadow
 * root, so it works whatever is focused, even after a re-render); Tab is
 * trapped in panel mode; the dropdown (non-modal) closes when focus or a
 * pointer leaves it.
 */
export class DialogController implements ReactiveController {
  #wasOpen = false;

  constructor(
    private readonly host: DialogHost,
    private readonly parts: DialogParts,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    this.host.renderRoot.addEventListener('keydown', this.#onKeydown as EventListener);
    this.host.addEventListener('focusout', this.#onFocusOut);
    document.addEventListener('pointerdown', this.#onPointerDown, true);
  }

  hostDisconnected(): void {
    this.host.renderRoot.removeEventListener('keydown', this.#onKeydown as EventListener);
    this.host.removeEventListener('focusout', this.#onFocusOut);
    document.removeEventListener('pointerdown', this.#onPointerDown, true);
    this.#lockScroll(false);
    this.#wasOpen = false;
  }

  hostUpdated(): void {
    const open = this.host.open;
    if (open === this.#wasOpen) return;
    this.#wasOpen = open;
    this.#lockScroll(open && this.parts.modal());
    if (open) (this.parts.initialFocus() ?? this.parts.panel())?.focus();
  }

  #lockScroll(lock: boolean): void {
    document.documentElement.style.overflow = lock ? 'hidden' : '';
  }

  readonly #onPointerDown = (event: PointerEvent) => {
    if (this.host.open && !this.parts.modal() && !event.composedPath().includes(this.host)) this.host.hide(false);
  };

  readonly #onFocusOut = (event: FocusEvent) => {
    // Only a move to a known element outside closes it: focus lost to a re-render (relatedTarget null) does not.
    const next = event.relatedTarget;
    if (this.host.open && !this.parts.modal() && next instanceof Node && next !== this.host && !this.host.contains(next) && !this.host.renderRoot.contains(next)) {
      this.host.hide(false);
    }
  };

  readonly #onKeydown = (event: KeyboardEvent) => {
    if (!this.host.open) return;
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      this.host.hide(true);
    } else if (event.key === 'Tab' && this.parts.modal()) {
      this.#trapTab(event);
    }
  };

  #trapTab(event: KeyboardEvent): void {
    const panel = this.parts.panel();
    if (!panel) return;
    const focusable = focusableIn(panel);
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    const active = deepActiveElement(this.host.renderRoot as ShadowRoot);
    if (!first || !last) {
      event.preventDefault();
      return;
    }
    const outside = !active || !panel.contains(active);
    if (event.shiftKey ? active === first || outside : active === last || outside) {
      event.preventDefault();
      (event.shiftKey ? last : first).focus();
    }
  }
}
