// Package webapp embeds the built React app (web/ built by Vite into dist/).
// `make build` builds the app before the binary; a binary built without it
// refuses to serve and says so.
package webapp

import (
	"embed"
	"io/fs"
)

//go:embed all:dist
var dist embed.FS

// FS returns the built app's files, rooted at its index.html.
func FS() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // "dist" is a constant path inside the embed
	}
	return sub
}
