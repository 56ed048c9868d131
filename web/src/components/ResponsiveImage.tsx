import { useEffect, useRef, useState, type CSSProperties } from 'react';

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
  /** Classes for the frame (styles/site.css: r3, r4, round, portrait...). */
  className?: string;
  /** A few one-off styles for the frame. */
  style?: CSSProperties;
}

/**
 * An image sized for the screen (srcset/sizes), lazy below the fold, with the
 * placeholder background until it loads; if it fails the placeholder stays.
 */
export function ResponsiveImage({ src, alt, width, height, srcSet, sizes, placeholder, eager, className, style }: ResponsiveImageProps) {
  const [state, setState] = useState<'loading' | 'loaded' | 'failed'>('loading');
  const ref = useRef<HTMLImageElement>(null);
  useEffect(() => {
    const img = ref.current;
    if (img?.complete && img.naturalWidth > 0) setState('loaded');
  }, []);
  // .rimg (styles/site.css): the placeholder colour (IMAGE_PLACEHOLDER_BG), the image fades in once loaded.
  return (
    <span
      data-image-state={state}
      className={className ? `rimg ${className}` : 'rimg'}
      style={{
        aspectRatio: `${width} / ${height}`,
        backgroundImage: placeholder && state !== 'loaded' ? `url(${placeholder})` : undefined,
        ...style,
      }}
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
        decoding={eager ? 'sync' : 'async'}
        {...(eager ? { fetchPriority: 'high' as const } : {})}
        onLoad={() => setState('loaded')}
        onError={() => setState('failed')}
        // Hidden until loaded (then faded in, .rimg > img), so a broken image leaves the placeholder; an
        // image above the fold shows as it arrives (it is the page's largest paint, no fade to wait for).
        style={{ opacity: state === 'failed' || (!eager && state !== 'loaded') ? 0 : 1 }}
      />
    </span>
  );
}
