import { Icon, type IconName } from '../../components/icons';
import { ResponsiveImage } from '../../components/ResponsiveImage';
import { Band, Eyebrow, PublicPage, SectionTitle, PillLink } from './PublicPage';
import { TEAM } from './content';
import { useSiteSettings } from '../../lib/siteSettings';

const BLURBS: { icon: IconName; title: string; text: string }[] = [
  { icon: 'ruler', title: 'Clothes that fit', text: 'Save your sizes once and see only what fits you. In Phase 2 you will try pieces on a 3D avatar of yourself.' },
  { icon: 'shipping', title: 'Paid and delivered', text: 'Pay safely, get your parcel delivered and follow it all the way from the seller to your door.' },
  { icon: 'storefront', title: 'Tools for sellers', text: 'A storefront, stock counts and a clear view of what you earned, for shops, online sellers and street vendors alike.' },
];

const PILLARS: { icon: IconName; title: string; text: string }[] = [
  { icon: 'sparkles', title: 'AI-powered experience', text: 'A feed that learns your taste and your size, so you spend your time on clothes you would actually wear.' },
  { icon: 'groups', title: 'Inclusive community', text: 'Room for everyone: the big thrift shop, the seller with one bale, the first-time buyer counting every kwacha.' },
  { icon: 'recycling', title: 'Sustainable future', text: 'Every garment worn again is water, energy and landfill saved. We want second-hand to be the first choice.' },
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
        <div className="grid grid-g4 grid-mid md-wide-left">
          <div>
            <Eyebrow light>OUR MISSION</Eyebrow>
            <SectionTitle id="mission-title">Good clothes should not be hard to find</SectionTitle>
            <p className="lead-l soft">
              Salaula makes second-hand fashion easy, fair and a little bit fun for everyone in Zambia: shoppers who
              want quality for less, and the sellers who keep our markets alive.
            </p>
          </div>
          <ResponsiveImage src="/images/clothes-pile.svg" alt="A neat pile of folded clothes in many colours" width={480} height={360} eager className="r4" style={{ maxWidth: 420, justifySelf: 'center', width: '100%' }} />
        </div>
      </Band>

      <Band tone="plain" label="offer-title">
        <SectionTitle id="offer-title" center>What Salaula does for you</SectionTitle>
        <div className="grid md-3 mt3">
          {BLURBS.map(({ icon, title, text }) => (
            <div key={title} className="card card-line">
              <Icon name={icon} className="blurb-icon" />
              <SectionTitle level={3}>{title}</SectionTitle>
              <p className="txt muted">{text}</p>
            </div>
          ))}
        </div>
      </Band>

      <Band tone="white" label="story-title">
        <div className="w760 mx-auto">
          <SectionTitle id="story-title">Our Story</SectionTitle>
          <p className="lead mb2">
            Anyone who has shopped at Soweto or Mandevu knows the feeling: hours of digging, a sore back, and then
            the perfect denim jacket for forty kwacha. Salaula started with that feeling, and with a question: what
            if the jacket could find you instead?
          </p>
          <p className="lead mb2">
            We are a small team in New Kasama, Lusaka. We spent months at markets talking to sellers about what
            slows them down, and to shoppers about what they wish they could find. Salaula is what we heard: one
            place to buy and sell second-hand clothes, built for the phones and data bundles people really use.
          </p>
          <p className="lead">We are launching soon, and we would love you to be part of it.</p>
        </div>
      </Band>

      <Band tone="sand" label="team-title">
        <SectionTitle id="team-title" center>Meet Our Team</SectionTitle>
        <div className="grid md-2 mt3" style={{ maxWidth: 960, marginLeft: 'auto', marginRight: 'auto' }}>
          {team.map((m) => (
            <article key={m.name} className="card member">
              <ResponsiveImage
                src={m.image}
                srcSet={m.srcSet}
                sizes="160px"
                placeholder={m.placeholder}
                alt={m.uploaded ? `Portrait of ${m.name}` : `Illustrated portrait of ${m.name}`}
                width={200}
                height={200}
                className="portrait round"
              />
              <div className="member-text">
                <SectionTitle level={3}>{m.name}</SectionTitle>
                <p className="member-role">{m.role}</p>
                <p className="txt muted">{m.text}</p>
              </div>
            </article>
          ))}
        </div>
      </Band>

      <Band tone="plain" label="vision-title">
        <SectionTitle id="vision-title" center>Our Vision</SectionTitle>
        <p className="txt center muted w640">Three ideas guide everything we build.</p>
        <div className="grid md-3 mt3">
          {PILLARS.map(({ icon, title, text }) => (
            <div key={title} className="pillar">
              <div className="pillar-icon">
                <Icon name={icon} />
              </div>
              <SectionTitle level={3}>{title}</SectionTitle>
              <p className="txt muted">{text}</p>
            </div>
          ))}
        </div>
        <div className="center mt4">
          <PillLink to="/sign_up">SIGN UP NOW</PillLink>
        </div>
      </Band>
    </PublicPage>
  );
}
