import '../../styles/pages.css';

/** The coming-soon page's hanger, gently floating (still when the visitor prefers reduced motion). */
export function FloatingImage({ size = 200 }: { size?: number }) {
  return (
    <img
      src="/images/floating-hanger.svg"
      alt="A shirt on a hanger"
      width={240}
      height={260}
      data-testid="floating-image"
      className="floating"
      style={{ width: size }}
    />
  );
}
