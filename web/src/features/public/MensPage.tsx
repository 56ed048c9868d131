import { ShopPreview } from './ShopPreview';

/** Men: a preview of the men's section until the shop opens. */
export default function MensPage() {
  return (
    <ShopPreview
      title="Men"
      intro="Shirts for the office, jackets for cold July mornings, jeans that are already broken in. Here is a taste of what the men's section will carry."
      categories={[
        { slug: 'shirts', name: 'Shirts & tees', note: 'Work shirts, golf shirts and everyday tees.' },
        { slug: 'jackets', name: 'Jackets', note: 'Denim, bomber and smart jackets.' },
        { slug: 'denim', name: 'Denim', note: 'Straight, slim and relaxed fits.' },
        { slug: 'shoes', name: 'Shoes', note: 'Sneakers and smart shoes, cleaned and checked.' },
      ]}
    />
  );
}
