package media

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"

	"golang.org/x/image/webp"
)

// Image content types the store accepts.
const (
	TypeJPEG = "image/jpeg"
	TypePNG  = "image/png"
	TypeWebP = "image/webp"
)

// MaxImageSide is the largest width or height accepted, in pixels.
const MaxImageSide = 12000

// MaxImagePixels is the largest width × height accepted: a browser showing
// an image allocates 4 bytes a pixel, so 40 megapixels is already 160 MB on
// a phone. Phone cameras take 12 to 20.
const MaxImagePixels = 40_000_000

// Errors of SniffImage.
var (
	ErrNotImage    = errors.New("Only JPEG, PNG and WebP images can be uploaded")
	ErrHEIC        = errors.New("HEIC/HEIF photos are not supported: please choose a JPEG, PNG or WebP image (most phones can share a photo as JPEG)")
	ErrBadImage    = errors.New("The image file is damaged or incomplete")
	ErrImageTooBig = fmt.Errorf("The image is too large: at most %d pixels wide or high", MaxImageSide)
	// ErrTooManyPixels: width × height over MaxImagePixels.
	ErrTooManyPixels = errors.New("The image has too many pixels: at most 40 megapixels (such as 7000 × 5000). Please choose a smaller photo or shrink it first")
)

// SniffImage returns the content type of an image by its content (never its
// name or declared type) after checking that its header decodes and that
// its size is within MaxImageSide and MaxImagePixels.
func SniffImage(b []byte) (string, error) {
	var ct string
	var decode func(*bytes.Reader) (image.Config, error)
	switch {
	case bytes.HasPrefix(b, []byte{0xFF, 0xD8, 0xFF}):
		ct, decode = TypeJPEG, func(r *bytes.Reader) (image.Config, error) { return jpeg.DecodeConfig(r) }
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")):
		ct, decode = TypePNG, func(r *bytes.Reader) (image.Config, error) { return png.DecodeConfig(r) }
	case len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP":
		ct, decode = TypeWebP, func(r *bytes.Reader) (image.Config, error) { return webp.DecodeConfig(r) }
	case isHEIF(b):
		return "", ErrHEIC
	default:
		return "", ErrNotImage
	}
	cfg, err := decode(bytes.NewReader(b))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 {
		return "", ErrBadImage
	}
	if cfg.Width > MaxImageSide || cfg.Height > MaxImageSide {
		return "", ErrImageTooBig
	}
	if int64(cfg.Width)*int64(cfg.Height) > MaxImagePixels {
		return "", ErrTooManyPixels
	}
	return ct, nil
}

// isHEIF reports whether b is an ISO media file of a HEIC/HEIF/AVIF brand.
func isHEIF(b []byte) bool {
	if len(b) < 12 || string(b[4:8]) != "ftyp" {
		return false
	}
	switch string(b[8:12]) {
	case "heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1", "avif":
		return true
	}
	return false
}

// StripJPEGMetadata returns a JPEG without its metadata segments: APP1 (EXIF,
// with GPS location, and XMP), APP12 and APP13 (IPTC) and comments. When
// the EXIF block held an orientation, a minimal EXIF block with only that
// orientation is put back, so the photo still displays upright.
func StripJPEGMetadata(b []byte) ([]byte, error) {
	if len(b) < 4 || b[0] != 0xFF || b[1] != 0xD8 {
		return nil, ErrBadImage
	}
	out := make([]byte, 0, len(b))
	out = append(out, 0xFF, 0xD8)
	orientation := 0
	i := 2
	for {
		// Skip fill bytes before a marker.
		for i < len(b) && b[i] == 0xFF && i+1 < len(b) && b[i+1] == 0xFF {
			i++
		}
		if i+4 > len(b) || b[i] != 0xFF {
			return nil, ErrBadImage
		}
		marker := b[i+1]
		if marker == 0xDA { // start of scan: the rest is image data
			if orientation > 0 {
				out = insertAfterJFIF(out, orientationSegment(orientation))
			}
			return append(out, b[i:]...), nil
		}
		if marker == 0xD9 || (marker >= 0xD0 && marker <= 0xD7) || marker == 0x01 {
			return nil, ErrBadImage // no scan before the end
		}
		n := int(binary.BigEndian.Uint16(b[i+2 : i+4]))
		if n < 2 || i+2+n > len(b) {
			return nil, ErrBadImage
		}
		seg := b[i : i+2+n]
		switch marker {
		case 0xE1:
			if o := exifOrientation(seg[4:]); o > 0 && orientation == 0 {
				orientation = o
			}
		case 0xEC, 0xED, 0xFE:
		default:
			out = append(out, seg...)
		}
		i += 2 + n
	}
}

// exifOrientation reads the Orientation tag (0x0112) of IFD0 of an APP1
// EXIF payload ("Exif\0\0" + TIFF), or 0.
func exifOrientation(p []byte) int {
	if len(p) < 14 || string(p[:6]) != "Exif\x00\x00" {
		return 0
	}
	t := p[6:]
	var bo binary.ByteOrder
	switch string(t[:2]) {
	case "II":
		bo = binary.LittleEndian
	case "MM":
		bo = binary.BigEndian
	default:
		return 0
	}
	off := int(bo.Uint32(t[4:8]))
	if off < 8 || off+2 > len(t) {
		return 0
	}
	count := int(bo.Uint16(t[off : off+2]))
	for k := 0; k < count; k++ {
		e := off + 2 + 12*k
		if e+12 > len(t) {
			return 0
		}
		if bo.Uint16(t[e:e+2]) == 0x0112 && bo.Uint16(t[e+2:e+4]) == 3 {
			if v := int(bo.Uint16(t[e+8 : e+10])); v >= 1 && v <= 8 {
				return v
			}
		}
	}
	return 0
}

// orientationSegment is an APP1 EXIF segment holding only an orientation.
func orientationSegment(o int) []byte {
	tiff := []byte{'M', 'M', 0, 42, 0, 0, 0, 8, // big-endian header, IFD0 at 8
		0, 1, // one entry
		0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, byte(o), 0, 0, // Orientation, SHORT, 1 value
		0, 0, 0, 0} // no next IFD
	payload := append([]byte("Exif\x00\x00"), tiff...)
	seg := []byte{0xFF, 0xE1, 0, 0}
	binary.BigEndian.PutUint16(seg[2:], uint16(len(payload)+2))
	return append(seg, payload...)
}

// insertAfterJFIF puts seg after the SOI and JFIF (APP0) segment of the
// start of a JPEG, where readers look for EXIF.
func insertAfterJFIF(head, seg []byte) []byte {
	at := 2
	if len(head) >= 6 && head[2] == 0xFF && head[3] == 0xE0 {
		at += 2 + int(binary.BigEndian.Uint16(head[4:6]))
	}
	out := make([]byte, 0, len(head)+len(seg))
	out = append(append(append(out, head[:at]...), seg...), head[at:]...)
	return out
}

// JPEGOrientation returns the EXIF orientation (1 to 8) of a JPEG, or 0
// when it has none.
func JPEGOrientation(b []byte) int {
	for i := 2; i+4 <= len(b) && b[i] == 0xFF && b[i+1] != 0xDA; {
		n := int(binary.BigEndian.Uint16(b[i+2 : i+4]))
		if n < 2 || i+2+n > len(b) {
			return 0
		}
		if b[i+1] == 0xE1 {
			if o := exifOrientation(b[i+4 : i+2+n]); o > 0 {
				return o
			}
		}
		i += 2 + n
	}
	return 0
}

// StripMetadata returns the image b of content type ct (as SniffImage
// found it) without the metadata that can carry where and by whom it was
// taken: see StripJPEGMetadata, StripPNGMetadata and StripWebPMetadata.
func StripMetadata(ct string, b []byte) ([]byte, error) {
	switch ct {
	case TypeJPEG:
		return StripJPEGMetadata(b)
	case TypePNG:
		return StripPNGMetadata(b)
	case TypeWebP:
		return StripWebPMetadata(b)
	}
	return nil, ErrNotImage
}

// pngSignature starts every PNG file.
const pngSignature = "\x89PNG\r\n\x1a\n"

// pngMetadataChunks are the PNG chunks that hold text or EXIF (which can
// carry a location, a name, a device): they are dropped.
var pngMetadataChunks = map[string]bool{"tEXt": true, "iTXt": true, "zTXt": true, "eXIf": true}

// StripPNGMetadata returns a PNG without its text chunks (tEXt, iTXt, zTXt)
// and EXIF (eXIf), and without anything after IEND. Every other chunk is
// kept byte for byte, so the image is unchanged.
func StripPNGMetadata(b []byte) ([]byte, error) {
	if !bytes.HasPrefix(b, []byte(pngSignature)) {
		return nil, ErrBadImage
	}
	out := make([]byte, 0, len(b))
	out = append(out, pngSignature...)
	for i := len(pngSignature); ; {
		if i+12 > len(b) {
			return nil, ErrBadImage // no IEND
		}
		n := binary.BigEndian.Uint32(b[i : i+4])
		if n > uint32(len(b)-i-12) {
			return nil, ErrBadImage
		}
		end := i + 12 + int(n)
		typ := string(b[i+4 : i+8])
		if !pngMetadataChunks[typ] {
			out = append(out, b[i:end]...)
		}
		if typ == "IEND" {
			return out, nil
		}
		i = end
	}
}

// WebP VP8X flags of the metadata StripWebPMetadata removes.
const (
	webpFlagEXIF = 0x08
	webpFlagXMP  = 0x04
)

// StripWebPMetadata returns a WebP without its EXIF and XMP chunks (and the
// extended header's flags for them), and without anything after the RIFF
// container. Every other chunk is kept byte for byte.
func StripWebPMetadata(b []byte) ([]byte, error) {
	if len(b) < 12 || string(b[:4]) != "RIFF" || string(b[8:12]) != "WEBP" {
		return nil, ErrBadImage
	}
	size := int(binary.LittleEndian.Uint32(b[4:8]))
	if size < 4 || size > len(b)-8 {
		return nil, ErrBadImage
	}
	body := b[12 : 8+size]
	out := make([]byte, 12, 8+size)
	copy(out, b[:12])
	for i := 0; i < len(body); {
		if i+8 > len(body) {
			return nil, ErrBadImage
		}
		n := int(binary.LittleEndian.Uint32(body[i+4 : i+8]))
		if n > len(body)-i-8 {
			return nil, ErrBadImage
		}
		end := i + 8 + n + n%2 // chunks are padded to an even length
		if end > len(body) {
			end = len(body)
		}
		switch string(body[i : i+4]) {
		case "EXIF", "XMP ":
		case "VP8X":
			chunk := append([]byte(nil), body[i:end]...)
			if n > 0 {
				chunk[8] &^= webpFlagEXIF | webpFlagXMP
			}
			out = append(out, chunk...)
		default:
			out = append(out, body[i:end]...)
		}
		i = end
	}
	binary.LittleEndian.PutUint32(out[4:8], uint32(len(out)-8))
	return out, nil
}
