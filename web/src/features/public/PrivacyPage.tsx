import { PlaceholderPage } from '../../components/PlaceholderPage';

export default function PrivacyPage() {
  return <PlaceholderPage title="Privacy Policy" />;
}
