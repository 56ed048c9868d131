import { PlaceholderPage } from '../../components/PlaceholderPage';

export default function SelectRolePage() {
  return <PlaceholderPage title="What brings you to Salaula?" />;
}
