import { PlaceholderPage } from '../../components/PlaceholderPage';

export default function SignInPage() {
  return <PlaceholderPage title="Sign In" />;
}
