import { useId } from 'react';
import { Select as RadixSelect } from 'radix-ui';

/** One choice of a Select; '' is allowed (e.g. "All"). */
export interface SelectOption {
  value: string;
  label: string;
}

/** Radix items cannot have '' as a value: it stands for this one. */
const EMPTY = '\u0000none';
const toRadix = (v: string) => (v === '' ? EMPTY : v);
const fromRadix = (v: string) => (v === EMPTY ? '' : v);

/**
 * Select is a labelled drop-down on Radix's Select: a button (role
 * combobox, named by its label) that opens a list of options, usable by
 * keyboard and touch, styled by the tokens (admin.css `adm-select`).
 */
export function Select({
  label,
  value,
  onChange,
  options,
  className,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: SelectOption[];
  className?: string;
}) {
  const id = `sel${useId().replace(/:/g, '')}`;
  return (
    <div className={['adm-field', className].filter(Boolean).join(' ')}>
      <label className="adm-field-label" htmlFor={id}>
        {label}
      </label>
      <RadixSelect.Root value={toRadix(value)} onValueChange={(v) => onChange(fromRadix(v))}>
        <RadixSelect.Trigger id={id} className="adm-select">
          <RadixSelect.Value />
          <RadixSelect.Icon aria-hidden>▾</RadixSelect.Icon>
        </RadixSelect.Trigger>
        <RadixSelect.Portal>
          <RadixSelect.Content className="adm-select-menu" position="popper" sideOffset={4}>
            <RadixSelect.Viewport className="adm-select-viewport">
              {options.map((o) => (
                <RadixSelect.Item key={o.value} value={toRadix(o.value)} className="adm-select-item">
                  <RadixSelect.ItemText>{o.label}</RadixSelect.ItemText>
                </RadixSelect.Item>
              ))}
            </RadixSelect.Viewport>
          </RadixSelect.Content>
        </RadixSelect.Portal>
      </RadixSelect.Root>
    </div>
  );
}
