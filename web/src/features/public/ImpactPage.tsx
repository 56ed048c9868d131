import { PlaceholderPage } from '../../components/PlaceholderPage';

export default function ImpactPage() {
  return <PlaceholderPage title="Our Impact" />;
}
