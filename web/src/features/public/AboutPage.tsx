import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import AutoAwesomeIcon from '@mui/icons-material/AutoAwesome';
import GroupsIcon from '@mui/icons-material/Groups';
import RecyclingIcon from '@mui/icons-material/Recycling';
import StraightenIcon from '@mui/icons-material/Straighten';
import LocalShippingIcon from '@mui/icons-material/LocalShippingOutlined';
import StorefrontIcon from '@mui/icons-material/StorefrontOutlined';
import { ResponsiveImage } from '../../components/ResponsiveImage';
import { Band, Eyebrow, PublicPage, SectionTitle, PillLink } from './PublicPage';
import { TEAM } from './content';
import { useSiteSettings } from '../../lib/siteSettings';

const BLURBS = [
  { icon: StraightenIcon, title: 'Clothes that fit', text: 'Save your sizes once and see only what fits you. In Phase 2 you will try pieces on a 3D avatar of yourself.' },
  { icon: LocalShippingIcon, title: 'Paid and delivered', text: 'Pay safely, get your parcel delivered and follow it all the way from the seller to your door.' },
  { icon: StorefrontIcon, title: 'Tools for sellers', text: 'A storefront, stock counts and a clear view of what you earned, for shops, online sellers and street vendors alike.' },
];

const PILLARS = [
  { icon: AutoAwesomeIcon, title: 'AI-powered experience', text: 'A feed that learns your taste and your size, so you spend your time on clothes you would actually wear.' },
  { icon: GroupsIcon, title: 'Inclusive community', text: 'Room for everyone: the big thrift shop, the seller with one bale, the first-time buyer counting every kwacha.' },
  { icon: RecyclingIcon, title: 'Sustainable future', text: 'Every garment worn again is water, energy and landfill saved. We want second-hand to be the first choice.' },
];

/** About Us: mission, what we offer, our story, the team and our vision. */
export default function AboutPage() {
  const site = useSiteSettings();
  // The founders' names, roles, texts and portraits (site settings) over the drawn defaults.
  const team = TEAM.map((d, i) => {
    const m = site.team[i];
    if (!m) return { ...d, uploaded: false };
    return m.portrait
      ? { ...d, name: m.name, role: m.role, text: m.text, image: m.portrait, srcSet: '', uploaded: true }
      : { ...d, name: m.name, role: m.role, text: m.text, uploaded: false };
  });
  return (
    <PublicPage title="About Us">
      <Band tone="green" label="mission-title">
        <Box sx={{ display: 'grid', gap: 4, gridTemplateColumns: { xs: '1fr', md: '1.3fr 1fr' }, alignItems: 'center' }}>
          <Box>
            <Eyebrow light>OUR MISSION</Eyebrow>
            <SectionTitle id="mission-title">Good clothes should not be hard to find</SectionTitle>
            <Typography sx={{ fontSize: '1.1rem', opacity: 0.95 }}>
              Salaula makes second-hand fashion easy, fair and a little bit fun for everyone in Zambia: shoppers who
              want quality for less, and the sellers who keep our markets alive.
            </Typography>
          </Box>
          <ResponsiveImage src="/images/clothes-pile.svg" alt="A neat pile of folded clothes in many colours" width={480} height={360} eager sx={{ borderRadius: 4, maxWidth: 420, justifySelf: 'center', width: '100%' }} />
        </Box>
      </Band>

      <Band tone="plain" label="offer-title">
        <SectionTitle id="offer-title" center>What Salaula does for you</SectionTitle>
        <Box sx={{ display: 'grid', gap: 3, mt: 3, gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' } }}>
          {BLURBS.map(({ icon: Icon, title, text }) => (
            <Box key={title} sx={{ bgcolor: 'background.paper', border: '1px solid #e3ded5', borderRadius: 4, p: 3 }}>
              <Icon sx={{ color: 'secondary.main', fontSize: 36, mb: 1 }} aria-hidden="true" />
              <SectionTitle level={3}>{title}</SectionTitle>
              <Typography sx={{ color: 'text.secondary' }}>{text}</Typography>
            </Box>
          ))}
        </Box>
      </Band>

      <Band tone="white" label="story-title">
        <Box sx={{ maxWidth: 760, mx: 'auto' }}>
          <SectionTitle id="story-title">Our Story</SectionTitle>
          <Typography sx={{ mb: 2, fontSize: '1.05rem' }}>
            Anyone who has shopped at Soweto or Mandevu knows the feeling: hours of digging, a sore back, and then
            the perfect denim jacket for forty kwacha. Salaula started with that feeling, and with a question: what
            if the jacket could find you instead?
          </Typography>
          <Typography sx={{ mb: 2, fontSize: '1.05rem' }}>
            We are a small team in New Kasama, Lusaka. We spent months at markets talking to sellers about what
            slows them down, and to shoppers about what they wish they could find. Salaula is what we heard: one
            place to buy and sell second-hand clothes, built for the phones and data bundles people really use.
          </Typography>
          <Typography sx={{ fontSize: '1.05rem' }}>We are launching soon, and we would love you to be part of it.</Typography>
        </Box>
      </Band>

      <Band tone="sand" label="team-title">
        <SectionTitle id="team-title" center>Meet Our Team</SectionTitle>
        <Box sx={{ display: 'grid', gap: 3, mt: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, maxWidth: 960, mx: 'auto' }}>
          {team.map((m) => (
            <Box key={m.name} component="article" sx={{ bgcolor: 'background.paper', borderRadius: 4, p: 3, display: 'flex', gap: 2.5, flexDirection: { xs: 'column', sm: 'row' }, alignItems: { xs: 'center', sm: 'flex-start' } }}>
              <ResponsiveImage
                src={m.image}
                srcSet={m.srcSet}
                sizes="160px"
                placeholder={m.placeholder}
                alt={m.uploaded ? `Portrait of ${m.name}` : `Illustrated portrait of ${m.name}`}
                width={200}
                height={200}
                sx={{ width: 160, height: 160, flexShrink: 0, borderRadius: '50%' }}
              />
              <Box sx={{ textAlign: { xs: 'center', sm: 'left' } }}>
                <SectionTitle level={3}>{m.name}</SectionTitle>
                <Typography sx={{ color: 'secondary.main', fontWeight: 800, mb: 1 }}>{m.role}</Typography>
                <Typography sx={{ color: 'text.secondary' }}>{m.text}</Typography>
              </Box>
            </Box>
          ))}
        </Box>
      </Band>

      <Band tone="plain" label="vision-title">
        <SectionTitle id="vision-title" center>Our Vision</SectionTitle>
        <Typography sx={{ textAlign: 'center', color: 'text.secondary', maxWidth: 640, mx: 'auto' }}>
          Three ideas guide everything we build.
        </Typography>
        <Box sx={{ display: 'grid', gap: 3, mt: 3, gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' } }}>
          {PILLARS.map(({ icon: Icon, title, text }) => (
            <Box key={title} sx={{ textAlign: 'center', p: 3 }}>
              <Box sx={{ width: 64, height: 64, mx: 'auto', mb: 2, borderRadius: '50%', bgcolor: 'primary.main', color: '#fff', display: 'grid', placeItems: 'center' }}>
                <Icon aria-hidden="true" />
              </Box>
              <SectionTitle level={3}>{title}</SectionTitle>
              <Typography sx={{ color: 'text.secondary' }}>{text}</Typography>
            </Box>
          ))}
        </Box>
        <Box sx={{ textAlign: 'center', mt: 4 }}>
          <PillLink to="/sign_up">SIGN UP NOW</PillLink>
        </Box>
      </Band>
    </PublicPage>
  );
}
