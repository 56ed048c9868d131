import Box from '@mui/material/Box';
import { keyframes } from '@emotion/react';

const float = keyframes`0%, 100% { transform: translateY(0) rotate(-2deg); } 50% { transform: translateY(-14px) rotate(2deg); }`;

/** The coming-soon page's hanger, gently floating (still when the visitor prefers reduced motion). */
export function FloatingImage({ size = 200 }: { size?: number }) {
  return (
    <Box
      component="img"
      src="/images/floating-hanger.svg"
      alt="A shirt on a hanger"
      width={240}
      height={260}
      data-testid="floating-image"
      sx={{
        width: size,
        height: 'auto',
        animation: `${float} 4s ease-in-out infinite`,
        '@media (prefers-reduced-motion: reduce)': { animation: 'none' },
      }}
    />
  );
}
