package mfa

import (
	"fmt"
	"strings"

	"github.com/boombuler/barcode/qr"
)

// QRSVG draws text as a QR code in SVG (black modules on white, a quiet zone
// of four modules), the image supabase-js shows as a data URI.
func QRSVG(text string) (string, error) {
	code, err := qr.Encode(text, qr.M, qr.Auto)
	if err != nil {
		return "", err
	}
	n := code.Bounds().Dx()
	const quiet = 4
	size := n + 2*quiet
	var path strings.Builder
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			if r, _, _, _ := code.At(x, y).RGBA(); r == 0 {
				fmt.Fprintf(&path, "M%d %dh1v1h-1z", x+quiet, y+quiet)
			}
		}
	}
	return fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" shape-rendering="crispEdges" role="img" aria-label="QR code"><rect width="%d" height="%d" fill="white"/><path fill="black" d="%s"/></svg>`,
		size, size, size, size, path.String()), nil
}
