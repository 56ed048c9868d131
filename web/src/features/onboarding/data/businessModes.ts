import type { SvgIconComponent } from '@mui/icons-material';
import StorefrontIcon from '@mui/icons-material/Storefront';
import PhoneAndroidIcon from '@mui/icons-material/PhoneAndroid';
import StoreMallDirectoryIcon from '@mui/icons-material/StoreMallDirectory';
import DoNotDisturbAltIcon from '@mui/icons-material/DoNotDisturbAlt';
import { BUSINESS_MODES } from '../../../config/constants';

/** One business mode choice: the spec's title, an icon and a one-line description. */
export interface BusinessMode {
  title: (typeof BUSINESS_MODES)[number];
  Icon: SvgIconComponent;
  description: string;
}

/** The four business modes, in the spec's order (section 3). */
export const BUSINESS_MODE_OPTIONS: readonly BusinessMode[] = [
  { title: 'Thrift Shop or Store', Icon: StorefrontIcon, description: 'You sell from a shop, stall or store.' },
  { title: 'Social Media Sale', Icon: PhoneAndroidIcon, description: 'You sell through WhatsApp, Facebook or Instagram.' },
  { title: 'Street Vendor', Icon: StoreMallDirectoryIcon, description: 'You sell at a market or on the street.' },
  { title: 'None', Icon: DoNotDisturbAltIcon, description: 'You are just starting out.' },
];
