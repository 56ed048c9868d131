import type { ReactNode } from 'react';
import { LEGAL_LAST_UPDATED } from '../../config/constants';
import { PublicPage, PillLink } from './PublicPage';
import '../../styles/pages.css';

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
      <article className="legal">
        <p className="legal-date">Last updated {LEGAL_LAST_UPDATED}</p>
        <div className="legal-intro">{intro}</div>
        <nav aria-label="Contents" className="legal-toc">
          <h2 className="legal-toc-h">Contents</h2>
          <ol>
            {sections.map((s, i) => (
              <li key={s.title}>
                <a href={`#${slug(i)}`} className="ui-link">
                  {s.title}
                </a>
              </li>
            ))}
          </ol>
        </nav>
        {sections.map((s, i) => (
          <section key={s.title} id={slug(i)} aria-labelledby={`${slug(i)}-title`} className="legal-section">
            <h2 id={`${slug(i)}-title`} className="legal-h2">
              {i + 1}. {s.title}
            </h2>
            <div className="legal-body">{s.body}</div>
          </section>
        ))}
        <div className="legal-foot">
          <p>Something here not clear? We are happy to explain.</p>
          <PillLink to="/contact">CONTACT SUPPORT</PillLink>
        </div>
      </article>
    </PublicPage>
  );
}
