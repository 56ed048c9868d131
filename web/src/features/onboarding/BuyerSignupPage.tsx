import { PlaceholderPage } from '../../components/PlaceholderPage';

export default function BuyerSignupPage() {
  return <PlaceholderPage title="Create Your Buyer Profile" />;
}
