import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { Footer } from '../../components/Footer';

// Plain markup styled by styles/site.css (no MUI): these pieces make up the
// content pages a visitor lands on first.

/** An inner public page: the shared header with its title, the page's main content, the footer. */
export function PublicPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <>
      <PageHeader title={title} />
      <main id="main" className="main">
        {children}
      </main>
      <Footer />
    </>
  );
}

/** A full-width band of a page holding one section, centred at most 1200 px wide. */
export function Band({
  children,
  label,
  tone = 'plain',
  className,
}: {
  children: ReactNode;
  /** The id of the section's heading, so the region is named by it. */
  label?: string;
  tone?: 'plain' | 'sand' | 'green' | 'white';
  /** More classes for the band (e.g. band-hero). */
  className?: string;
}) {
  return (
    <section aria-labelledby={label} className={`band band-${tone}${className ? ` ${className}` : ''}`}>
      <div className="band-in">{children}</div>
    </section>
  );
}

/** A section heading (h2 unless told) with an id for its section's label. */
export function SectionTitle({
  id,
  children,
  level = 2,
  center,
  small,
}: {
  id?: string;
  children: ReactNode;
  level?: 2 | 3;
  center?: boolean;
  /** The size of an h3, whatever the level. */
  small?: boolean;
}) {
  const big = level === 2 && !small;
  const Tag = level === 2 ? 'h2' : 'h3';
  return (
    <Tag id={id} className={`${big ? 'h2' : 'h3'}${center ? ' center' : ''}`}>
      {children}
    </Tag>
  );
}

/** Small uppercase words above a heading. */
export function Eyebrow({ children, light }: { children: ReactNode; light?: boolean }) {
  return <p className={light ? 'eyebrow eyebrow-light' : 'eyebrow'}>{children}</p>;
}

/**
 * The looks of a call-to-action: solid (filled green) and outline (green
 * outline) for light backgrounds, sun (filled yellow) and ghost (white
 * outline) for the green bands.
 */
export type PillLook = 'solid' | 'outline' | 'sun' | 'ghost';

/** A rounded call-to-action link to another page of the app. */
export function PillLink({ to, children, look = 'solid' }: { to: string; children: ReactNode; look?: PillLook }) {
  return (
    <RouterLink to={to} className={`pill pill-${look}`}>
      {children}
    </RouterLink>
  );
}
