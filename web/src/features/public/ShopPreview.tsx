import { ResponsiveImage } from '../../components/ResponsiveImage';
import { Band, Eyebrow, PublicPage, SectionTitle, PillLink } from './PublicPage';
import '../../styles/pages.css';

/** A category of a section's preview, drawn in /images/cat-{slug}.svg. */
export interface PreviewCategory {
  slug: string;
  name: string;
  note: string;
}

/**
 * What /mens and /womens show before launch: the categories that are coming,
 * and a call to sign up (or clear a wardrobe) so people hear first.
 */
export function ShopPreview({ title, intro, categories }: { title: string; intro: string; categories: PreviewCategory[] }) {
  return (
    <PublicPage title={title}>
      <Band tone="plain" label="preview-title">
        <Eyebrow>OPENING SOON</Eyebrow>
        <SectionTitle id="preview-title">What is coming to the rails</SectionTitle>
        <p className="preview-intro">{intro}</p>
        <ul className="cats">
          {categories.map((c, i) => (
            <li key={c.slug} className="cat">
              <ResponsiveImage src={`/images/cat-${c.slug}.svg`} alt="" width={200} height={200} eager={i < 2} className="r3" style={{ marginBottom: 12 }} />
              <SectionTitle level={3}>{c.name}</SectionTitle>
              <p className="cat-note">{c.note}</p>
            </li>
          ))}
        </ul>
      </Band>
      <Band tone="green" label="first-title">
        <div className="first">
          <div>
            <SectionTitle id="first-title">Be first in line</SectionTitle>
            <p className="first-text">
              Create your account now and tell us your sizes. On launch day your feed will already be waiting, with
              the best pieces picked for you before anyone else sees them.
            </p>
          </div>
          <div className="first-actions">
            <PillLink to="/sign_up" look="sun">SIGN UP NOW</PillLink>
            <PillLink to="/wardrobeclearance" look="ghost">Clear your wardrobe</PillLink>
          </div>
        </div>
      </Band>
    </PublicPage>
  );
}
