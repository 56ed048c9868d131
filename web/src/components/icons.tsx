import {
  mdiAccountCircleOutline,
  mdiAccountMultiple,
  mdiArrowLeft,
  mdiCartOutline,
  mdiCreation,
  mdiFacebook,
  mdiHeadset,
  mdiInstagram,
  mdiLinkedin,
  mdiMagnify,
  mdiMenu,
  mdiRecycle,
  mdiRuler,
  mdiShoppingOutline,
  mdiStoreOutline,
  mdiTruckDelivery,
  mdiWhatsapp,
  mdiYoutube,
} from '@mdi/js';
import { siX } from 'simple-icons';

/**
 * The icons the app shows, as plain SVG paths from the published icon sets
 * (@mdi/js, Material Design Icons; simple-icons for X's mark), imported by
 * name so the build keeps only these.
 */
const PATHS = {
  menu: mdiMenu,
  search: mdiMagnify,
  arrowBack: mdiArrowLeft,
  cart: mdiCartOutline,
  bag: mdiShoppingOutline,
  account: mdiAccountCircleOutline,
  support: mdiHeadset,
  facebook: mdiFacebook,
  instagram: mdiInstagram,
  x: siX.path,
  linkedin: mdiLinkedin,
  youtube: mdiYoutube,
  whatsapp: mdiWhatsapp,
  sparkles: mdiCreation,
  groups: mdiAccountMultiple,
  recycling: mdiRecycle,
  ruler: mdiRuler,
  shipping: mdiTruckDelivery,
  storefront: mdiStoreOutline,
} as const;

/** The name of one of the icons above. */
export type IconName = keyof typeof PATHS;

/** An icon, 24 px (1.5rem) unless `small`, in the text colour; hidden from screen readers. */
export function Icon({ name, small, className }: { name: IconName; small?: boolean; className?: string }) {
  return (
    <svg
      className={['icon', small ? 'icon-s' : '', className ?? ''].filter(Boolean).join(' ')}
      viewBox="0 0 24 24"
      aria-hidden="true"
      focusable="false"
      data-icon={name}
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
