import { PlaceholderPage } from '../../components/PlaceholderPage';

export default function ThanksPage() {
  return <PlaceholderPage title="Thank you!" />;
}
