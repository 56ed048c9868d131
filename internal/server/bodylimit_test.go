package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"salaula/internal/config"
)

// firstAnswer sends the request head (request line and headers, without
// the blank line that ends them) over a raw connection, then, when
// sendBody, the body alongside, and returns the first response the server
// writes, interim ones (100 Continue) included, and its JSON body.
func firstAnswer(t *testing.T, env *testEnv, head string, body []byte, sendBody bool) (*http.Response, map[string]any) {
	t.Helper()
	conn, err := net.Dial("tcp", env.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	head += fmt.Sprintf("Host: x\r\nContent-Length: %d\r\n\r\n", len(body))
	if _, err := io.WriteString(conn, head); err != nil {
		t.Fatal(err)
	}
	if sendBody {
		go conn.Write(body) // the server may close before it has all
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	var m map[string]any
	if res.StatusCode >= 200 {
		if err := json.NewDecoder(res.Body).Decode(&m); err != nil {
			t.Fatalf("%d answer is not JSON: %v", res.StatusCode, err)
		}
	}
	return res, m
}

// A body whose Content-Length is over the limit is answered 413 at once,
// in its API's shape, never "100 Continue" first, so a client that waits
// for 100 Continue sees the 413; a client that sends its whole body at once
// sees it too, though the server reads none of it.
func TestBodyOverTheLimitIsRefusedBeforeItIsRead(t *testing.T) {
	eachEngine(t, func(c *config.Config) {
		noFormLimit(c)
		c.MaxUploadBytes = 1 << 20
	}, func(t *testing.T, env *testEnv) {
		u := newUser(t, env, "big@example.com")
		contact := bytes.Repeat([]byte("x"), 2<<20)
		image := bytes.Repeat([]byte{0xff}, 2<<20)
		for _, c := range []struct {
			name, head string
			body       []byte
			field, msg string
		}{
			{"contact form", "POST /functions/v1/contact-form-submit HTTP/1.1\r\nContent-Type: application/json\r\n",
				contact, "error", "Request body is too large (at most 64 KiB)"},
			{"sign-in", "POST /auth/v1/token?grant_type=password HTTP/1.1\r\nContent-Type: application/json\r\n",
				contact, "msg", "Request body is too large (at most 64 KiB)"},
			{"upload, multipart", "POST /storage/v1/object/user-media/" + u.ID + "/big.jpg HTTP/1.1\r\nAuthorization: Bearer " + u.Token +
				"\r\nContent-Type: multipart/form-data; boundary=b\r\n", image, "message", "The file is too large: at most 1 MB per image"},
			{"upload, raw body", "PUT /storage/v1/object/user-media/" + u.ID + "/big.jpg HTTP/1.1\r\nAuthorization: Bearer " + u.Token +
				"\r\nContent-Type: image/jpeg\r\n", image, "message", "The file is too large: at most 1 MB per image"},
			{"realtime broadcast", "POST /realtime/v1/api/broadcast/room/events/wave HTTP/1.1\r\nContent-Type: application/json\r\n",
				contact, "message", "Request body is too large (at most 64 KiB)"},
		} {
			for _, expect := range []bool{true, false} {
				t.Run(fmt.Sprintf("%s, Expect %v", c.name, expect), func(t *testing.T) {
					head := c.head
					if expect {
						head += "Expect: 100-continue\r\n"
					}
					if strings.Contains(c.name, "realtime") {
						head += "Apikey: " + env.anonKey(t) + "\r\nAuthorization: Bearer " + u.Token + "\r\n"
					}
					res, body := firstAnswer(t, env, head, c.body, !expect)
					if res.StatusCode != http.StatusRequestEntityTooLarge {
						t.Fatalf("first answer %s, want 413", res.Status)
					}
					if body[c.field] != c.msg {
						t.Fatalf("413 body %v, want %s %q", body, c.field, c.msg)
					}
				})
			}
		}
	})
}
