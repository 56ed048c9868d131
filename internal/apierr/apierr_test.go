package apierr

import (
	"errors"
	"fmt"
	"testing"
)

func TestKindString(t *testing.T) {
	for _, c := range []struct {
		k    Kind
		want string
	}{
		{Internal, "internal"}, {Invalid, "invalid"}, {Unauthenticated, "unauthenticated"}, {Forbidden, "forbidden"},
		{NotFound, "not found"}, {MethodNotAllowed, "method not allowed"}, {Conflict, "conflict"}, {TooLarge, "too large"},
		{UnsupportedType, "unsupported type"}, {TooMany, "too many"}, {Unavailable, "unavailable"},
		{NotOffered, "not offered"}, {NotOffered + 1, "unknown"}, {Kind(255), "unknown"},
	} {
		if got := c.k.String(); got != c.want {
			t.Errorf("Kind(%d).String() = %q, want %q", c.k, got, c.want)
		}
	}
}

func TestConstructors(t *testing.T) {
	cause := errors.New("disk full")
	for _, c := range []struct {
		name                string
		err                 *Error
		kind                Kind
		code, msg, errorStr string
		fields              map[string]string
		cause               error
	}{
		{"New", New(NotFound, "No record has this id"), NotFound, "", "No record has this id", "not found", nil, nil},
		{"Coded", Coded(Forbidden, "insufficient_aal", "AAL2 required"), Forbidden, "insufficient_aal", "AAL2 required",
			"forbidden (insufficient_aal)", nil, nil},
		{"Fields", Fields("Please correct", map[string]string{"email": "Enter an e-mail"}), Invalid, "", "Please correct",
			"invalid", map[string]string{"email": "Enter an e-mail"}, nil},
		{"Wrap", Wrap(cause, "Try again"), Internal, "", "Try again", "internal: disk full", nil, cause},
		{"all", &Error{Kind: Conflict, Code: "taken", Err: cause}, Conflict, "taken", "", "conflict (taken): disk full", nil, cause},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := c.err
			if e.Kind != c.kind || e.Code != c.code || e.Message != c.msg {
				t.Errorf("got kind %v code %q message %q, want %v %q %q", e.Kind, e.Code, e.Message, c.kind, c.code, c.msg)
			}
			if e.Error() != c.errorStr {
				t.Errorf("Error() = %q, want %q", e.Error(), c.errorStr)
			}
			if fmt.Sprint(e.Fields) != fmt.Sprint(c.fields) {
				t.Errorf("Fields = %v, want %v", e.Fields, c.fields)
			}
			if e.Unwrap() != c.cause {
				t.Errorf("Unwrap() = %v, want %v", e.Unwrap(), c.cause)
			}
			if c.cause != nil && !errors.Is(e, c.cause) {
				t.Errorf("errors.Is(%v, cause) = false", e)
			}
		})
	}
}

func TestAsAndOr(t *testing.T) {
	typed := New(Conflict, "Already there")
	plain := errors.New("connection reset")
	for _, c := range []struct {
		name   string
		err    error
		as     *Error // what As returns
		orSame bool   // Or returns err itself
	}{
		{"typed", typed, typed, true},
		{"wrapped typed", fmt.Errorf("save: %w", typed), typed, true},
		{"plain", plain, nil, false},
		{"nil", nil, nil, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := As(c.err); got != c.as {
				t.Errorf("As = %v, want %v", got, c.as)
			}
			got := Or(c.err, "Please try again")
			if c.orSame {
				if got != c.err {
					t.Errorf("Or = %v, want the error itself", got)
				}
				return
			}
			e := As(got)
			if e == nil || e.Kind != Internal || e.Message != "Please try again" || e.Err != c.err {
				t.Errorf("Or = %#v, want an Internal error telling %q caused by %v", e, "Please try again", c.err)
			}
		})
	}
}
