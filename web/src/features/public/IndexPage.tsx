import { PlaceholderPage } from '../../components/PlaceholderPage';

export default function IndexPage() {
  return <PlaceholderPage title="Welcome to Salaula" />;
}
