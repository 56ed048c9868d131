package media

import (
	"testing"

	"salaula/internal/apierr"
)

// A list query is checked before anything is read: each mistake is an
// Invalid or Forbidden error with its storage name and sentence.
func TestListQueryCheck(t *testing.T) {
	t.Parallel()
	n := func(i int) *int { return &i }
	sorted := func(col, order string) ListQuery {
		var q ListQuery
		q.SortBy.Column, q.SortBy.Order = col, order
		return q
	}
	cases := []struct {
		name string
		q    ListQuery
		kind apierr.Kind
		code string
		msg  string
	}{
		{"limit zero", ListQuery{Limit: n(0)}, apierr.Invalid, CodeInvalidRequest, "limit must be 1 to 1000"},
		{"limit too large", ListQuery{Limit: n(1001)}, apierr.Invalid, CodeInvalidRequest, "limit must be 1 to 1000"},
		{"negative offset", ListQuery{Offset: -1}, apierr.Invalid, CodeInvalidRequest, "offset must not be negative"},
		{"unknown column", sorted("size", ""), apierr.Invalid, CodeInvalidRequest, "sortBy.column must be name, created_at, updated_at or last_accessed_at"},
		{"unknown order", sorted("name", "up"), apierr.Invalid, CodeInvalidRequest, "sortBy.order must be asc or desc"},
		{"unsafe prefix", ListQuery{Prefix: "me/../you"}, apierr.Invalid, CodeInvalidKey, "The object path must not contain . or .. segments"},
		{"another folder", ListQuery{Prefix: "/you/photos/"}, apierr.Forbidden, CodeUnauthorized, msgReadOwnFolder},
	}
	for _, c := range cases {
		_, _, _, _, err := c.q.check("me")
		e := apierr.As(err)
		if e == nil || e.Kind != c.kind || e.Code != c.code || e.Message != c.msg {
			t.Errorf("%s: %#v, want %v %q %q", c.name, err, c.kind, c.code, c.msg)
		}
	}
	limit, col, order, prefix, err := sorted("UPDATED_AT", "DESC").check("me")
	if err != nil || limit != 100 || col != "updated_at" || order != "desc" || prefix != "" {
		t.Errorf("defaults: %d %q %q %q %v", limit, col, order, prefix, err)
	}
	q := ListQuery{Prefix: "/me/photos/", Limit: n(1000)}
	if limit, _, _, prefix, err := q.check("me"); err != nil || limit != 1000 || prefix != "me/photos" {
		t.Errorf("own prefix: %d %q %v", limit, prefix, err)
	}
}

// Each storage error carries the hosted service's code.
func TestHostedCode(t *testing.T) {
	t.Parallel()
	for _, e := range []struct {
		err  *apierr.Error
		want string
	}{
		{ErrNoObject, "NoSuchKey"}, {ErrNoBucket, "NoSuchBucket"}, {ErrDuplicate, "KeyAlreadyExists"},
		{ErrOwnFolder, "AccessDenied"}, {ErrReadOwnFolder, "AccessDenied"}, {ErrTokenNotValid, "InvalidJWT"},
		{ErrNoToken, "InvalidRequest"}, {apierr.Coded(apierr.Unauthenticated, CodeUnauthorized, "x"), "InvalidJWT"},
		{apierr.Coded(apierr.Invalid, CodeInvalidKey, "x"), "InvalidKey"}, {apierr.New(apierr.MethodNotAllowed, "x"), ""},
	} {
		if got := HostedCode(e.err.Kind, e.err.Code); got != e.want {
			t.Errorf("%v: %q, want %q", e.err, got, e.want)
		}
	}
}
