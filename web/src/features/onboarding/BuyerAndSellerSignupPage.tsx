import { PlaceholderPage } from '../../components/PlaceholderPage';

export default function BuyerAndSellerSignupPage() {
  return <PlaceholderPage title="Create Your Buyer and Seller Profile" />;
}
