package media

import (
	"errors"
	"fmt"

	"salaula/internal/apierr"
)

// The storage API's error names, the "error" of its wire shape
// {"statusCode": "404", "code": "NoSuchKey", "error": "not_found",
// "message": "..."}, as the hosted storage service names them; the server
// maps each error's apierr.Kind to its status and HostedCode gives its
// "code".
const (
	CodeNotFound       = "not_found"
	CodeNoBucket       = "Bucket not found"
	CodeInvalidKey     = "InvalidKey"
	CodeInvalidRequest = "InvalidRequest"
	CodeInvalidJWT     = "InvalidJWT"
	CodeDuplicate      = "Duplicate"
	CodeUnauthorized   = "Unauthorized"
	CodeTooLarge       = "Payload too large"
	CodeInvalidMime    = "invalid_mime_type"
	CodeTooMany        = "TooManyRequests"
	CodeUnavailable    = "ServiceUnavailable"
	CodeInternal       = "internal"
	CodeNotSupported   = "NotSupported"
)

// HostedCode is the hosted storage service's "code" of an error of kind k
// named name (one of the Code* names, or another for an error with no
// name of its own), or "" when it has none.
func HostedCode(k apierr.Kind, name string) string {
	switch name {
	case CodeNoBucket:
		return "NoSuchBucket"
	case CodeInvalidKey, CodeInvalidJWT, CodeNotSupported:
		return name
	case CodeDuplicate:
		return "KeyAlreadyExists"
	}
	switch k {
	case apierr.NotFound:
		return "NoSuchKey"
	case apierr.Invalid:
		return "InvalidRequest"
	case apierr.Unauthenticated:
		return "InvalidJWT"
	case apierr.Forbidden:
		return "AccessDenied"
	case apierr.Conflict:
		return "KeyAlreadyExists"
	case apierr.TooLarge:
		return "EntityTooLarge"
	case apierr.UnsupportedType:
		return "InvalidMimeType"
	case apierr.TooMany:
		return "SlowDown"
	case apierr.Unavailable:
		return "ServiceUnavailable"
	case apierr.Internal:
		return "InternalError"
	}
	return ""
}

// Messages of the storage API's errors.
const (
	msgSignIn        = "You must be signed in to upload or remove files"
	msgReadSignIn    = "You must be signed in to list or sign files"
	msgOwnFolder     = "You can only upload to or remove from your own folder: {your user id}/..."
	msgReadOwnFolder = "You can only list, inspect or sign files in your own folder: {your user id}/..."
	msgNoBucket      = "Bucket not found"
	msgNoObject      = "Object not found"
	msgDuplicate     = "The resource already exists"
	msgBusy          = "The service is busy. Please try again in a moment."
)

// Errors of the bucket's rules.
var (
	ErrNoBucket      = apierr.Coded(apierr.NotFound, CodeNoBucket, msgNoBucket)
	ErrNoObject      = apierr.Coded(apierr.NotFound, CodeNotFound, msgNoObject)
	ErrDuplicate     = apierr.Coded(apierr.Conflict, CodeDuplicate, msgDuplicate)
	ErrOwnFolder     = apierr.Coded(apierr.Forbidden, CodeUnauthorized, msgOwnFolder)
	ErrReadOwnFolder = apierr.Coded(apierr.Forbidden, CodeUnauthorized, msgReadOwnFolder)
)

// Errors of a signed URL's token.
var (
	ErrNoToken       = apierr.Coded(apierr.Invalid, CodeInvalidRequest, "The signed URL has no token: ask for a new one")
	ErrExpiredToken  = apierr.Coded(apierr.Invalid, CodeInvalidJWT, "The signed URL has expired: ask for a new one")
	ErrTokenNotValid = apierr.Coded(apierr.Invalid, CodeInvalidJWT, "The signed URL is not valid for this file")
)

// NoAccessMessage is a signed URL's reason in createSignedUrls for a path
// that is not the caller's or holds no file, as the hosted service words it.
const NoAccessMessage = "Either the object does not exist or you do not have access to it"

// IsNoAccess tells the errors a path of createSignedUrls answers with
// NoAccessMessage: not a valid path, not the caller's folder, no file.
func IsNoAccess(err error) bool {
	e := apierr.As(err)
	return e != nil && (e == ErrReadOwnFolder || e == ErrNoObject || e.Code == CodeInvalidKey)
}

// SignInError is the 401 of a storage write without a user's session;
// why tells the person what was wrong with the token they sent.
func SignInError(why string) error {
	return apierr.Coded(apierr.Unauthenticated, CodeUnauthorized, msgSignIn+": "+why)
}

// ReadSignInError is the 401 of a storage read (list, info, sign) without
// a user's session; why tells the person what was wrong with the token.
func ReadSignInError(why string) error {
	return apierr.Coded(apierr.Unauthenticated, CodeUnauthorized, msgReadSignIn+": "+why)
}

// failed is an Internal error of the bucket caused by err, telling the
// person msg; an Unavailable one saying how long was waited when the store
// did not answer in time.
func failed(err error, msg string) error {
	if na := (*NoAnswerError)(nil); errors.As(err, &na) {
		return &apierr.Error{Kind: apierr.Unavailable, Code: CodeUnavailable, Err: err,
			Message: fmt.Sprintf("The file store did not answer within %s. Please try again in a moment.", na.Limit)}
	}
	return &apierr.Error{Kind: apierr.Internal, Code: CodeInternal, Message: msg, Err: err}
}

// unavailable is an Unavailable error of the bucket caused by err.
func unavailable(err error) error {
	return &apierr.Error{Kind: apierr.Unavailable, Code: CodeUnavailable, Message: msgBusy, Err: err}
}

// invalid is an Invalid request to the bucket, telling the person msg.
func invalid(msg string) error {
	return apierr.Coded(apierr.Invalid, CodeInvalidRequest, msg)
}
