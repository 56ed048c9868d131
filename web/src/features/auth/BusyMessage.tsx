import { Spinner } from '../../components/ui';

/** BusyMessage is a spinner with a line of text, announced to screen readers as a status. */
export function BusyMessage({ text }: { text: string }) {
  return (
    <div role="status" className="fk-busy">
      <Spinner />
      <p>{text}</p>
    </div>
  );
}
