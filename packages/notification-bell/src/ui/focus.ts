const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Focusable descendants in DOM order, including slotted light-DOM content. */
export function focusableIn(root: Element): HTMLElement[] {
  const result: HTMLElement[] = [];
  const visit = (element: Element) => {
    if (element instanceof HTMLSlotElement) {
      for (const assigned of element.assignedElements({ flatten: true })) visit(assigned);
      return;
    }
    if (element instanceof HTMLElement && element.matches(FOCUSABLE) && !element.closest('[hidden]')) result.push(element);
    for (const child of element.children) visit(child);
  };
  visit(root);
  return result;
}

/** The focused element, looking through shadow roots. */
export function deepActiveElement(root: DocumentOrShadowRoot): Element | null {
  let active = root.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}
