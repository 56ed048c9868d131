import { ShopPreview } from './ShopPreview';

/** Women: a preview of the women's section until the shop opens. */
export default function WomensPage() {
  return (
    <ShopPreview
      title="Women"
      intro="Dresses for Sunday, knitwear for winter, denim for every day. Here is a taste of what the women's section will carry."
      categories={[
        { slug: 'dresses', name: 'Dresses', note: 'Casual, church and evening dresses.' },
        { slug: 'knitwear', name: 'Knitwear', note: 'Jerseys and cardigans for the cold season.' },
        { slug: 'denim', name: 'Denim', note: 'Jeans, skirts and jackets.' },
        { slug: 'shoes', name: 'Shoes', note: 'Sneakers, flats and heels, cleaned and checked.' },
      ]}
    />
  );
}
