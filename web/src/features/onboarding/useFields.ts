import { useCallback, useState, type ChangeEvent } from 'react';
import type { FieldErrors } from '../../lib/validation';

/**
 * useFields keeps a form's values and per-field errors; setting a field
 * clears its error (spec section 4). text() gives a TextField's props.
 */
export function useFields<T extends object, K extends string>(initial: T) {
  const [values, setValues] = useState<T>(initial);
  const [errors, setErrors] = useState<FieldErrors<K>>({});

  const set = useCallback(<N extends keyof T>(name: N, value: T[N]) => {
    setValues((v) => ({ ...v, [name]: value }));
    setErrors((e) => {
      const key = name as unknown as K;
      if (!e[key]) return e;
      const next = { ...e };
      delete next[key];
      return next;
    });
  }, []);

  const text = (name: keyof T & K, label: string, busy: boolean) => ({
    id: String(name),
    name: String(name),
    label,
    value: values[name] as string,
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => set(name, e.target.value as T[typeof name]),
    error: Boolean(errors[name]),
    helperText: errors[name],
    disabled: busy,
    fullWidth: true,
  });

  /** reset replaces every value at once (a saved profile loaded for editing). */
  const reset = useCallback((next: T) => setValues(next), []);

  return { values, set, errors, setErrors, text, reset };
}
