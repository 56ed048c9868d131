import { PlaceholderPage } from '../../components/PlaceholderPage';

export default function MensPage() {
  return <PlaceholderPage title="Men" />;
}
