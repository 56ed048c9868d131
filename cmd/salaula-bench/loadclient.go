package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"time"
)

// The load generator shares the machine with the server it measures, so
// its own CPU per request decides how much is left for the server. Go's
// net/http client spends about as much per request as the server does
// (a request object, header maps, two goroutines per connection, JSON
// encoding of a map each time): on this 2-core machine it held salaula's
// sign-ups at c16 about 30 % below what wrk, the C tool the issue measured
// with, gets from the same server. loadConn does what wrk does instead:
// one keep-alive connection per worker, each request written from a reused
// buffer, and of the answer only the status line, Content-Length or
// chunked framing and Connection read; with load() running it on one
// thread it comes within about 10 % of wrk (docs/decisions.md).

// requestShape makes the requests of one scenario on one system: the
// request line and headers, and for writes the JSON body around the
// e-mail, which is unique per request.
type requestShape struct {
	head      string // up to and including "Content-Length: " (a write) or the whole request (a GET or a sign-in)
	pre, post []byte // the body before and after the e-mail; nil when the body is constant
	tag       string
	conc      int
}

// emailSlot stands for the e-mail in a body template.
const emailSlot = "EMAIL-SLOT"

// shape returns the requests scenario sc sends to s, their e-mails made
// unique by tag, the concurrency, the worker and the request number.
func (s *system) shape(sc scenario, tag string) requestShape {
	var path string
	var body any
	switch {
	case sc.write == "waitlist" && s.kind == "salaula":
		path, body = "/functions/v1/waitlist-signup", map[string]any{"email": emailSlot, "programName": "Upcycling Initiative", "pagePath": "/upcycling"}
	case sc.write == "waitlist":
		path, body = "/api/collections/waitlist/records", map[string]any{"email": emailSlot, "program": "Upcycling Initiative", "page_path": "/upcycling"}
	case sc.write == "contact" && s.kind == "salaula":
		path, body = "/functions/v1/contact-form-submit", map[string]any{"firstName": "Chanda", "lastName": "Mwale", "email": emailSlot,
			"phoneNumber": "+260 977 123456", "subject": "general Inquiry", "message": "When do you open in Lusaka? I have clothes to sell."}
	case sc.write == "contact":
		path, body = "/api/collections/contact_messages/records", map[string]any{"first_name": "Chanda", "last_name": "Mwale", "email": emailSlot,
			"phone_number": "+260 977 123456", "subject": "general Inquiry", "message": "When do you open in Lusaka? I have clothes to sell."}
	case sc.signIn && s.kind == "salaula":
		path, body = "/auth/v1/token?grant_type=password", map[string]any{"email": benchEmail, "password": benchPassword}
	case sc.signIn:
		path, body = "/api/collections/users/auth-with-password", map[string]any{"identity": benchEmail, "password": benchPassword}
	default:
		return requestShape{head: "GET " + sc.path + " HTTP/1.1\r\nHost: " + s.addr + "\r\nAccept-Encoding: gzip\r\n\r\n"}
	}
	b, _ := json.Marshal(body)
	head := "POST " + path + " HTTP/1.1\r\nHost: " + s.addr + "\r\nContent-Type: application/json\r\nContent-Length: "
	pre, post, unique := bytes.Cut(b, []byte(emailSlot))
	if !unique {
		return requestShape{head: head + strconv.Itoa(len(b)) + "\r\n\r\n" + string(b)}
	}
	return requestShape{head: head, pre: pre, post: post, tag: tag, conc: sc.conc}
}

// appendRequest appends the n-th request of worker to dst. The e-mail is
// tag-conc-worker-n@example.com: letters, digits, '-', '@' and '.', which
// JSON carries as they are.
func (rs requestShape) appendRequest(dst []byte, worker, n int) []byte {
	dst = append(dst, rs.head...)
	if rs.pre == nil {
		return dst
	}
	var email [64]byte
	e := append(email[:0], rs.tag...)
	e = append(e, '-')
	e = strconv.AppendInt(e, int64(rs.conc), 10)
	e = append(e, '-')
	e = strconv.AppendInt(e, int64(worker), 10)
	e = append(e, '-')
	e = strconv.AppendInt(e, int64(n), 10)
	e = append(e, "@example.com"...)
	dst = strconv.AppendInt(dst, int64(len(rs.pre)+len(e)+len(rs.post)), 10)
	dst = append(dst, "\r\n\r\n"...)
	dst = append(dst, rs.pre...)
	dst = append(dst, e...)
	return append(dst, rs.post...)
}

// loadConn is one worker's keep-alive HTTP/1.1 connection. It is not safe
// for concurrent use.
type loadConn struct {
	addr    string
	timeout time.Duration
	c       net.Conn
	r       *bufio.Reader
}

// do sends req (a whole HTTP/1.1 request) and reads the answer, returning
// its status code. On any error the connection is closed and the next
// request dials a new one.
func (lc *loadConn) do(req []byte) (int, error) {
	if lc.c == nil {
		c, err := net.DialTimeout("tcp", lc.addr, lc.timeout)
		if err != nil {
			return 0, err
		}
		lc.c = c
		if lc.r == nil {
			lc.r = bufio.NewReaderSize(c, 16<<10)
		} else {
			lc.r.Reset(c)
		}
	}
	lc.c.SetDeadline(time.Now().Add(lc.timeout))
	if _, err := lc.c.Write(req); err != nil {
		lc.close()
		return 0, err
	}
	status, keep, err := readAnswer(lc.r)
	if err != nil || !keep {
		lc.close()
	}
	return status, err
}

// close closes the connection, if any.
func (lc *loadConn) close() {
	if lc.c != nil {
		lc.c.Close()
		lc.c = nil
	}
}

// errBadAnswer is an answer the load generator cannot read.
var errBadAnswer = errors.New("malformed HTTP answer")

// readAnswer reads one HTTP/1.1 answer from r, its body discarded. It
// reports the status code and whether the connection may carry the next
// request.
func readAnswer(r *bufio.Reader) (status int, keep bool, err error) {
	line, err := r.ReadSlice('\n')
	if err != nil {
		return 0, false, err
	}
	// "HTTP/1.1 200 OK\r\n"
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) || line[8] != ' ' {
		return 0, false, fmt.Errorf("%w: status line %q", errBadAnswer, line)
	}
	status, err = strconv.Atoi(string(line[9:12]))
	if err != nil || status < 100 {
		return 0, false, fmt.Errorf("%w: status line %q", errBadAnswer, line)
	}
	keep = line[7] == '1' // HTTP/1.0 closes unless told otherwise; close then
	length, chunked := int64(-1), false
	for {
		h, err := r.ReadSlice('\n')
		if err != nil {
			return status, false, err
		}
		h = bytes.TrimRight(h, "\r\n")
		if len(h) == 0 {
			break
		}
		name, value, ok := bytes.Cut(h, []byte(":"))
		if !ok {
			return status, false, fmt.Errorf("%w: header %q", errBadAnswer, h)
		}
		value = bytes.TrimSpace(value)
		switch {
		case bytes.EqualFold(name, []byte("Content-Length")):
			length, err = strconv.ParseInt(string(value), 10, 64)
			if err != nil || length < 0 {
				return status, false, fmt.Errorf("%w: Content-Length %q", errBadAnswer, value)
			}
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			chunked = bytes.Contains(bytes.ToLower(value), []byte("chunked"))
		case bytes.EqualFold(name, []byte("Connection")):
			if bytes.EqualFold(value, []byte("close")) {
				keep = false
			}
		}
	}
	switch {
	case status == 204 || status == 304 || status < 200:
		return status, keep, nil
	case chunked:
		return status, keep, discardChunks(r)
	case length >= 0:
		_, err := r.Discard(int(length))
		return status, keep, err
	default: // the body runs to the end of the connection
		_, err := io.Copy(io.Discard, r)
		return status, false, err
	}
}

// discardChunks reads and drops a chunked body and its trailers.
func discardChunks(r *bufio.Reader) error {
	for {
		line, err := r.ReadSlice('\n')
		if err != nil {
			return err
		}
		size, _, _ := bytes.Cut(bytes.TrimRight(line, "\r\n"), []byte(";"))
		n, err := strconv.ParseInt(string(bytes.TrimSpace(size)), 16, 64)
		if err != nil || n < 0 {
			return fmt.Errorf("%w: chunk size %q", errBadAnswer, line)
		}
		if n == 0 {
			for { // trailers, then the empty line
				t, err := r.ReadSlice('\n')
				if err != nil {
					return err
				}
				if len(bytes.TrimRight(t, "\r\n")) == 0 {
					return nil
				}
			}
		}
		if _, err := r.Discard(int(n) + 2); err != nil {
			return err
		}
	}
}
