import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import Inventory2Icon from '@mui/icons-material/Inventory2';
import LocalShippingIcon from '@mui/icons-material/LocalShipping';
import PaymentsIcon from '@mui/icons-material/Payments';
import ScheduleIcon from '@mui/icons-material/Schedule';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { Footer } from '../../components/Footer';
import { PROGRAMS } from '../../config/constants';
import { WaitlistForm } from './WaitlistForm';

const STEPS = [
  {
    icon: <LocalShippingIcon fontSize="large" />,
    title: 'We Pick Up Your Items',
    text: 'Tell us what you no longer wear and we collect it from your door, anywhere in Lusaka, from Kabulonga to Matero.',
  },
  {
    icon: <PaymentsIcon fontSize="large" />,
    title: 'Get Paid Fast',
    text: 'When your clothes sell, your share comes straight to your mobile money or bank account. No waiting for weeks.',
  },
  {
    icon: <Inventory2Icon fontSize="large" />,
    title: 'We Handle Everything',
    text: 'We sort, photograph, price and list every piece, answer buyers and deliver. You just clear your wardrobe.',
  },
];

const REASONS = [
  { title: 'No Business Setup Required', text: 'No shop, no stall, no registration. Open to every buyer with clothes to spare.' },
  { title: 'Convenient Pickup Service', text: 'Choose a time that suits you and we come to you.' },
  { title: 'Fair Pricing', text: 'Prices set from what similar pieces sell for on Salaula, shown to you before they go live.' },
  { title: 'Zero Effort Required', text: 'No photos to take, no chats with buyers, no trips to the market.' },
];

/** The Wardrobe Clearance page (/wardrobeclearance): what the program is, and its waitlist. */
export default function WardrobeClearancePage() {
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <Box component="main" sx={{ flex: 1, width: '100%', maxWidth: 1100, mx: 'auto', px: { xs: 2, md: 4 }, py: { xs: 2, md: 4 } }}>
        <Link component={RouterLink} to="/" underline="hover" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, py: 1 }}>
          <ArrowBackIcon fontSize="small" aria-hidden />
          Back to Home
        </Link>

        <Typography component="h1" variant="h3" sx={{ fontWeight: 800, mt: 2, fontSize: { xs: '1.9rem', md: '3rem' } }}>
          Join Our Wardrobe Clearance Program
        </Typography>
        <Typography sx={{ mt: 1.5, maxWidth: 720, color: 'text.secondary' }}>
          Turn the clothes you no longer wear into money. We pick them up, sell them to shoppers across Zambia and pay
          you.
        </Typography>

        <Box component="section" aria-labelledby="how-it-works" sx={{ mt: { xs: 4, md: 6 } }}>
          <Typography id="how-it-works" component="h2" variant="h5" sx={{ fontWeight: 700, mb: 2 }}>
            How It Works
          </Typography>
          <Box component="ol" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' } }}>
            {STEPS.map((s) => (
              <Paper component="li" key={s.title} variant="outlined" sx={{ p: 3, display: 'flex', flexDirection: 'column', gap: 1 }}>
                <Box sx={{ color: 'primary.main' }} aria-hidden>
                  {s.icon}
                </Box>
                <Typography component="h3" variant="h6" sx={{ fontWeight: 700 }}>
                  {s.title}
                </Typography>
                <Typography variant="body2">{s.text}</Typography>
              </Paper>
            ))}
          </Box>
        </Box>

        <Box component="section" aria-labelledby="why-join" sx={{ mt: { xs: 4, md: 6 } }}>
          <Typography id="why-join" component="h2" variant="h5" sx={{ fontWeight: 700, mb: 2 }}>
            Why Join?
          </Typography>
          <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
            {REASONS.map((r) => (
              <Box component="li" key={r.title} sx={{ display: 'flex', gap: 1.5 }}>
                <CheckCircleIcon color="success" aria-hidden sx={{ mt: 0.25 }} />
                <Box>
                  <Typography component="h3" sx={{ fontWeight: 700 }}>
                    {r.title}
                  </Typography>
                  <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                    {r.text}
                  </Typography>
                </Box>
              </Box>
            ))}
          </Box>
        </Box>

        <Alert icon={<ScheduleIcon />} severity="info" role="note" sx={{ mt: { xs: 4, md: 6 } }}>
          <strong>Coming Soon.</strong> The Wardrobe Clearance Program is not open yet. Join the waitlist and be among the
          first in Lusaka to clear your wardrobe.
        </Alert>

        <Paper component="section" aria-labelledby="join-waitlist" elevation={0} sx={{ mt: 3, mb: 4, p: { xs: 2.5, md: 4 }, bgcolor: 'grey.100' }}>
          <Typography id="join-waitlist" component="h2" variant="h5" sx={{ fontWeight: 700, mb: 2 }}>
            Join the Waitlist
          </Typography>
          <WaitlistForm
            programName={PROGRAMS.wardrobeClearance}
            errorMessage="Something went wrong. Please try again."
            successDetail="We'll email you when ready."
          />
        </Paper>
      </Box>
      <Footer />
    </Box>
  );
}
