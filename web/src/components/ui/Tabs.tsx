import type { ReactNode } from 'react';
import { Tabs as RadixTabs } from 'radix-ui';
import '../../styles/ui.css';

/** One tab: its value, the words on it and its panel. */
export interface Tab {
  value: string;
  label: ReactNode;
  panel: ReactNode;
}

/**
 * Tabs shows one panel at a time, on Radix's Tabs: a tablist named by
 * `label`, arrow keys move between tabs, each panel is named by its tab.
 * Controlled when `value` is given.
 */
export function Tabs({ label, tabs, value, defaultValue, onValueChange }: {
  label: string;
  tabs: Tab[];
  value?: string;
  defaultValue?: string;
  onValueChange?: (value: string) => void;
}) {
  return (
    <RadixTabs.Root className="ui-tabs" value={value} defaultValue={defaultValue ?? tabs[0]?.value} onValueChange={onValueChange}>
      <RadixTabs.List className="ui-tablist" aria-label={label}>
        {tabs.map((t) => (
          <RadixTabs.Trigger key={t.value} value={t.value} className="ui-tab">
            {t.label}
          </RadixTabs.Trigger>
        ))}
      </RadixTabs.List>
      {tabs.map((t) => (
        <RadixTabs.Content key={t.value} value={t.value} className="ui-tabpanel">
          {t.panel}
        </RadixTabs.Content>
      ))}
    </RadixTabs.Root>
  );
}
