/**
 * LineChart draws lines per day in plain SVG: no chart library. The lines
 * stretch to the width of the page; the axis labels are HTML around them, so
 * their text keeps its size on a phone and on a wide screen. It is a picture
 * for the eye (aria-hidden): the figure around it says in words what it shows,
 * and its numbers are in a table next to it.
 */

export interface Series {
  label: string;
  /** A colour of the palette below, in contrast with the page. */
  color: string;
  values: number[];
  /** Which scale: 'left' (the default) or 'right'. */
  axis?: 'left' | 'right';
  /** A dot on each day. */
  marks?: boolean;
}

/** Line colours, each at least 3:1 against white. */
export const CHART_COLORS = ['#1b4332', '#b45309', '#9c4221', '#2563eb', '#7c3aed', '#4a524d'];

const W = 1000;
const H = 100;

/** scaleMax is a round top for a scale of whole numbers with four steps. */
export function scaleMax(max: number): number {
  if (max <= 4) return 4;
  const step = Math.ceil(max / 4);
  const mag = 10 ** Math.floor(Math.log10(step));
  const nice = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= step && Number.isInteger(s)) ?? step;
  return nice * 4;
}

function Scale({ top, side }: { top: number; side: 'left' | 'right' }) {
  return (
    <div className={`adm-plot-y adm-plot-y-${side}`}>
      {[4, 3, 2, 1, 0].map((i) => (
        <span key={i} style={{ bottom: `${(100 * i) / 4}%` }}>
          {((top * i) / 4).toLocaleString('en-GB')}
        </span>
      ))}
    </div>
  );
}

/** LineChart: `days` labels the x axis (its first, middle and last are written), `series` the lines. */
export function LineChart({ days, series, leftTitle, rightTitle }: { days: string[]; series: Series[]; leftTitle?: string; rightTitle?: string }) {
  const n = days.length;
  const x = (i: number) => (n <= 1 ? W / 2 : (W * i) / (n - 1));
  const tops = {
    left: scaleMax(Math.max(0, ...series.filter((s) => s.axis !== 'right').flatMap((s) => s.values))),
    right: scaleMax(Math.max(0, ...series.filter((s) => s.axis === 'right').flatMap((s) => s.values))),
  };
  const hasRight = series.some((s) => s.axis === 'right');
  const y = (v: number, axis: 'left' | 'right') => H - (H * v) / tops[axis];
  const shown = n <= 2 ? days : [days[0], days[Math.floor((n - 1) / 2)], days[n - 1]];
  return (
    <div aria-hidden="true">
      {(leftTitle || rightTitle) && (
        <div className="adm-plot-titles adm-small adm-muted">
          <span>{leftTitle}</span>
          <span>{hasRight ? rightTitle : ''}</span>
        </div>
      )}
      <div className={`adm-plot${hasRight ? ' adm-plot-two' : ''}`}>
        <Scale top={tops.left} side="left" />
        <svg className="adm-plot-area" viewBox={`0 0 ${W} ${H}`} preserveAspectRatio="none" focusable="false">
          {[0, 1, 2, 3, 4].map((i) => (
            <line key={i} className={i === 0 ? 'adm-axis' : 'adm-grid-line'} x1={0} x2={W} y1={H - (H * i) / 4} y2={H - (H * i) / 4} vectorEffect="non-scaling-stroke" />
          ))}
          {series.map((s) => {
            const axis = s.axis ?? 'left';
            const d = s.values.map((v, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)} ${y(v, axis).toFixed(2)}`).join(' ');
            return (
              <g key={s.label}>
                <path d={d} fill="none" stroke={s.color} strokeWidth={2} strokeLinejoin="round" vectorEffect="non-scaling-stroke" />
                {/* A dot is a line of no length with round ends: it stays round when the picture stretches. */}
                {(s.marks || n === 1) && (
                  <path
                    d={s.values.map((v, i) => `M${x(i).toFixed(1)} ${y(v, axis).toFixed(2)} l0 0`).join(' ')}
                    stroke={s.color}
                    strokeWidth={6}
                    strokeLinecap="round"
                    vectorEffect="non-scaling-stroke"
                  />
                )}
              </g>
            );
          })}
        </svg>
        {hasRight && <Scale top={tops.right} side="right" />}
        <div className="adm-plot-x adm-small adm-muted">
          {shown.map((d, i) => (
            <span key={i}>{d}</span>
          ))}
        </div>
      </div>
      <ul className="adm-legend">
        {series.map((s) => (
          <li key={s.label}>
            <span className="adm-swatch" style={{ background: s.color }} />
            {s.label}
          </li>
        ))}
      </ul>
    </div>
  );
}
