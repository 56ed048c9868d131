// Package apierr is the error every service below HTTP (forms, onboarding,
// media, account, the console's rules) returns: what went wrong as a Kind,
// never an HTTP status, the sentence to show the person, the field messages
// of a form and the cause to log. The server renders it in each API family's wire shape
// (internal/server/errors_*.go), mapping Kind to a status in one place.
package apierr

import (
	"errors"
	"strings"
	"time"
)

// Kind is what went wrong, in words every API family maps to its status.
type Kind uint8

// The kinds of error a service returns.
const (
	Internal         Kind = iota // our fault: logged, the person is told to retry
	Invalid                      // the request's content is wrong
	Unauthenticated              // no valid session
	Forbidden                    // a session, but not allowed to do this
	NotFound                     // what was named does not exist
	MethodNotAllowed             // the route exists but does not take this method
	Conflict                     // it exists already, or its state forbids it
	TooLarge                     // the body is larger than allowed
	UnsupportedType              // the body's type is not taken
	TooMany                      // too many attempts lately
	Unavailable                  // passing trouble on our side
	NotOffered                   // a call of the contract this server does not offer
)

var kindNames = [...]string{"internal", "invalid", "unauthenticated", "forbidden", "not found",
	"method not allowed", "conflict", "too large", "unsupported type", "too many", "unavailable", "not offered"}

// String names the kind, for logs.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// Error is a service's typed error. Message is user-facing copy, kept out
// of Error() so that Go error strings stay lower case and short.
type Error struct {
	Kind    Kind
	Code    string            // the API family's own name for it, where its wire shape has one
	Message string            // what the person is told
	Fields  map[string]string // per-field messages of a form
	Err     error             // the cause, for the log
	// RetryAfter is, for TooMany, how long until asking again may succeed
	// (0 when unknown).
	RetryAfter time.Duration
}

// Error describes e for logs: its kind, code and cause.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Kind.String())
	if e.Code != "" {
		b.WriteString(" (" + e.Code + ")")
	}
	if e.Err != nil {
		b.WriteString(": " + e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// New is an error of kind k telling the person msg.
func New(k Kind, msg string) *Error { return &Error{Kind: k, Message: msg} }

// Coded is an error of kind k with the API family's code and message.
func Coded(k Kind, code, msg string) *Error { return &Error{Kind: k, Code: code, Message: msg} }

// Fields is an Invalid error of a form: msg on top, a message per field.
func Fields(msg string, fields map[string]string) *Error {
	return &Error{Kind: Invalid, Message: msg, Fields: fields}
}

// Wrap is an Internal error caused by err, telling the person msg.
func Wrap(err error, msg string) *Error { return &Error{Kind: Internal, Message: msg, Err: err} }

// As returns err as an *Error, or nil when it is none.
func As(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return nil
}

// Or returns err when it is an *Error, else an Internal error caused by err
// telling the person msg.
func Or(err error, msg string) error {
	if As(err) != nil {
		return err
	}
	return Wrap(err, msg)
}
