import { PlaceholderPage } from '../../components/PlaceholderPage';

export default function WardrobeClearancePage() {
  return <PlaceholderPage title="Join Our Wardrobe Clearance Program" />;
}
