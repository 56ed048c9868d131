import { Link as RouterLink } from 'react-router';
import { Footer } from '../../components/Footer';
import { ResponsiveImage } from '../../components/ResponsiveImage';
import { Band, Eyebrow, SectionTitle, PillLink } from './PublicPage';
import { BRAND_TILES } from './content';

// Plain markup styled by styles/site.css: the home page carries no MUI.

/** One run of the ticker's words; `copy` runs repeat it for the loop and are hidden from readers. */
function TickerRun({ copy }: { copy?: boolean }) {
  return (
    <span aria-hidden={copy || undefined} className="ticker-run">
      {[0, 1, 2].map((i) => (
        <span key={i} className="ticker-item">
          <span>LAUNCHING SOON</span>
          <span aria-hidden="true">✦</span>
          <RouterLink
            to="/sign_up"
            tabIndex={copy || i > 0 ? -1 : undefined}
            aria-hidden={!copy && i > 0 ? true : undefined}
          >
            SIGN-UP NOW
          </RouterLink>
          <span aria-hidden="true">✦</span>
        </span>
      ))}
    </span>
  );
}

/** The LAUNCHING SOON banner: scrolls sideways, pauses on hover or focus, stands still for reduced motion. */
function LaunchTicker() {
  return (
    <section aria-label="Launching soon" className="ticker">
      <div className="ticker-track" data-testid="launch-ticker">
        <TickerRun />
        <TickerRun copy />
      </div>
    </section>
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
      <main id="main" className="main">
        <LaunchTicker />

        {/* Hero */}
        <Band tone="plain" label="hero-title" className="band-hero">
          <div className="grid grid-mid md-hero">
            <div>
              <Eyebrow>SECOND-HAND FASHION · LUSAKA</Eyebrow>
              <h1 id="hero-title" className="hero-title">
                The best of the bale, picked for you.
              </h1>
              <p className="hero-text">
                Salaula brings Lusaka&apos;s thrift markets to your phone. Good clothes, fair prices, and a feed that
                already knows your size.
              </p>
              <PillLink to="/sign_up">START SHOPPING</PillLink>
            </div>
            <ResponsiveImage
              src="/images/hero-rail.svg"
              alt="A rail of colourful second-hand clothes on hangers"
              width={640}
              height={440}
              eager
              className="r4"
            />
          </div>
        </Band>

        {/* About banner */}
        <Band tone="green" label="about-title">
          <div className="grid grid-g4 grid-mid md-about">
            <ResponsiveImage src="/images/clothes-pile.svg" alt="A neat pile of folded clothes in many colours" width={480} height={360} className="r4" style={{ maxWidth: 480 }} />
            <div>
              <Eyebrow light>ABOUT SALAULA</Eyebrow>
              <SectionTitle id="about-title">A whole market in your pocket</SectionTitle>
              <p className="lead soft mb2">
                In Bemba, salaula means to pick through a pile. We do the picking: sellers from across Lusaka list
                their best pieces, and we bring the right ones to you.
              </p>
              <p className="lead soft mb3">Be one of the first to shop when we open. It is free to join.</p>
              <div className="row">
                <PillLink to="/about" look="sun">READ ABOUT US</PillLink>
                <PillLink to="/sign_up" look="ghost">SIGN UP NOW</PillLink>
              </div>
            </div>
          </div>
        </Band>

        {/* Brand strip */}
        <Band tone="white" label="brands-title">
          <SectionTitle id="brands-title">Labels you love, second time around</SectionTitle>
          <p className="txt muted mb3">Swipe through some of the names you will find on our rails.</p>
          {/* Focusable: the strip scrolls sideways and keyboard users need to reach it. */}
          <ul role="list" tabIndex={0} aria-label="Clothing brands" className="brands">
            {BRAND_TILES.map((b) => (
              <li key={b.name} className="brand">
                <ResponsiveImage src={b.image.src} srcSet={b.image.srcSet} sizes="180px" placeholder={b.image.placeholder} alt="" width={200} height={200} className="r3" />
                <p className="tile-name">{b.name}</p>
              </li>
            ))}
          </ul>
        </Band>

        {/* For shoppers + wardrobe clearance */}
        <Band tone="sand" label="clearance-title">
          <div className="grid md-2">
            <div className="card card-pad-md">
              <Eyebrow>FOR SHOPPERS</Eyebrow>
              <SectionTitle small>Shop by size, not by luck</SectionTitle>
              <p className="txt muted mb3">
                Tell us your measurements once. Your feed only shows what fits, and you can save pieces for payday.
              </p>
              <PillLink to="/sign_up">GET STARTED</PillLink>
            </div>
            <div className="card card-pad-md">
              <Eyebrow>COMING SOON</Eyebrow>
              <SectionTitle id="clearance-title" small>Wardrobe Clearance Program</SectionTitle>
              <p className="txt muted mb3">
                Clothes you no longer wear? We pick them up, sell them for you and send you the money. No shop, no
                stall, no fuss.
              </p>
              <PillLink to="/wardrobeclearance" look="outline">Join the Program</PillLink>
            </div>
          </div>
        </Band>

        {/* How it works */}
        <Band tone="plain" label="how-title">
          <SectionTitle id="how-title" center>How It Works</SectionTitle>
          <ol className="plain-list grid md-3 mt3">
            {STEPS.map((s, i) => (
              <li key={s.title} className="card card-line">
                <div aria-hidden="true" className="step-no">
                  {i + 1}
                </div>
                <SectionTitle level={3}>
                  <span className="visually-hidden">Step {i + 1}: </span>
                  {s.title}
                </SectionTitle>
                <p className="txt muted">{s.text}</p>
              </li>
            ))}
          </ol>
        </Band>

        {/* Sellers */}
        <Band tone="green" label="sellers-title">
          <div className="w760">
            <Eyebrow light>FOR SELLERS</Eyebrow>
            <SectionTitle id="sellers-title">Your stall, open day and night</SectionTitle>
            <p className="lead soft mb3">
              Whether you run a thrift shop, sell on WhatsApp or work a street stand, Salaula gives you a storefront,
              keeps count of your stock and shows you what you earned this week.
            </p>
            <div className="row">
              <PillLink to="/sign_up" look="sun">SCALE YOUR BUSINESS</PillLink>
              <PillLink to="/sign_up" look="ghost">BECOME A SELLER</PillLink>
            </div>
          </div>
        </Band>

        {/* Phases */}
        <Band tone="white" label="phases-title">
          <SectionTitle id="phases-title" center>Phase 1 versus Phase 2</SectionTitle>
          <p className="txt center muted mb4">We are launching in two steps. The launch date will be announced soon.</p>
          <div className="grid md-2">
            {PHASES.map((p, i) => (
              <div key={p.name} className={i === 0 ? 'phase' : 'phase phase-2'}>
                <SectionTitle level={3}>{`${p.name}: ${p.title}`}</SectionTitle>
                <ul>
                  {p.points.map((pt) => (
                    <li key={pt}>{pt}</li>
                  ))}
                </ul>
              </div>
            ))}
          </div>
        </Band>

        {/* Impact teaser */}
        <Band tone="sand" label="impact-title">
          <div className="center w720 mx-auto">
            <p aria-hidden="true" className="big-figure">
              45%
            </p>
            <SectionTitle id="impact-title" center>Lower emissions, one outfit at a time</SectionTitle>
            <p className="txt muted mb3">
              Second-hand clothing has 45% lower emissions than buying new. Every piece that finds a second owner is
              one less in a Lusaka landfill.
            </p>
            <RouterLink to="/impact" className="text-link">
              Learn More About Our Impact
            </RouterLink>
          </div>
        </Band>
      </main>
      <Footer />
    </>
  );
}
