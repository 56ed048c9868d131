import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ButtonBase from '@mui/material/ButtonBase';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import ShoppingBagIcon from '@mui/icons-material/ShoppingBag';
import StorefrontIcon from '@mui/icons-material/Storefront';
import { AUTH_ROUTES, ROLES } from '../../config/constants';
import { PageHeader } from '../../components/PageHeader';
import { RequireAuth } from './RequireAuth';
import { useFinishedProfileGoesToAccount } from '../onboarding/savedProfile';

type Role = typeof ROLES.seller | typeof ROLES.buyer;

const CHOICES: { role: Role; title: string; text: string; icon: ReactNode; to: string }[] = [
  {
    role: ROLES.seller,
    title: 'Become a Seller',
    text: 'Sell your pre-loved clothes or grow your thrift business.',
    icon: <StorefrontIcon fontSize="large" />,
    to: AUTH_ROUTES.sellerSignup,
  },
  {
    role: ROLES.buyer,
    title: 'Become a Buyer',
    text: 'Discover second-hand fashion picked for your style.',
    icon: <ShoppingBagIcon fontSize="large" />,
    to: AUTH_ROUTES.buyerSignup,
  },
];

/**
 * The role choice (spec section 2): two cards that toggle (pressing the
 * chosen card again clears it); PROCEED, enabled once one is chosen, goes to
 * the matching signup form with ?role=.
 */
function SelectRole() {
  const navigate = useNavigate();
  const [role, setRole] = useState<Role | null>(null);
  const [proceeding, setProceeding] = useState(false);
  // The spec's error area: nothing sets it yet.
  const [error] = useState('');

  function proceed() {
    const choice = CHOICES.find((c) => c.role === role);
    if (!choice || proceeding) return;
    setProceeding(true);
    navigate(choice.to);
  }

  return (
    <>
      <PageHeader title="Choose Your Role" />
      <Container component="main" maxWidth="sm" sx={{ py: { xs: 3, sm: 6 }, px: 2 }}>
        <Typography id="role-heading" variant="h4" component="h2" sx={{ fontWeight: 800, textAlign: 'center' }}>
          What brings you to Salaula?
        </Typography>
        <Typography color="text.secondary" sx={{ textAlign: 'center', mt: 1, mb: 3 }}>
          Choose one to set up your profile.
        </Typography>
        {error && (
          <Alert severity="error" sx={{ mb: 2 }}>
            {error}
          </Alert>
        )}
        <Stack role="group" aria-labelledby="role-heading" direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          {CHOICES.map((c) => {
            const selected = role === c.role;
            return (
              <ButtonBase
                key={c.role}
                aria-pressed={selected}
                disabled={proceeding}
                onClick={() => setRole(selected ? null : c.role)}
                sx={{
                  flex: 1,
                  position: 'relative',
                  display: 'block',
                  textAlign: 'left',
                  p: 2.5,
                  borderRadius: 2,
                  border: 2,
                  borderColor: selected ? 'primary.main' : 'divider',
                  bgcolor: selected ? 'rgba(27, 67, 50, 0.08)' : 'background.paper',
                  '&.Mui-focusVisible': { outline: '3px solid #f4a261', outlineOffset: 2 },
                }}
              >
                {selected && (
                  <CheckCircleIcon color="primary" aria-hidden sx={{ position: 'absolute', top: 12, right: 12 }} />
                )}
                <Box sx={{ color: 'primary.main' }} aria-hidden>
                  {c.icon}
                </Box>
                <Typography variant="h6" component="span" sx={{ display: 'block', fontWeight: 800, mt: 1 }}>
                  {c.title}
                </Typography>
                <Typography variant="body2" component="span" color="text.secondary" sx={{ display: 'block' }}>
                  {c.text}
                </Typography>
              </ButtonBase>
            );
          })}
        </Stack>
        <Button
          variant="contained"
          size="large"
          fullWidth
          disabled={role === null || proceeding}
          onClick={proceed}
          sx={{ mt: 3 }}
        >
          {proceeding ? 'PROCEEDING...' : 'PROCEED'}
        </Button>
      </Container>
    </>
  );
}

/** SelectRolePage is /select_role; a visitor is first sent to sign in. */
export default function SelectRolePage() {
  return (
    <RequireAuth>
      <FinishedGoesToAccount />
      <SelectRole />
    </RequireAuth>
  );
}

/** A finished profile is edited from My account, not chosen again here. */
function FinishedGoesToAccount() {
  useFinishedProfileGoesToAccount();
  return null;
}
