import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { ResponsiveImage } from '../../components/ResponsiveImage';
import { WaitlistForm } from '../waitlist/WaitlistForm';
import { PROGRAMS } from '../../config/constants';
import { Band, Eyebrow, PublicPage, SectionTitle } from './PublicPage';

/** A big figure and what it means. */
interface Figure {
  value: string;
  label: string;
}

const WHY_SECOND_HAND: Figure[] = [
  { value: '45%', label: 'lower emissions for second-hand clothing' },
  { value: '70%', label: 'less water than making a new garment' },
  { value: '85%', label: 'lower carbon footprint per item' },
  { value: '2.6B', label: 'pounds of textiles saved annually by buying second-hand' },
];

const OUR_TARGETS: Figure[] = [
  { value: '12t', label: 'CO2 saved monthly' },
  { value: '320', label: 'delivery trucks off the road' },
  { value: '8K', label: 'packaging materials saved' },
];

const FITTING: Figure[] = [
  { value: '40%', label: 'fewer returns when your feed only shows your sizes (Phase 1)' },
  { value: '80%', label: 'fewer returns once you can try pieces on your 3D avatar (Phase 2)' },
  { value: '90%+', label: 'satisfaction: the fit you see is the fit you get' },
];

function Figures({ figures, light }: { figures: Figure[]; light?: boolean }) {
  return (
    <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr 1fr', md: `repeat(${Math.min(figures.length, 4)}, 1fr)` } }}>
      {figures.map((f) => (
        <Box
          component="li"
          key={f.value + f.label}
          sx={{ borderRadius: 4, p: { xs: 2, md: 3 }, bgcolor: light ? 'rgba(255,255,255,0.1)' : 'background.paper', border: light ? '1px solid rgba(255,255,255,0.3)' : '1px solid #e3ded5' }}
        >
          <Typography component="p" sx={{ fontWeight: 900, fontSize: { xs: '2rem', md: '2.6rem' }, lineHeight: 1.1, color: light ? '#f4d35e' : 'primary.main' }}>
            {f.value}
          </Typography>
          <Typography component="p" sx={{ mt: 0.5, opacity: light ? 0.95 : 1, color: light ? undefined : 'text.secondary' }}>
            {f.label}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

/** Our Impact: why second-hand matters, virtual fitting's fewer returns, and the upcycling waitlist. */
export default function ImpactPage() {
  return (
    <PublicPage title="Our Impact">
      <Band tone="green" label="impact-header">
        <Box sx={{ display: 'grid', gap: 4, gridTemplateColumns: { xs: '1fr', md: '1.4fr 1fr' }, alignItems: 'center' }}>
          <Box>
            <Eyebrow light>WEAR IT AGAIN</Eyebrow>
            <SectionTitle id="impact-header">Fashion that is kinder to Zambia</SectionTitle>
            <Typography sx={{ fontSize: '1.1rem', opacity: 0.95 }}>
              The greenest garment is the one that already exists. Every shirt bought on Salaula instead of new saves
              water, energy and a trip to the dump site, and keeps money with local sellers.
            </Typography>
          </Box>
          <ResponsiveImage src="/images/floating-hanger.svg" alt="A shirt on a hanger" width={240} height={260} eager sx={{ width: 200, justifySelf: 'center', bgcolor: '#f1e9dc', borderRadius: '50%', p: 2 }} />
        </Box>
      </Band>

      <Band tone="plain" label="stats-title">
        <SectionTitle id="stats-title">Environmental statistics</SectionTitle>
        <Typography sx={{ color: 'text.secondary', mb: 3, maxWidth: 720 }}>Why second-hand is the better choice:</Typography>
        <Figures figures={WHY_SECOND_HAND} />
        <Box sx={{ mt: 5 }}>
          <SectionTitle level={3}>What we are working towards in Lusaka</SectionTitle>
        </Box>
        <Typography sx={{ color: 'text.secondary', mb: 3, maxWidth: 720 }}>
          Shared deliveries, reused packaging and local sellers add up. Our targets once Salaula is fully running:
        </Typography>
        <Figures figures={OUR_TARGETS} />
      </Band>

      <Band tone="green" label="fitting-title">
        <Eyebrow light>PHASE 2</Eyebrow>
        <SectionTitle id="fitting-title">Virtual fitting: fewer returns, less waste</SectionTitle>
        <Typography sx={{ mb: 3, opacity: 0.95, maxWidth: 760, fontSize: '1.05rem' }}>
          Every return is another trip across town and another parcel. With your 3D avatar you see how a piece
          hangs on your body before you pay, so it fits the first time.
        </Typography>
        <Figures figures={FITTING} light />
      </Band>

      <Band tone="sand" label="upcycling-title">
        <Box sx={{ display: 'grid', gap: 4, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, alignItems: 'start' }}>
          <Box>
            <Eyebrow>NEW</Eyebrow>
            <SectionTitle id="upcycling-title">Upcycling Initiative</SectionTitle>
            <Typography sx={{ mb: 2, fontSize: '1.05rem' }}>
              Some clothes are too worn to sell but too good to throw away. We are teaming up with Lusaka tailors to
              turn them into bags, patchwork jackets and new pieces, and to pay local hands to do it.
            </Typography>
            <Typography sx={{ fontSize: '1.05rem' }}>Join the waitlist and we will tell you when it starts.</Typography>
          </Box>
          <Box sx={{ bgcolor: 'background.paper', borderRadius: 4, p: { xs: 2.5, md: 3 } }}>
            <WaitlistForm
              programName={PROGRAMS.upcycling}
              errorMessage="Could not join waitlist. Please try again."
              successDetail="We'll be in touch soon."
            />
          </Box>
        </Box>
      </Band>
    </PublicPage>
  );
}
