import { useEffect, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import type { SxProps, Theme } from '@mui/material/styles';
import { IMAGE_PLACEHOLDER_BG } from '../config/constants';

/** Paths of one raster drawing made by scripts/make-images.mjs at several widths. */
export interface ImageSet {
  src: string;
  srcSet: string;
  /** A tiny version, shown blurred until the real image loads. */
  placeholder: string;
}

/** imageSet names the files of /images/{name}-{width}.webp and its -placeholder.webp. */
export function imageSet(name: string, widths: readonly number[] = [200, 400]): ImageSet {
  return {
    src: `/images/${name}-${widths[widths.length - 1]}.webp`,
    srcSet: widths.map((w) => `/images/${name}-${w}.webp ${w}w`).join(', '),
    placeholder: `/images/${name}-placeholder.webp`,
  };
}

export interface ResponsiveImageProps {
  src: string;
  alt: string;
  /** Intrinsic size: reserves the space so nothing shifts when the image arrives. */
  width: number;
  height: number;
  srcSet?: string;
  sizes?: string;
  /** A small image shown (blurred) over the placeholder colour until the real one loads. */
  placeholder?: string;
  /** Above the fold: load at once with high priority instead of lazily. */
  eager?: boolean;
  sx?: SxProps<Theme>;
}

/**
 * An image sized for the screen (srcset/sizes), lazy below the fold, with the
 * placeholder background until it loads; if it fails the placeholder stays.
 */
export function ResponsiveImage({ src, alt, width, height, srcSet, sizes, placeholder, eager, sx }: ResponsiveImageProps) {
  const [state, setState] = useState<'loading' | 'loaded' | 'failed'>('loading');
  const ref = useRef<HTMLImageElement>(null);
  useEffect(() => {
    const img = ref.current;
    if (img?.complete && img.naturalWidth > 0) setState('loaded');
  }, []);
  return (
    <Box
      component="span"
      data-image-state={state}
      sx={[
        {
          display: 'block',
          position: 'relative',
          overflow: 'hidden',
          aspectRatio: `${width} / ${height}`,
          bgcolor: IMAGE_PLACEHOLDER_BG,
          backgroundImage: placeholder && state !== 'loaded' ? `url(${placeholder})` : 'none',
          backgroundSize: 'cover',
        },
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
    >
      <img
        ref={ref}
        src={src}
        srcSet={srcSet}
        sizes={sizes}
        alt={alt}
        width={width}
        height={height}
        loading={eager ? 'eager' : 'lazy'}
        decoding="async"
        {...(eager ? { fetchPriority: 'high' as const } : {})}
        onLoad={() => setState('loaded')}
        onError={() => setState('failed')}
        style={{
          display: 'block',
          width: '100%',
          height: '100%',
          objectFit: 'cover',
          opacity: state === 'loaded' ? 1 : 0,
          transition: 'opacity 200ms ease-out',
        }}
      />
    </Box>
  );
}
