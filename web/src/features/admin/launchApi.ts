/** The console's announcements and referrals API (/admin/v1/announcements, /admin/v1/referrals, /admin/v1/bounces). */

/** An announcement to a program's waitlist with its progress, as /admin/v1/announcements answers it. */
export interface Announcement {
  id: string;
  program: string;
  subject: string;
  body: string;
  status: 'draft' | 'sending' | 'paused' | 'cancelled' | 'done';
  ratePerSecond: number;
  allQueued: boolean;
  recipients: number;
  /** The e-mails it sends in all: those queued so far and those still to queue. */
  total: number;
  skipped: number;
  queued: number;
  sent: number;
  failing: number;
  bounced: number;
  failed: number;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

/** An announcement's e-mail as a recipient gets it. */
export interface Preview {
  to: string;
  subject: string;
  body: string;
  listUnsubscribe: string;
}

/** An address a mail server refused for good. */
export interface Bounce {
  email: string;
  reason: string;
  createdAt: string;
}

/** A sign-up whose personal link brought others. */
export interface Referrer {
  signupId: string;
  email: string;
  program: string;
  referrals: number;
  credited: number;
  lastAt: string;
}

/** Sign-ups through personal links, per program. */
export interface ReferralCount {
  program: string;
  signups: number;
  credited: number;
}

/** One sign-up made through a link. */
export interface Referral {
  signupId: string;
  email: string;
  credited: boolean;
  reason: string;
  createdAt: string;
}

/** The transitions of an announcement and the states they start from. */
export const MOVES: { action: 'send' | 'pause' | 'resume' | 'cancel'; label: string; from: Announcement['status'][] }[] = [
  { action: 'send', label: 'Send to the waitlist', from: ['draft'] },
  { action: 'pause', label: 'Pause', from: ['sending'] },
  { action: 'resume', label: 'Resume', from: ['paused'] },
  { action: 'cancel', label: 'Cancel', from: ['draft', 'sending', 'paused'] },
];
