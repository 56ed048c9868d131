import { useCallback, useRef, useState, type ReactNode } from 'react';
import { SecondStepNeeded } from './mfa';
import { SecondStepForm } from './SecondStepForm';

/** What an action answers when the person cancels the code step. */
export const SECOND_STEP_CANCELLED = 'Not done: this needs the code of your authenticator app.';

/**
 * useSecondStep leads a person through two-step sign-in in the middle of an
 * action instead of showing the server's refusal. guard(run) is run, except
 * that when it throws SecondStepNeeded (a password-only session of an account
 * with two-step sign-in), prompt asks for the 6-digit code (the sign-in's
 * code step); once the code raises the session, run is repeated with the
 * same arguments. Cancel makes the action fail with SECOND_STEP_CANCELLED.
 * The page renders prompt where the action's message goes.
 */
export function useSecondStep(): {
  guard: <A extends unknown[], R>(run: (...args: A) => Promise<R>) => (...args: A) => Promise<R>;
  prompt: ReactNode;
} {
  const [asking, setAsking] = useState(false);
  const waiting = useRef<{ verified: () => void; cancelled: () => void } | null>(null);

  const guard = useCallback(
    <A extends unknown[], R>(run: (...args: A) => Promise<R>) =>
      async (...args: A): Promise<R> => {
        try {
          return await run(...args);
        } catch (err) {
          if (!(err instanceof SecondStepNeeded)) throw err;
        }
        await new Promise<void>((resolve, reject) => {
          waiting.current = { verified: resolve, cancelled: () => reject(new Error(SECOND_STEP_CANCELLED)) };
          setAsking(true);
        });
        return run(...args);
      },
    [],
  );

  const finish = (how: 'verified' | 'cancelled') => {
    const w = waiting.current;
    waiting.current = null;
    setAsking(false);
    w?.[how]();
  };

  const prompt = asking ? (
    <SecondStepForm onVerified={async () => finish('verified')} onCancel={() => finish('cancelled')} />
  ) : null;
  return { guard, prompt };
}
