import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';

/** A page that shows only its title, until the page's own work lands. */
export function PlaceholderPage({ title }: { title: string }) {
  return (
    <Container component="main" sx={{ py: 6 }}>
      <Typography variant="h4" component="h1">{title}</Typography>
    </Container>
  );
}
