export type ResolvedTheme = 'light' | 'dark';

/** Nearest `data-theme` on an ancestor, crossing shadow roots. */
function ancestorTheme(element: Element): ResolvedTheme | undefined {
  let node: Node | null = element.parentNode;
  while (node) {
    if (node instanceof Element) {
      const value = node.getAttribute('data-theme');
      if (value === 'dark' || value === 'light') return value;
    }
    node = node instanceof ShadowRoot ? node.host : node.parentNode;
  }
  return undefined;
}

/** Auto theme: a `data-theme` ancestor, then `html.dark`, then the OS preference. */
export function resolveAutoTheme(element: Element): ResolvedTheme {
  const fromAncestor = ancestorTheme(element);
  if (fromAncestor) return fromAncestor;
  if (document.documentElement.classList.contains('dark')) return 'dark';
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** Calls `onChange` whenever any input of the auto theme may have changed; returns the stop function. */
export function watchAutoTheme(onChange: () => void): () => void {
  const media = matchMedia('(prefers-color-scheme: dark)');
  media.addEventListener('change', onChange);
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, subtree: true, attributeFilter: ['data-theme', 'class'] });
  return () => {
    media.removeEventListener('change', onChange);
    observer.disconnect();
  };
}
