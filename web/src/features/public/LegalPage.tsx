import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { LEGAL_LAST_UPDATED } from '../../config/constants';
import { PublicPage, PillLink } from './PublicPage';

/** One numbered section of a legal page. */
export interface LegalSection {
  title: string;
  body: ReactNode;
}

/** A legal page (Terms, Privacy): date, contents, numbered sections and the CONTACT SUPPORT button. */
export function LegalPage({ title, intro, sections }: { title: string; intro: ReactNode; sections: LegalSection[] }) {
  const slug = (i: number) => `section-${i + 1}`;
  return (
    <PublicPage title={title}>
      <Box component="article" sx={{ maxWidth: 820, mx: 'auto', px: 2, py: { xs: 4, md: 6 } }}>
        <Typography sx={{ fontWeight: 700, color: 'text.secondary', mb: 2 }}>Last updated {LEGAL_LAST_UPDATED}</Typography>
        <Box sx={{ fontSize: '1.05rem', mb: 3 }}>{intro}</Box>
        <Box component="nav" aria-label="Contents" sx={{ bgcolor: '#f1e9dc', borderRadius: 3, p: 2.5, mb: 4 }}>
          <Typography component="h2" sx={{ fontWeight: 800, mb: 1 }}>
            Contents
          </Typography>
          <Box component="ol" sx={{ m: 0, pl: 3, columns: { sm: 2 }, columnGap: 4 }}>
            {sections.map((s, i) => (
              <li key={s.title}>
                <Box component="a" href={`#${slug(i)}`} sx={{ color: 'primary.main', fontWeight: 600 }}>
                  {s.title}
                </Box>
              </li>
            ))}
          </Box>
        </Box>
        {sections.map((s, i) => (
          <Box component="section" key={s.title} id={slug(i)} aria-labelledby={`${slug(i)}-title`} sx={{ mb: 4, scrollMarginTop: 80 }}>
            <Typography id={`${slug(i)}-title`} component="h2" sx={{ fontWeight: 800, fontSize: { xs: '1.25rem', md: '1.45rem' }, mb: 1.5 }}>
              {i + 1}. {s.title}
            </Typography>
            <Box sx={{ '& p': { mt: 0, mb: 1.5, lineHeight: 1.65 }, '& ul': { mt: 0, mb: 1.5, pl: 3, lineHeight: 1.65 } }}>{s.body}</Box>
          </Box>
        ))}
        <Box sx={{ borderTop: '1px solid #e3ded5', pt: 4, textAlign: 'center' }}>
          <Typography sx={{ mb: 2 }}>Something here not clear? We are happy to explain.</Typography>
          <PillLink to="/contact">CONTACT SUPPORT</PillLink>
        </Box>
      </Box>
    </PublicPage>
  );
}
