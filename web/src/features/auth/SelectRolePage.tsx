import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { Alert, Button, FormIcon } from '../../components/ui';
import { Icon } from '../../components/icons';
import { AUTH_ROUTES, ROLES } from '../../config/constants';
import { PageHeader } from '../../components/PageHeader';
import { RequireAuth } from './RequireAuth';
import { useFinishedProfileGoesToAccount } from '../../lib/profile';
import '../../styles/form-pages.css';

type Role = typeof ROLES.seller | typeof ROLES.buyer;

const CHOICES: { role: Role; title: string; text: string; icon: ReactNode; to: string }[] = [
  {
    role: ROLES.seller,
    title: 'Become a Seller',
    text: 'Sell your pre-loved clothes or grow your thrift business.',
    icon: <Icon name="storefront" className="role-icon" />,
    to: AUTH_ROUTES.sellerSignup,
  },
  {
    role: ROLES.buyer,
    title: 'Become a Buyer',
    text: 'Discover second-hand fashion picked for your style.',
    icon: <Icon name="bag" className="role-icon" />,
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
      <main className="ui-main">
        <h2 id="role-heading" className="fk-h1 center role-h">
          What brings you to Salaula?
        </h2>
        <p className="fk-sub center role-sub">Choose one to set up your profile.</p>
        {error && (
          <Alert severity="error" className="role-error">
            {error}
          </Alert>
        )}
        <div role="group" aria-labelledby="role-heading" className="role-cards">
          {CHOICES.map((c) => {
            const selected = role === c.role;
            return (
              <button
                type="button"
                key={c.role}
                aria-pressed={selected}
                disabled={proceeding}
                onClick={() => setRole(selected ? null : c.role)}
                className="role-card"
              >
                {selected && (
                  <span className="role-check">
                    <FormIcon name="checkCircle" />
                  </span>
                )}
                <span className="role-card-icon" aria-hidden="true">
                  {c.icon}
                </span>
                <span className="role-title">{c.title}</span>
                <span className="role-text">{c.text}</span>
              </button>
            );
          })}
        </div>
        <Button variant="solid" size="large" fullWidth disabled={role === null || proceeding} onClick={proceed} className="role-proceed">
          {proceeding ? 'PROCEEDING...' : 'PROCEED'}
        </Button>
      </main>
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
