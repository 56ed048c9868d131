import { imageSet, type ImageSet } from '../../components/ResponsiveImage';

/** A brand tile of the home page's strip (spec section 3: name, image). */
export interface BrandTile {
  name: string;
  image: ImageSet;
}

/** Six labels, invented for Salaula's own artwork: names on tiles, no real logos. */
export const BRAND_TILES: BrandTile[] = [
  { name: 'Zambezi Denim', image: imageSet('brand-zambezi-denim') },
  { name: 'Copperbelt Sport', image: imageSet('brand-copperbelt-sport') },
  { name: 'Chitenge & Co.', image: imageSet('brand-chitenge-co') },
  { name: 'Kafue Classics', image: imageSet('brand-kafue-classics') },
  { name: 'Mwezi Knits', image: imageSet('brand-mwezi-knits') },
  { name: 'Lusaka Street', image: imageSet('brand-lusaka-street') },
];

/** A team member shown on the About page (spec section 3). */
export interface TeamMember {
  image: string;
  srcSet: string;
  /** The small placeholder image, shown until the photo loads. */
  placeholder: string;
  name: string;
  role: string;
  text: string;
}

const founder = imageSet('team-founder');
const engineer = imageSet('team-engineer');

/** The founding team. */
export const TEAM: TeamMember[] = [
  {
    image: founder.src,
    srcSet: founder.srcSet,
    placeholder: founder.placeholder,
    name: 'Mwila Chanda',
    role: 'Founder & CEO',
    text:
      'Grew up bargaining at Soweto Market with her mother and still believes the best jacket in town is hiding at the bottom of a bale. She started Salaula so that finding it takes a phone, not a whole Saturday.',
  },
  {
    image: engineer.src,
    srcSet: engineer.srcSet,
    placeholder: engineer.placeholder,
    name: 'Bwalya Mulenga',
    role: 'Senior Founding Engineer',
    text:
      'Builds Salaula to work on the phones people really carry and the networks they really have. If a page is slow on a bus to Matero, he takes it personally.',
  },
];
