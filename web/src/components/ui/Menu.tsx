import type { ReactNode } from 'react';
import { DropdownMenu } from 'radix-ui';
import '../../styles/ui.css';

/** One entry of a Menu: its words and what it does. */
export interface MenuItem {
  label: string;
  onSelect: () => void;
  disabled?: boolean;
}

/**
 * Menu is a button that opens a list of actions, on Radix's DropdownMenu:
 * arrow keys move between entries, typing a letter jumps to one, Enter picks
 * it, Escape closes and focus returns to the button.
 */
export function Menu({ trigger, label, items }: { trigger: ReactNode; label: string; items: MenuItem[] }) {
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger className="fk-btn fk-btn-outline" aria-label={label}>
        {trigger}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="ui-menu" align="start" sideOffset={4}>
          {items.map((it) => (
            <DropdownMenu.Item key={it.label} className="ui-menu-item" disabled={it.disabled} onSelect={it.onSelect}>
              {it.label}
            </DropdownMenu.Item>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
