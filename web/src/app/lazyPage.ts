import { createElement, use, type ComponentType, type ReactElement } from 'react';

/** A page whose code loads when first needed, and can be loaded ahead (preload). */
export interface LazyPage {
  (): ReactElement;
  /** preload starts loading the page's code (once) and resolves when it is there. */
  preload(): Promise<unknown>;
}

/**
 * lazyPage is React.lazy with a preload: main.tsx loads the opened page's
 * code before the first render (it was fetched beside the entry, see
 * vite.config.ts), so that render shows the page at once instead of a
 * fallback, and replaces the page index.html already showed without a
 * flash. A page not loaded yet suspends, as with React.lazy.
 */
export function lazyPage(load: () => Promise<{ default: ComponentType }>): LazyPage {
  let loading: Promise<{ default: ComponentType }> | undefined;
  let loaded: ComponentType | undefined;
  const preload = () =>
    (loading ??= load().then(
      (m) => {
        loaded = m.default;
        return m;
      },
      (err: unknown) => {
        loading = undefined; // a later visit tries again
        throw err;
      },
    ));
  function Page(): ReactElement {
    return createElement(loaded ?? use(preload()).default);
  }
  Page.preload = preload;
  return Page;
}
