import { PlaceholderPage } from '../../components/PlaceholderPage';

export default function OnboardingProfilePage() {
  return <PlaceholderPage title="Complete Your Profile" />;
}
