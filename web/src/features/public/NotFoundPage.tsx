import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';

/** The 404 page every unknown path redirects to. */
export default function NotFoundPage() {
  return (
    <Container component="main" maxWidth="sm" sx={{ py: 10, textAlign: 'center' }}>
      <Typography variant="h2" component="h1" sx={{ fontWeight: 800, mb: 2 }}>
        Oooppss!!
      </Typography>
      <Typography sx={{ mb: 4 }}>
        Hey friend, the page you are looking for does not exist yet or another error occurred.
      </Typography>
      <Button variant="contained" component={RouterLink} to="/">
        RETURN TO HOME
      </Button>
    </Container>
  );
}
