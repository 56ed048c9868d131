import { useState } from 'react';
import { Button } from '../../components/ui';
import { whatsAppLink, type PlaceInLine } from './referral';
import '../../styles/share.css';

/**
 * ShareYourPlace sits below the waitlist's success words: the person's
 * place in line, their personal link, a WhatsApp share button and a copy
 * button. Nothing shows when the answer had no place.
 */
export function ShareYourPlace({ programName, place }: { programName: string; place: PlaceInLine }) {
  const [copied, setCopied] = useState(false);
  if (!place.position || !place.shareUrl) return null;
  const url = place.shareUrl;
  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
    } catch {
      setCopied(false);
      window.prompt('Copy your link', url);
    }
  }
  return (
    <div className="wl-share" aria-label="Your place in line">
      <p className="wl-place">
        You are number <strong data-testid="wl-position">{place.position.toLocaleString('en-ZM')}</strong> in line.
      </p>
      <p>Each friend who joins through your link moves you up the line.</p>
      <input className="wl-link" readOnly value={url} aria-label="Your personal link" onFocus={(e) => e.currentTarget.select()} />
      <div className="wl-share-buttons">
        <a className="fk-btn fk-btn-contained" href={whatsAppLink(programName, url)} target="_blank" rel="noopener noreferrer">
          Share on WhatsApp
        </a>
        <Button variant="outline" onClick={copy}>
          {copied ? 'Link copied' : 'Copy link'}
        </Button>
      </div>
    </div>
  );
}
