/** Props of the waitlist e-mail form used on the Impact and Wardrobe Clearance pages. */
export interface WaitlistFormProps {
  /** 'Upcycling Initiative' or 'Wardrobe Clearance Program'. */
  programName: string;
  /** Shown when the call fails: the two pages use different words. */
  errorMessage: string;
  /** Text under "You're on the list!". */
  successDetail: string;
}

/** The waitlist e-mail form (placeholder until the forms issue lands). */
export function WaitlistForm({ programName }: WaitlistFormProps) {
  return <form aria-label={`Join the ${programName} waitlist`} />;
}
