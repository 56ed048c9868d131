import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { keyframes } from '@emotion/react';
import { Link as RouterLink } from 'react-router';
import { Footer } from '../../components/Footer';
import { ResponsiveImage } from '../../components/ResponsiveImage';
import { Band, Eyebrow, SectionTitle, PillLink } from './PublicPage';
import { BRAND_TILES } from './content';

const slide = keyframes`from { transform: translateX(0); } to { transform: translateX(-50%); }`;

/** One run of the ticker's words; `copy` runs repeat it for the loop and are hidden from readers. */
function TickerRun({ copy }: { copy?: boolean }) {
  return (
    <Box component="span" aria-hidden={copy || undefined} sx={{ display: 'inline-flex', alignItems: 'center', flexShrink: 0 }}>
      {[0, 1, 2].map((i) => (
        <Box component="span" key={i} sx={{ display: 'inline-flex', alignItems: 'center', gap: 2, px: 2 }}>
          <span>LAUNCHING SOON</span>
          <Box component="span" aria-hidden="true">✦</Box>
          <Box
            component={RouterLink}
            to="/sign_up"
            tabIndex={copy || i > 0 ? -1 : undefined}
            aria-hidden={!copy && i > 0 ? true : undefined}
            sx={{ color: '#f4d35e', fontWeight: 800, textUnderlineOffset: 4 }}
          >
            SIGN-UP NOW
          </Box>
          <Box component="span" aria-hidden="true">✦</Box>
        </Box>
      ))}
    </Box>
  );
}

/** The LAUNCHING SOON banner: scrolls sideways, pauses on hover or focus, stands still for reduced motion. */
function LaunchTicker() {
  return (
    <Box
      component="section"
      aria-label="Launching soon"
      sx={{
        bgcolor: '#1f2421',
        color: '#fff',
        overflow: 'hidden',
        py: 1,
        fontWeight: 700,
        letterSpacing: '0.08em',
        fontSize: '0.9rem',
        '&:hover .ticker-track, &:focus-within .ticker-track': { animationPlayState: 'paused' },
      }}
    >
      <Box
        className="ticker-track"
        data-testid="launch-ticker"
        sx={{
          display: 'flex',
          width: 'max-content',
          animation: `${slide} 28s linear infinite`,
          '@media (prefers-reduced-motion: reduce)': { animation: 'none' },
        }}
      >
        <TickerRun />
        <TickerRun copy />
      </Box>
    </Box>
  );
}

const STEPS = [
  { title: 'Tell us your style', text: 'Sign up, add your sizes and pick the looks you love. It takes about two minutes.' },
  { title: 'Browse a feed made for you', text: 'Our AI sorts through every rail and shows you pieces that fit your size, your taste and your budget.' },
  { title: 'Pay and track your parcel', text: 'Pay the way you already do, then follow your order from the seller to your door.' },
];

const PHASES = [
  {
    name: 'Phase 1',
    title: 'The foundation',
    points: [
      'AI-curated feeds, personalised to you',
      'Payments, delivery and order tracking',
      'Seller storefronts with inventory and revenue tracking',
      'The Wardrobe Clearance Program',
    ],
  },
  {
    name: 'Phase 2',
    title: 'Try it on before you buy',
    points: [
      'Your own 3D avatar, built from your measurements',
      'Virtual fitting on any piece in the shop',
      'Fewer returns: see the fit before it ships',
      'Everything in Phase 1, only better',
    ],
  },
];

/** The home / landing page. */
export default function HomePage() {
  return (
    <>
      <Box component="main" id="main" sx={{ flex: 1 }}>
        <LaunchTicker />

        {/* Hero */}
        <Band tone="plain" label="hero-title" sx={{ py: { xs: 4, md: 8 } }}>
          <Box sx={{ display: 'grid', gap: { xs: 3, md: 6 }, gridTemplateColumns: { xs: '1fr', md: '1.1fr 1fr' }, alignItems: 'center' }}>
            <Box>
              <Eyebrow>SECOND-HAND FASHION · LUSAKA</Eyebrow>
              <Typography id="hero-title" component="h1" sx={{ fontWeight: 900, fontSize: { xs: '2.1rem', sm: '2.8rem', md: '3.4rem' }, lineHeight: 1.05, mb: 2 }}>
                The best of the bale, picked for you.
              </Typography>
              <Typography sx={{ fontSize: { xs: '1.05rem', md: '1.2rem' }, color: 'text.secondary', mb: 3, maxWidth: 520 }}>
                Salaula brings Lusaka&apos;s thrift markets to your phone. Good clothes, fair prices, and a feed that
                already knows your size.
              </Typography>
              <PillLink to="/sign_up">START SHOPPING</PillLink>
            </Box>
            <ResponsiveImage
              src="/images/hero-rail.svg"
              alt="A rail of colourful second-hand clothes on hangers"
              width={640}
              height={440}
              eager
              sx={{ borderRadius: 4 }}
            />
          </Box>
        </Band>

        {/* About banner */}
        <Band tone="green" label="about-title">
          <Box sx={{ display: 'grid', gap: 4, gridTemplateColumns: { xs: '1fr', md: '1fr 1.2fr' }, alignItems: 'center' }}>
            <ResponsiveImage src="/images/clothes-pile.svg" alt="A neat pile of folded clothes in many colours" width={480} height={360} sx={{ borderRadius: 4, maxWidth: 480 }} />
            <Box>
              <Eyebrow light>ABOUT SALAULA</Eyebrow>
              <SectionTitle id="about-title">A whole market in your pocket</SectionTitle>
              <Typography sx={{ mb: 2, opacity: 0.95, fontSize: '1.05rem' }}>
                In Bemba, salaula means to pick through a pile. We do the picking: sellers from across Lusaka list
                their best pieces, and we bring the right ones to you.
              </Typography>
              <Typography sx={{ mb: 3, opacity: 0.95, fontSize: '1.05rem' }}>
                Be one of the first to shop when we open. It is free to join.
              </Typography>
              <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
                <PillLink to="/about" look="sun">READ ABOUT US</PillLink>
                <PillLink to="/sign_up" look="ghost">SIGN UP NOW</PillLink>
              </Box>
            </Box>
          </Box>
        </Band>

        {/* Brand strip */}
        <Band tone="white" label="brands-title">
          <SectionTitle id="brands-title">Labels you love, second time around</SectionTitle>
          <Typography sx={{ color: 'text.secondary', mb: 3 }}>Swipe through some of the names you will find on our rails.</Typography>
          <Box
            component="ul"
            role="list"
            tabIndex={0}
            aria-label="Clothing brands"
            sx={{
              display: 'flex',
              gap: 2,
              overflowX: 'auto',
              scrollSnapType: 'x mandatory',
              listStyle: 'none',
              p: 0,
              pb: 1.5,
              m: 0,
              borderRadius: 2,
            }}
          >
            {BRAND_TILES.map((b) => (
              <Box component="li" key={b.name} sx={{ flex: '0 0 auto', width: { xs: 150, sm: 180 }, scrollSnapAlign: 'start' }}>
                <ResponsiveImage src={b.image.src} srcSet={b.image.srcSet} sizes="180px" placeholder={b.image.placeholder} alt="" width={200} height={200} sx={{ borderRadius: 3 }} />
                <Typography component="p" sx={{ mt: 1, fontWeight: 800, textAlign: 'center' }}>
                  {b.name}
                </Typography>
              </Box>
            ))}
          </Box>
        </Band>

        {/* For shoppers + wardrobe clearance */}
        <Band tone="sand" label="clearance-title">
          <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
            <Box sx={{ bgcolor: 'background.paper', borderRadius: 4, p: { xs: 3, md: 4 } }}>
              <Eyebrow>FOR SHOPPERS</Eyebrow>
              <SectionTitle small>Shop by size, not by luck</SectionTitle>
              <Typography sx={{ mb: 3, color: 'text.secondary' }}>
                Tell us your measurements once. Your feed only shows what fits, and you can save pieces for payday.
              </Typography>
              <PillLink to="/sign_up">GET STARTED</PillLink>
            </Box>
            <Box sx={{ bgcolor: 'background.paper', borderRadius: 4, p: { xs: 3, md: 4 } }}>
              <Eyebrow>COMING SOON</Eyebrow>
              <SectionTitle id="clearance-title" small>Wardrobe Clearance Program</SectionTitle>
              <Typography sx={{ mb: 3, color: 'text.secondary' }}>
                Clothes you no longer wear? We pick them up, sell them for you and send you the money. No shop, no
                stall, no fuss.
              </Typography>
              <PillLink to="/wardrobeclearance" look="outline">Join the Program</PillLink>
            </Box>
          </Box>
        </Band>

        {/* How it works */}
        <Band tone="plain" label="how-title">
          <SectionTitle id="how-title" center>How It Works</SectionTitle>
          <Box component="ol" sx={{ listStyle: 'none', p: 0, m: 0, mt: 3, display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' } }}>
            {STEPS.map((s, i) => (
              <Box component="li" key={s.title} sx={{ bgcolor: 'background.paper', borderRadius: 4, p: 3, border: '1px solid #e3ded5' }}>
                <Box aria-hidden="true" sx={{ width: 44, height: 44, borderRadius: '50%', bgcolor: 'primary.main', color: '#fff', display: 'grid', placeItems: 'center', fontWeight: 900, fontSize: '1.2rem', mb: 2 }}>
                  {i + 1}
                </Box>
                <SectionTitle level={3}>
                  <Box component="span" sx={{ position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' }}>Step {i + 1}: </Box>
                  {s.title}
                </SectionTitle>
                <Typography sx={{ color: 'text.secondary' }}>{s.text}</Typography>
              </Box>
            ))}
          </Box>
        </Band>

        {/* Sellers */}
        <Band tone="green" label="sellers-title">
          <Box sx={{ maxWidth: 760 }}>
            <Eyebrow light>FOR SELLERS</Eyebrow>
            <SectionTitle id="sellers-title">Your stall, open day and night</SectionTitle>
            <Typography sx={{ mb: 3, opacity: 0.95, fontSize: '1.05rem' }}>
              Whether you run a thrift shop, sell on WhatsApp or work a street stand, Salaula gives you a storefront,
              keeps count of your stock and shows you what you earned this week.
            </Typography>
            <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
              <PillLink to="/sign_up" look="sun">SCALE YOUR BUSINESS</PillLink>
              <PillLink to="/sign_up" look="ghost">BECOME A SELLER</PillLink>
            </Box>
          </Box>
        </Band>

        {/* Phases */}
        <Band tone="white" label="phases-title">
          <SectionTitle id="phases-title" center>Phase 1 versus Phase 2</SectionTitle>
          <Typography sx={{ textAlign: 'center', color: 'text.secondary', mb: 4 }}>
            We are launching in two steps. The launch date will be announced soon.
          </Typography>
          <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
            {PHASES.map((p, i) => (
              <Box key={p.name} sx={{ borderRadius: 4, p: { xs: 3, md: 4 }, border: '2px solid', borderColor: i === 0 ? 'primary.main' : 'secondary.main', bgcolor: i === 0 ? '#eef4ee' : '#fbefe8' }}>
                <SectionTitle level={3}>{`${p.name}: ${p.title}`}</SectionTitle>
                <Box component="ul" sx={{ pl: 2.5, m: 0, display: 'grid', gap: 1 }}>
                  {p.points.map((pt) => (
                    <li key={pt}>{pt}</li>
                  ))}
                </Box>
              </Box>
            ))}
          </Box>
        </Band>

        {/* Impact teaser */}
        <Band tone="sand" label="impact-title">
          <Box sx={{ textAlign: 'center', maxWidth: 720, mx: 'auto' }}>
            <Typography aria-hidden="true" sx={{ fontWeight: 900, fontSize: { xs: '3rem', md: '4rem' }, color: 'primary.main', lineHeight: 1 }}>
              45%
            </Typography>
            <SectionTitle id="impact-title" center>Lower emissions, one outfit at a time</SectionTitle>
            <Typography sx={{ color: 'text.secondary', mb: 3 }}>
              Second-hand clothing has 45% lower emissions than buying new. Every piece that finds a second owner is
              one less in a Lusaka landfill.
            </Typography>
            <Button component={RouterLink} to="/impact" variant="text" size="large" sx={{ fontWeight: 800, textDecoration: 'underline', textUnderlineOffset: 4 }}>
              Learn More About Our Impact
            </Button>
          </Box>
        </Band>
      </Box>
      <Footer />
    </>
  );
}
