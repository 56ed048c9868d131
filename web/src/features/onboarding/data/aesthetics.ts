import { CLOTHING_AESTHETICS } from '../../../config/constants';
import sportsWear from '../assets/aesthetics/sports-wear.svg';
import streetWear from '../assets/aesthetics/street-wear.svg';
import summerWear from '../assets/aesthetics/summer-wear.svg';
import formalWear from '../assets/aesthetics/formal-wear.svg';
import winterFall from '../assets/aesthetics/winter-fall.svg';
import retroOutfits from '../assets/aesthetics/retro-outfits.svg';
import denimWear from '../assets/aesthetics/denim-wear.svg';
import minimalistWear from '../assets/aesthetics/minimalist-wear.svg';

/** One clothing aesthetic card: the spec's title, our own artwork, example styles. */
export interface Aesthetic {
  /** The title sent to the server (one of CLOTHING_AESTHETICS). */
  title: (typeof CLOTHING_AESTHETICS)[number];
  /** URL of the card's illustration. */
  image: string;
  /** Alt text of the illustration. */
  alt: string;
  /** Four or five short lines of example styles. */
  description: string[];
}

/** The eight clothing aesthetics, in the spec's order (section 3). */
export const AESTHETICS: readonly Aesthetic[] = [
  {
    title: 'SPORTS WEAR',
    image: sportsWear,
    alt: 'Figure in a green striped tracksuit and white trainers',
    description: ['Tracksuits and joggers', 'Football and netball jerseys', 'Hoodies and sweatshirts', 'Trainers and slides'],
  },
  {
    title: 'STREET WEAR',
    image: streetWear,
    alt: 'Figure in a grey graphic hoodie, baggy trousers and a red cap',
    description: ['Graphic tees and hoodies', 'Cargo and baggy trousers', 'Caps and bucket hats', 'Chunky sneakers', 'Bold logos and prints'],
  },
  {
    title: 'SUMMER WEAR',
    image: summerWear,
    alt: 'Figure in a pink sundress, sunglasses and a straw hat under the sun',
    description: ['Sundresses and skirts', 'Shorts and linen shirts', 'Chitenge prints', 'Sandals and straw hats'],
  },
  {
    title: 'FORMAL WEAR',
    image: formalWear,
    alt: 'Figure in a dark suit, white shirt and red tie',
    description: ['Suits and blazers', 'Shirts and ties', 'Office dresses and pencil skirts', 'Leather shoes', 'Wedding and church outfits'],
  },
  {
    title: 'WINTER & FALL',
    image: winterFall,
    alt: 'Figure in a brown coat, red scarf and green beanie among falling leaves',
    description: ['Coats and puffer jackets', 'Jerseys and cardigans', 'Scarves and beanies', 'Boots and warm trousers'],
  },
  {
    title: 'RETRO OUTFITS',
    image: retroOutfits,
    alt: 'Figure with an afro in a polka-dot orange shirt and purple flared trousers',
    description: ['70s flares and bell-bottoms', '80s bold colours', '90s windbreakers', 'Polka dots and vintage prints', 'High-waisted jeans'],
  },
  {
    title: 'DENIM WEAR',
    image: denimWear,
    alt: 'Figure in a stitched denim jacket and dark blue jeans',
    description: ['Denim jackets', 'Straight, skinny and wide jeans', 'Denim skirts and dungarees', 'Double denim looks'],
  },
  {
    title: 'MINIMALIST WEAR',
    image: minimalistWear,
    alt: 'Figure in a plain white tee and black trousers',
    description: ['Plain tees and shirts', 'Neutral colours', 'Tailored trousers', 'Clean white sneakers', 'Few, well-made pieces'],
  },
];
