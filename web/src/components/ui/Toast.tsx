import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';
import { Toast as RadixToast } from 'radix-ui';
import '../../styles/ui.css';
import { cx } from './cx';
import type { Severity } from './Alert';

interface ToastMessage {
  id: number;
  text: string;
  severity: Severity;
}

const ShowToast = createContext<((text: string, severity?: Severity) => void) | null>(null);

/**
 * ToastProvider holds the short messages that appear in a corner and go
 * after five seconds, on Radix's Toast: read out politely, kept while the
 * pointer or focus is on them, F8 reaches them, a swipe dismisses one.
 * Wrap the part of the app that shows toasts; useToast() shows one.
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ToastMessage[]>([]);
  const show = useCallback((text: string, severity: Severity = 'success') => {
    setToasts((ts) => [...ts, { id: Date.now() + Math.random(), text, severity }]);
  }, []);
  return (
    <ShowToast.Provider value={show}>
      <RadixToast.Provider duration={5000} label="Notification">
        {children}
        {toasts.map((t) => (
          <RadixToast.Root
            key={t.id}
            className={cx('ui-toast', `fk-alert-${t.severity}`)}
            type={t.severity === 'error' ? 'foreground' : 'background'}
            onOpenChange={(open) => !open && setToasts((ts) => ts.filter((x) => x.id !== t.id))}
          >
            <RadixToast.Description>{t.text}</RadixToast.Description>
          </RadixToast.Root>
        ))}
        <RadixToast.Viewport className="ui-toasts" />
      </RadixToast.Provider>
    </ShowToast.Provider>
  );
}

/** useToast gives the function that shows a toast (inside a ToastProvider). */
export function useToast(): (text: string, severity?: Severity) => void {
  const show = useContext(ShowToast);
  if (!show) throw new Error('useToast needs a ToastProvider');
  return show;
}
