import { PlaceholderPage } from '../../components/PlaceholderPage';

export default function WomensPage() {
  return <PlaceholderPage title="Women" />;
}
