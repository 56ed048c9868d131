package media

import (
	"bytes"
	"fmt"
	"image"
	"image/draw"
	"image/jpeg"
	"image/png"
	"math"

	"github.com/gen2brain/webp"
	xwebp "golang.org/x/image/webp"

	"salaula/internal/apierr"
)

// MaxRenderPixels is the most pixels a stored image may have to be
// transformed, checked from its header before it is decoded: what an
// upload may have (MaxImageSide a side). Decoding takes 3 to 4 bytes a
// pixel, so this keeps one transformation to about 10 MB of pixels.
const MaxRenderPixels = MaxImageSide * MaxImageSide

// Errors of a transformation.
var (
	ErrNotRenderable = apierr.Coded(apierr.UnsupportedType, CodeInvalidMime, "The file is not a JPEG, PNG or WebP image that can be resized")
	ErrTooManyPixels = apierr.Coded(apierr.TooLarge, CodeTooLarge, fmt.Sprintf("The image is too large to resize: at most %d pixels", MaxRenderPixels))
)

// decodeImage decodes a stored JPEG, PNG or WebP image (found by its
// content), after checking from its header that it has at most
// MaxRenderPixels, and returns it with its EXIF orientation (1 to 8; 1
// for none).
func decodeImage(b []byte) (image.Image, int, error) {
	var decode func(*bytes.Reader) (image.Image, error)
	var config func(*bytes.Reader) (image.Config, error)
	orientation := 1
	switch {
	case bytes.HasPrefix(b, []byte{0xFF, 0xD8, 0xFF}):
		decode = func(r *bytes.Reader) (image.Image, error) { return jpeg.Decode(r) }
		config = func(r *bytes.Reader) (image.Config, error) { return jpeg.DecodeConfig(r) }
		if o := JPEGOrientation(b); o > 0 {
			orientation = o
		}
	case bytes.HasPrefix(b, []byte(pngSignature)):
		decode = func(r *bytes.Reader) (image.Image, error) { return png.Decode(r) }
		config = func(r *bytes.Reader) (image.Config, error) { return png.DecodeConfig(r) }
	case len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP":
		decode = func(r *bytes.Reader) (image.Image, error) { return xwebp.Decode(r) }
		config = func(r *bytes.Reader) (image.Config, error) { return xwebp.DecodeConfig(r) }
	default:
		return nil, 0, ErrNotRenderable
	}
	cfg, err := config(bytes.NewReader(b))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 {
		return nil, 0, ErrNotRenderable
	}
	if int64(cfg.Width)*int64(cfg.Height) > MaxRenderPixels {
		return nil, 0, ErrTooManyPixels
	}
	img, err := decode(bytes.NewReader(b))
	if err != nil {
		return nil, 0, ErrNotRenderable
	}
	return img, orientation, nil
}

// swapsSides reports whether an EXIF orientation turns the image a
// quarter (so its width is shown as its height).
func swapsSides(orientation int) bool { return orientation >= 5 && orientation <= 8 }

// plan returns, for an image shown w by h pixels, the size of the region
// of it to take (centred) and the size to scale that region to, as t
// asks: cover fills the box and crops what overflows, contain fits in it,
// fill stretches to it; with one side given the other keeps the image's
// proportions. Nothing is enlarged: a box larger than the image shrinks
// to it, keeping its proportions.
func plan(w, h int, t Transform) (cw, ch, dw, dh int) {
	fw, fh, bw, bh := float64(w), float64(h), float64(t.Width), float64(t.Height)
	scaled := func(s float64) (int, int, int, int) {
		s = min(s, 1)
		return w, h, max(1, int(math.Round(fw*s))), max(1, int(math.Round(fh*s)))
	}
	switch {
	case t.Width == 0 && t.Height == 0:
		return w, h, w, h
	case t.Height == 0:
		return scaled(bw / fw)
	case t.Width == 0:
		return scaled(bh / fh)
	case t.Resize == "contain":
		return scaled(min(bw/fw, bh/fh))
	case t.Resize == "fill":
		return w, h, min(t.Width, w), min(t.Height, h)
	}
	// cover: the largest centred region of the box's proportions.
	cw = min(w, max(1, int(math.Round(fh*bw/bh))))
	ch = min(h, max(1, int(math.Round(fw*bh/bw))))
	if t.Width <= cw && t.Height <= ch {
		return cw, ch, t.Width, t.Height
	}
	return cw, ch, cw, ch
}

// span is one source pixel's share of a destination pixel.
type span struct {
	at int
	w  float32
}

// spans returns, for each of n destination pixels along a side of src
// source pixels (n <= src), the source pixels it covers and their weights
// (the share of its area each one is, summing to 1).
func spans(src, n int) [][]span {
	out := make([][]span, n)
	f := float64(src) / float64(n)
	for i := range out {
		start, end := float64(i)*f, float64(i+1)*f
		for j := int(start); j < src && float64(j) < end; j++ {
			if w := min(end, float64(j+1)) - max(start, float64(j)); w > 1e-9 {
				out[i] = append(out[i], span{j, float32(w / f)})
			}
		}
	}
	return out
}

// resample shrinks the region r of src to dw by dh pixels (each no larger
// than r's), each destination pixel the average of the source area it
// covers. It holds one source row at a time besides the result.
func resample(src image.Image, r image.Rectangle, dw, dh int) *image.RGBA {
	dst := image.NewRGBA(image.Rect(0, 0, dw, dh))
	row := image.NewRGBA(image.Rect(0, 0, r.Dx(), 1))
	xs, ys := spans(r.Dx(), dw), spans(r.Dy(), dh)
	acc := make([]float32, dw*4)
	for y, ysp := range ys {
		clear(acc)
		for _, sy := range ysp {
			draw.Draw(row, row.Rect, src, image.Pt(r.Min.X, r.Min.Y+sy.at), draw.Src)
			for x, xsp := range xs {
				var p0, p1, p2, p3 float32
				for _, sx := range xsp {
					px := row.Pix[sx.at*4 : sx.at*4+4 : sx.at*4+4]
					p0 += sx.w * float32(px[0])
					p1 += sx.w * float32(px[1])
					p2 += sx.w * float32(px[2])
					p3 += sx.w * float32(px[3])
				}
				a := acc[x*4 : x*4+4 : x*4+4]
				a[0] += sy.w * p0
				a[1] += sy.w * p1
				a[2] += sy.w * p2
				a[3] += sy.w * p3
			}
		}
		out := dst.Pix[y*dst.Stride : y*dst.Stride+dw*4]
		for i, v := range acc {
			out[i] = uint8(min(255, v+0.5))
		}
	}
	return dst
}

// orient turns img as an EXIF orientation (2 to 8) says it is to be
// shown; 1 (or anything else) returns it as it is.
func orient(img *image.RGBA, orientation int) *image.RGBA {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	// from returns the pixel of img shown at (x, y).
	var from func(x, y int) (int, int)
	switch orientation {
	case 2:
		from = func(x, y int) (int, int) { return w - 1 - x, y }
	case 3:
		from = func(x, y int) (int, int) { return w - 1 - x, h - 1 - y }
	case 4:
		from = func(x, y int) (int, int) { return x, h - 1 - y }
	case 5:
		from = func(x, y int) (int, int) { return y, x }
	case 6:
		from = func(x, y int) (int, int) { return y, h - 1 - x }
	case 7:
		from = func(x, y int) (int, int) { return w - 1 - y, h - 1 - x }
	case 8:
		from = func(x, y int) (int, int) { return w - 1 - y, x }
	default:
		return img
	}
	ow, oh := w, h
	if swapsSides(orientation) {
		ow, oh = h, w
	}
	out := image.NewRGBA(image.Rect(0, 0, ow, oh))
	for y := range oh {
		for x := range ow {
			sx, sy := from(x, y)
			copy(out.Pix[out.PixOffset(x, y):][:4], img.Pix[img.PixOffset(sx, sy):][:4])
		}
	}
	return out
}

// flatten puts img (premultiplied) on a white background, for a format
// without transparency.
func flatten(img *image.RGBA) {
	for i := 0; i < len(img.Pix); i += 4 {
		if a := img.Pix[i+3]; a < 255 {
			for c := range 3 {
				img.Pix[i+c] += 255 - a
			}
			img.Pix[i+3] = 255
		}
	}
}

// webpMethod is the WebP encoder's effort for an image of n pixels: its
// default (4) for sizes shown in lists and pages, the fastest (0) for
// larger ones, where 4 takes seconds (the encoder runs as WebAssembly)
// for a few per cent less.
func webpMethod(n int) int {
	if n > 640*640 {
		return 0
	}
	return webp.DefaultMethod
}

// encodeImage writes img as contentType (WebP, JPEG or PNG) at quality.
func encodeImage(img *image.RGBA, contentType string, quality int) ([]byte, error) {
	var b bytes.Buffer
	var err error
	switch contentType {
	case TypeWebP:
		// The encoder reads RGBA as not premultiplied: only an opaque image
		// is the same either way.
		var m image.Image = img
		if !img.Opaque() {
			n := image.NewNRGBA(img.Rect)
			draw.Draw(n, n.Rect, img, img.Rect.Min, draw.Src)
			m = n
		}
		err = webp.Encode(&b, m, webp.Options{Quality: quality, Method: webpMethod(img.Rect.Dx() * img.Rect.Dy())})
	case TypeJPEG:
		flatten(img)
		err = jpeg.Encode(&b, img, &jpeg.Options{Quality: quality})
	case TypePNG:
		err = png.Encode(&b, img)
	default:
		return nil, ErrNotRenderable
	}
	if err != nil {
		return nil, fmt.Errorf("media: encode %s: %w", contentType, err)
	}
	return b.Bytes(), nil
}

// transformImage decodes the stored image b, shrinks and crops it as t
// asks (shown upright, by its EXIF orientation) and encodes it as
// contentType.
func transformImage(b []byte, t Transform, contentType string) ([]byte, error) {
	src, orientation, err := decodeImage(b)
	if err != nil {
		return nil, err
	}
	bounds := src.Bounds()
	w, h := bounds.Dx(), bounds.Dy()
	if swapsSides(orientation) {
		w, h = h, w
	}
	cw, ch, dw, dh := plan(w, h, t)
	if swapsSides(orientation) { // back to the stored image's sides
		cw, ch, dw, dh = ch, cw, dh, dw
	}
	x0 := bounds.Min.X + (bounds.Dx()-cw)/2
	y0 := bounds.Min.Y + (bounds.Dy()-ch)/2
	img := resample(src, image.Rect(x0, y0, x0+cw, y0+ch), dw, dh)
	return encodeImage(orient(img, orientation), contentType, t.quality())
}
