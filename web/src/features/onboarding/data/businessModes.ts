import type { FormIconName } from '../../../components/ui';
import { BUSINESS_MODES } from '../../../config/constants';

/** One business mode choice: the spec's title, an icon and a one-line description. */
export interface BusinessMode {
  title: (typeof BUSINESS_MODES)[number];
  icon: FormIconName;
  description: string;
}

/** The four business modes, in the spec's order (section 3). */
export const BUSINESS_MODE_OPTIONS: readonly BusinessMode[] = [
  { title: 'Thrift Shop or Store', icon: 'storefront', description: 'You sell from a shop, stall or store.' },
  { title: 'Social Media Sale', icon: 'phoneAndroid', description: 'You sell through WhatsApp, Facebook or Instagram.' },
  { title: 'Street Vendor', icon: 'storeMallDirectory', description: 'You sell at a market or on the street.' },
  { title: 'None', icon: 'doNotDisturbAlt', description: 'You are just starting out.' },
];
