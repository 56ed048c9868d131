import { PlaceholderPage } from '../../components/PlaceholderPage';

export default function SellerSignupPage() {
  return <PlaceholderPage title="Create Your Seller Profile" />;
}
