import type { ReactNode } from 'react';
import { Footer } from '../../components/Footer';
import { FormIcon } from '../../components/ui';
import { Icon } from '../../components/icons';
import { PageHeader } from '../../components/PageHeader';
import type { SocialLink } from '../../config/constants';
import { socialLinks, useSiteSettings } from '../../lib/siteSettings';
import { ContactForm } from './ContactForm';
import '../../styles/form-pages.css';

const SOCIAL_ICONS: Partial<Record<SocialLink['name'], ReactNode>> = {
  Facebook: <Icon name="facebook" />,
  Instagram: <Icon name="instagram" />,
  X: <Icon name="x" />,
  LinkedIn: <Icon name="linkedin" />,
};

/** The Contact Us page (/contact): contact information on the left, the message form on the right. */
export default function ContactPage() {
  const site = useSiteSettings();
  const supportEmail = site.supportEmail;
  // The panel's four networks (the same accounts as the footer), those open now.
  const social = socialLinks(site).filter((l) => SOCIAL_ICONS[l.name] && l.href !== '#');
  return (
    <div className="app">
      <PageHeader title="Contact Us" />
      <main className="main contact-main">
        <p className="contact-intro">Any question or remarks? Just write us a message!</p>
        <div className="fk-paper fk-paper-raised contact-card">
          <section aria-labelledby="contact-info-heading" className="contact-info">
            <h2 id="contact-info-heading" className="contact-info-h">
              Contact Information
            </h2>
            {site.phone.e164 && (
              <a href={site.phone.link} className="contact-line">
                <FormIcon name="phone" />
                {site.phone.display}
              </a>
            )}
            {site.whatsapp.e164 && (
              <a href={site.whatsapp.link} target="_blank" rel="noopener noreferrer" className="contact-line">
                <Icon name="whatsapp" />
                WhatsApp {site.whatsapp.display}
              </a>
            )}
            <a href={`mailto:${supportEmail}`} className="contact-line">
              <FormIcon name="email" />
              {supportEmail}
            </a>
            <address className="contact-line">
              <FormIcon name="location" />
              {site.address}
            </address>
            <nav aria-label="Social networks" className="contact-social">
              {social.map((s) => (
                <a
                  key={s.name}
                  href={s.href}
                  target="_blank"
                  rel="noopener noreferrer"
                  aria-label={`Salaula on ${s.name} (opens in a new tab)`}
                  className="icon-btn contact-social-btn"
                >
                  {SOCIAL_ICONS[s.name]}
                </a>
              ))}
            </nav>
          </section>
          <section aria-label="Write us a message" className="contact-form-box">
            <ContactForm />
          </section>
        </div>
      </main>
      <Footer />
    </div>
  );
}
