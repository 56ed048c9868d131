import { lazy, Suspense } from 'react';
import { ResponsiveImage } from '../../components/ResponsiveImage';
import { PROGRAMS } from '../../config/constants';
import { Band, Eyebrow, PublicPage, SectionTitle } from './PublicPage';

/**
 * The upcycling waitlist form (the plain form kit, no MUI) loads after the
 * page, with its own chunk and CSS.
 */
const WaitlistForm = lazy(() => import('../waitlist/WaitlistForm').then((m) => ({ default: m.WaitlistForm })));

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
    <ul className={`plain-list grid grid-g2 cols-2-sm ${figures.length >= 4 ? 'md-4' : 'md-3'}${light ? ' figures-light' : ''}`}>
      {figures.map((f) => (
        <li key={f.value + f.label} className="figure">
          <p className="figure-value">{f.value}</p>
          <p className="figure-label">{f.label}</p>
        </li>
      ))}
    </ul>
  );
}

/** Our Impact: why second-hand matters, virtual fitting's fewer returns, and the upcycling waitlist. */
export default function ImpactPage() {
  return (
    <PublicPage title="Our Impact">
      <Band tone="green" label="impact-header">
        <div className="grid grid-g4 grid-mid md-wider-left">
          <div>
            <Eyebrow light>WEAR IT AGAIN</Eyebrow>
            <SectionTitle id="impact-header">Fashion that is kinder to Zambia</SectionTitle>
            <p className="lead-l soft">
              The greenest garment is the one that already exists. Every shirt bought on Salaula instead of new saves
              water, energy and a trip to the dump site, and keeps money with local sellers.
            </p>
          </div>
          <ResponsiveImage src="/images/floating-hanger.svg" alt="A shirt on a hanger" width={240} height={260} eager className="round" style={{ width: 200, justifySelf: 'center', backgroundColor: '#f1e9dc', padding: 16 }} />
        </div>
      </Band>

      <Band tone="plain" label="stats-title">
        <SectionTitle id="stats-title">Environmental statistics</SectionTitle>
        <p className="txt muted mb3 w720">Why second-hand is the better choice:</p>
        <Figures figures={WHY_SECOND_HAND} />
        <div className="mt5">
          <SectionTitle level={3}>What we are working towards in Lusaka</SectionTitle>
        </div>
        <p className="txt muted mb3 w720">
          Shared deliveries, reused packaging and local sellers add up. Our targets once Salaula is fully running:
        </p>
        <Figures figures={OUR_TARGETS} />
      </Band>

      <Band tone="green" label="fitting-title">
        <Eyebrow light>PHASE 2</Eyebrow>
        <SectionTitle id="fitting-title">Virtual fitting: fewer returns, less waste</SectionTitle>
        <p className="lead soft mb3 w760">
          Every return is another trip across town and another parcel. With your 3D avatar you see how a piece
          hangs on your body before you pay, so it fits the first time.
        </p>
        <Figures figures={FITTING} light />
      </Band>

      <Band tone="sand" label="upcycling-title">
        <div className="grid grid-g4 grid-top md-2">
          <div>
            <Eyebrow>NEW</Eyebrow>
            <SectionTitle id="upcycling-title">Upcycling Initiative</SectionTitle>
            <p className="lead mb2">
              Some clothes are too worn to sell but too good to throw away. We are teaming up with Lusaka tailors to
              turn them into bags, patchwork jackets and new pieces, and to pay local hands to do it.
            </p>
            <p className="lead">Join the waitlist and we will tell you when it starts.</p>
          </div>
          {/* Room for the form (loaded a moment later) and no more: the label, the box and the button. */}
          <div className="card" style={{ minHeight: 176 }}>
            <Suspense fallback={null}>
              <WaitlistForm
                programName={PROGRAMS.upcycling}
                errorMessage="Could not join waitlist. Please try again."
                successDetail="We'll be in touch soon."
              />
            </Suspense>
          </div>
        </div>
      </Band>
    </PublicPage>
  );
}
