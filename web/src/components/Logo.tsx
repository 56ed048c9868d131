/** Salaula's mark and word, drawn inline (no request). `light` is for dark backgrounds; `markOnly` drops the word. */
export function Logo({ light = false, size = 36, markOnly = false }: { light?: boolean; size?: number; markOnly?: boolean }) {
  return (
    <span className={light ? 'logo logo-light' : 'logo'}>
      <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
        <rect width="64" height="64" rx="14" fill={light ? '#f4d35e' : '#1b4332'} />
        <path
          d="M20 22c0-5 5-8 12-8s12 3 12 8h-7c0-2-2-3-5-3s-5 1-5 3c0 6 17 3 17 14 0 6-5 10-12 10s-13-4-13-10h7c0 3 2 5 6 5 3 0 5-1 5-4 0-6-17-3-17-15z"
          fill={light ? '#1b4332' : '#f4d35e'}
        />
      </svg>
      {!markOnly && (
        <span className="logo-word" style={{ fontSize: size * 0.6 }}>
          Salaula
        </span>
      )}
    </span>
  );
}
