/**
 * The full-page placeholder (header, hero, long sections) shown while the app
 * starts. It is the same markup as the skeleton index.html paints before any
 * script runs, styled by index.html's inline CSS (the .sk classes), so the
 * hand-over from the HTML to React is seamless and costs no style code.
 */
export function PageSkeleton() {
  return (
    <div className="sk" role="status" aria-live="polite" aria-label="Loading Salaula" data-testid="page-skeleton">
      <div className="sk-row">
        <svg className="sk-mark" viewBox="0 0 64 64" aria-hidden="true" focusable="false">
          <rect width="64" height="64" rx="14" fill="#1b4332" />
          <path
            d="M20 22c0-5 5-8 12-8s12 3 12 8h-7c0-2-2-3-5-3s-5 1-5 3c0 6 17 3 17 14 0 6-5 10-12 10s-13-4-13-10h7c0 3 2 5 6 5 3 0 5-1 5-4 0-6-17-3-17-15z"
            fill="#f4d35e"
          />
        </svg>
        <div className="sk-b sk-bar" />
        <div className="sk-b sk-dot" />
      </div>
      <div className="sk-b sk-hero" />
      <div className="sk-b sk-sec" />
      <div className="sk-b sk-sec" />
      <div className="sk-b sk-sec" />
    </div>
  );
}
