import { PlaceholderPage } from '../../components/PlaceholderPage';

export default function ComingSoonPage() {
  return <PlaceholderPage title="Coming soon" />;
}
