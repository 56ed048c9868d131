import EmailIcon from '@mui/icons-material/Email';
import FacebookIcon from '@mui/icons-material/Facebook';
import InstagramIcon from '@mui/icons-material/Instagram';
import LinkedInIcon from '@mui/icons-material/LinkedIn';
import LocationOnIcon from '@mui/icons-material/LocationOn';
import PhoneIcon from '@mui/icons-material/Phone';
import WhatsAppIcon from '@mui/icons-material/WhatsApp';
import XIcon from '@mui/icons-material/X';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Footer } from '../../components/Footer';
import { PageHeader } from '../../components/PageHeader';
import type { SocialLink } from '../../config/constants';
import { socialLinks, useSiteSettings } from '../../lib/siteSettings';
import { ContactForm } from './ContactForm';

const SOCIAL_ICONS: Partial<Record<SocialLink['name'], ReactNode>> = {
  Facebook: <FacebookIcon />,
  Instagram: <InstagramIcon />,
  X: <XIcon />,
  LinkedIn: <LinkedInIcon />,
};

/** The Contact Us page (/contact): contact information on the left, the message form on the right. */
export default function ContactPage() {
  const site = useSiteSettings();
  const supportEmail = site.supportEmail;
  // The panel's four networks (the same accounts as the footer), those open now.
  const social = socialLinks(site).filter((l) => SOCIAL_ICONS[l.name] && l.href !== '#');
  const line = { display: 'flex', alignItems: 'center', gap: 1.5, color: 'inherit' } as const;
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <PageHeader title="Contact Us" />
      <Box component="main" sx={{ flex: 1, px: { xs: 2, md: 4 }, py: { xs: 3, md: 5 }, maxWidth: 1200, mx: 'auto', width: '100%' }}>
        <Typography component="p" variant="h6" sx={{ textAlign: 'center', mb: { xs: 3, md: 5 }, fontWeight: 500 }}>
          Any question or remarks? Just write us a message!
        </Typography>
        <Paper elevation={2} sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '2fr 3fr' }, gap: { xs: 3, md: 5 }, p: { xs: 1.5, md: 2 } }}>
          <Box
            component="section"
            aria-labelledby="contact-info-heading"
            sx={{ bgcolor: 'primary.main', color: 'primary.contrastText', borderRadius: 2, p: { xs: 3, md: 4 }, display: 'flex', flexDirection: 'column', gap: 3 }}
          >
            <Typography id="contact-info-heading" component="h2" variant="h5" sx={{ fontWeight: 700 }}>
              Contact Information
            </Typography>
            <Link href={site.phone.link} underline="hover" sx={line}>
              <PhoneIcon aria-hidden />
              {site.phone.display}
            </Link>
            <Link href={site.whatsapp.link} target="_blank" rel="noopener noreferrer" underline="hover" sx={line}>
              <WhatsAppIcon aria-hidden />
              WhatsApp {site.whatsapp.display}
            </Link>
            <Link href={`mailto:${supportEmail}`} underline="hover" sx={line}>
              <EmailIcon aria-hidden />
              {supportEmail}
            </Link>
            <Typography component="address" sx={{ ...line, fontStyle: 'normal' }}>
              <LocationOnIcon aria-hidden />
              {site.address}
            </Typography>
            <Box component="nav" aria-label="Social networks" sx={{ display: 'flex', gap: 1, mt: 'auto' }}>
              {social.map((s) => (
                <IconButton
                  key={s.name}
                  component="a"
                  href={s.href}
                  target="_blank"
                  rel="noopener noreferrer"
                  aria-label={`Salaula on ${s.name} (opens in a new tab)`}
                  sx={{ color: 'inherit', bgcolor: 'rgba(255,255,255,0.12)' }}
                >
                  {SOCIAL_ICONS[s.name]}
                </IconButton>
              ))}
            </Box>
          </Box>
          <Box component="section" aria-label="Write us a message" sx={{ p: { xs: 1, md: 3 } }}>
            <ContactForm />
          </Box>
        </Paper>
      </Box>
      <Footer />
    </Box>
  );
}
