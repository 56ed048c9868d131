import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { ResponsiveImage } from '../../components/ResponsiveImage';
import { Band, Eyebrow, PublicPage, SectionTitle, PillLink } from './PublicPage';

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
        <Typography sx={{ color: 'text.secondary', mb: 4, maxWidth: 720, fontSize: '1.05rem' }}>{intro}</Typography>
        <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, 1fr)' } }}>
          {categories.map((c, i) => (
            <Box component="li" key={c.slug} sx={{ bgcolor: 'background.paper', borderRadius: 4, p: 1.5, border: '1px solid #e3ded5' }}>
              <ResponsiveImage src={`/images/cat-${c.slug}.svg`} alt="" width={200} height={200} eager={i < 2} className="r3" style={{ marginBottom: 12 }} />
              <SectionTitle level={3}>{c.name}</SectionTitle>
              <Typography sx={{ color: 'text.secondary', fontSize: '0.95rem' }}>{c.note}</Typography>
            </Box>
          ))}
        </Box>
      </Band>
      <Band tone="green" label="first-title">
        <Box sx={{ display: 'grid', gap: 4, gridTemplateColumns: { xs: '1fr', md: '1.4fr 1fr' }, alignItems: 'center' }}>
          <Box>
            <SectionTitle id="first-title">Be first in line</SectionTitle>
            <Typography sx={{ opacity: 0.95, fontSize: '1.05rem' }}>
              Create your account now and tell us your sizes. On launch day your feed will already be waiting, with
              the best pieces picked for you before anyone else sees them.
            </Typography>
          </Box>
          <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', justifyContent: { md: 'flex-end' } }}>
            <PillLink to="/sign_up" look="sun">SIGN UP NOW</PillLink>
            <PillLink to="/wardrobeclearance" look="ghost">Clear your wardrobe</PillLink>
          </Box>
        </Box>
      </Band>
    </PublicPage>
  );
}
