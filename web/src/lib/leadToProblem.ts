import { useCallback, useEffect, useRef } from 'react';

/**
 * What counts as a problem: a field marked invalid, or an error banner (an
 * Alert of the plain form kit, components/ui, or MUI's: role="alert").
 */
const FIELD_IN_ERROR = '[aria-invalid="true"], .Mui-error';
const ERROR_BANNER =
  '[role="alert"]:not(.MuiAlert-colorSuccess):not(.MuiAlert-colorInfo):not(.fk-alert-success):not(.fk-alert-info)';
const FOCUSABLE = 'input:not([type="hidden"]):not([disabled]), select:not([disabled]), textarea:not([disabled]), button:not([disabled]), [tabindex]:not([tabindex="-1"]), [role="radio"], [role="combobox"]';

/** How long after a submit a server's answer (an error banner) still leads there. */
export const LEAD_WINDOW_MS = 30_000;

function hidden(el: Element): boolean {
  return (el as HTMLElement).closest('[aria-hidden="true"], [hidden]') !== null;
}

/**
 * leadTo moves focus and the view to the first problem inside root: the
 * first field in error (in page order), else the error banner. It returns
 * false when there is none. The banner itself has role="alert", so screen
 * readers announce the list of errors when it appears.
 */
export function leadTo(root: Element): boolean {
  const field = Array.from(root.querySelectorAll(FIELD_IN_ERROR)).find((el) => !hidden(el) && !el.matches('label, legend'));
  if (field) {
    const target = field.matches(FOCUSABLE)
      ? field
      : (field.closest('.MuiFormControl-root, fieldset, [role="radiogroup"], [role="group"]') ?? field).querySelector(FOCUSABLE) ?? field;
    show(target as HTMLElement);
    return true;
  }
  const banner = Array.from(root.querySelectorAll(ERROR_BANNER)).find((el) => !hidden(el));
  if (banner) {
    if (!banner.hasAttribute('tabindex')) banner.setAttribute('tabindex', '-1');
    show(banner as HTMLElement);
    return true;
  }
  return false;
}

function show(el: HTMLElement) {
  el.focus({ preventScroll: true });
  // 'center' keeps the field clear of the sticky header and the phone's keyboard.
  el.scrollIntoView?.({ block: 'center', behavior: 'auto' });
}

/**
 * useLeadToProblem is every form's "take me to what is wrong": put the
 * returned ref on the form (or an element around the form and its error
 * banner). After each submit it waits for the form's answer: when the check
 * of the fields marks some in error, focus goes to the first of them and it
 * is scrolled into view; when the server's answer is an error banner, the
 * banner comes into view and takes focus. Forms need nothing else: the
 * hook reads the marks MUI already puts on fields in error (aria-invalid,
 * Mui-error) and on banners (role="alert").
 */
export function useLeadToProblem<T extends HTMLElement = HTMLElement>() {
  const cleanup = useRef<() => void>(() => {});
  useEffect(() => () => cleanup.current(), []);
  return useCallback((node: T | null) => {
    cleanup.current();
    cleanup.current = () => {};
    if (!node) return;
    let observer: MutationObserver | undefined;
    let timer: number | undefined;
    let frame: number | undefined;
    const stop = () => {
      observer?.disconnect();
      observer = undefined;
      window.clearTimeout(timer);
      window.clearTimeout(frame);
    };
    const onSubmit = () => {
      stop();
      // The check of the fields runs in the submit handler; React has shown its result by the next task.
      frame = window.setTimeout(() => {
        frame = undefined;
        if (leadTo(node)) return;
        // No problem yet: the answer is on its way. Lead to the first problem it brings.
        observer = new MutationObserver(() => {
          if (leadTo(node)) stop();
        });
        observer.observe(node, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-invalid', 'class', 'role'] });
        timer = window.setTimeout(stop, LEAD_WINDOW_MS);
      }, 0);
    };
    node.addEventListener('submit', onSubmit);
    cleanup.current = () => {
      stop();
      node.removeEventListener('submit', onSubmit);
    };
  }, []);
}
